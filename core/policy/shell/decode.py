"""What a small pipeline of text filters prints, worked out at read time: ``$(echo L2V0Yy9zaGFkb3c= | base64 -d)``
is ``/etc/shadow``, ``$(tr a-z n-za-m <<< /rgp/funqbj)`` too. The shell runs the decoder before the command, so
the command is given the decoded text; reading it as unknown would hide the path it names.

:func:`static_output` reads a command substitution's script of at most :data:`MAX_STAGES` simple commands joined
by ``|``, with literal words only: a source (``echo``, ``printf``, ``cat`` or a decoder fed a here-string) and the
filters ``base64 -d``, ``base32 -d``, ``xxd -r -p``, ``openssl base64 -d``, ``tr SET1 SET2``, ``tr -d SET``,
``rev``. Anything else is None (unknown, as before). The caller keeps the DECODED mark with the text, so what runs
decoded data is judged as before.
"""

from __future__ import annotations

import base64
import binascii
import re

from core.policy.shell.common import unescape
from core.policy.shell.state import MAX_VALUE
from core.policy.shell.syntax import Simple

#: stages of a pipeline worked out (more: unknown)
MAX_STAGES = 4
#: programs a stage may be (a cheap test before a script is read)
FILTERS = frozenset(("echo", "printf", "cat", "base64", "base32", "xxd", "openssl", "tr", "rev"))
_CLASSES = {"[:lower:]": "abcdefghijklmnopqrstuvwxyz", "[:upper:]": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "[:digit:]": "0123456789", "[:space:]": " \t\n\r\f\v", "[:blank:]": " \t",
            "[:alpha:]": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "[:alnum:]": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"}
_NOT_B64 = re.compile(r"[^A-Za-z0-9+/=_-]")


def _tr_set(spec: str) -> str | None:
    """A ``tr`` set (``a-z``, ``[:upper:]``, ``\\n``) as its characters, or None when it is not read here."""
    spec = unescape(spec) if "\\" in spec else spec
    out = []
    i, n = 0, len(spec)
    while i < n:
        if spec[i] == "[" and spec[i:i + 2] == "[:":
            j = spec.find(":]", i)
            cls = _CLASSES.get(spec[i:j + 2]) if j > 0 else None
            if cls is None:
                return None
            out.append(cls)
            i = j + 2
            continue
        if spec[i] == "[":
            return None  # ([=c=], [c*n]: not read here)
        if i + 2 < n and spec[i + 1] == "-":
            a, b = ord(spec[i]), ord(spec[i + 2])
            if b < a or b - a > 256:
                return None
            out.append("".join(map(chr, range(a, b + 1))))
            i += 3
            continue
        out.append(spec[i])
        i += 1
    return "".join(out)


def _tr(args: list, text: str) -> str | None:
    if args and args[0] == "-d" and len(args) == 2:
        drop = _tr_set(args[1])
        return None if drop is None else "".join(ch for ch in text if ch not in drop)
    if len(args) != 2 or args[0][:1] == "-":
        return None
    a, b = _tr_set(args[0]), _tr_set(args[1])
    if not a or not b:
        return None
    b = b + b[-1] * (len(a) - len(b)) if len(b) < len(a) else b[:len(a)]
    return text.translate(str.maketrans(a, b))


def _decoded(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _base64(args: list, text: str, prog: str) -> str | None:
    decode = any(a in ("-d", "--decode", "-D") or (a[:1] == "-" and a[1:2] != "-" and "d" in a) for a in args)
    if not decode:
        return None
    data = "".join(text.split())
    try:
        if prog == "base32":
            return _decoded(base64.b32decode(data + "=" * (-len(data) % 8)))
        if _NOT_B64.search(data):
            return None
        return _decoded(base64.b64decode(data + "=" * (-len(data) % 4), altchars=b"-_" if "-" in data or
                                         "_" in data else None))
    except (binascii.Error, ValueError):
        return None


def _xxd(args: list, text: str) -> str | None:
    flags = "".join(a[1:] for a in args if a[:1] == "-")
    if "r" not in flags or "p" not in flags:
        return None  # (xxd -r of a hex dump with offsets: not read here)
    try:
        return _decoded(bytes.fromhex("".join(text.split())))
    except ValueError:
        return None


def _source(prog: str, args: list) -> str | None:
    """What ``echo``/``printf`` print (literal words)."""
    if prog == "echo":
        k = 0
        esc = False
        nl = True
        while k < len(args) and len(args[k]) > 1 and args[k][0] == "-" and set(args[k][1:]) <= set("neE"):
            esc = esc or "e" in args[k]
            nl = nl and "n" not in args[k]
            k += 1
        text = " ".join(args[k:])
        return (unescape(text) if esc else text) + ("\n" if nl else "")
    if not args:
        return None
    fmt = unescape(args[0])
    rest = args[1:]
    if "%" not in fmt:
        return fmt
    if fmt.replace("%s", "").replace("%b", "").count("%") or fmt.count("%s") + fmt.count("%b") != 1:
        return None
    return "".join(fmt.replace("%b", "%s").replace("%s", unescape(v) if "%b" in fmt else v) for v in rest or [""])


def _stage(prog: str, args: list, text: str | None) -> str | None:
    if prog in ("echo", "printf"):
        return _source(prog, args) if text is None else None
    if text is None:
        return None
    if prog == "cat":
        return text if not args or args == ["-"] else None
    if prog in ("base64", "base32"):
        return _base64(args, text, prog)
    if prog == "openssl":
        if args[:1] in (["base64"], ["enc"]) and ("-d" in args) and (args[0] == "base64" or "-base64" in args or
                                                                      "-a" in args):
            return _base64(["-d"], text, "base64")
        return None
    if prog == "xxd":
        return _xxd(args, text)
    if prog == "tr":
        return _tr(args, text)
    if prog == "rev":
        if args:
            return None
        return "\n".join(line[::-1] for line in text.split("\n"))
    return None


def static_output(script: list) -> str | None:
    """What ``script`` (a command substitution's) prints when it is a short pipeline of literal text filters, or
    None."""
    if not script or len(script) > MAX_STAGES:
        return None
    text = None
    for k, (node, op) in enumerate(script):
        if type(node) is not Simple or node.assigns or not node.words or (op != "|" and k < len(script) - 1):
            return None
        words = [w.lit for w in node.words]
        if None in words:
            return None
        prog = words[0].rsplit("/", 1)[-1]
        if prog not in FILTERS:
            return None
        for rd in node.redirs:
            if k == 0 and rd.op == "<<<" and rd.target is not None and rd.target.lit is not None:
                text = rd.target.lit + "\n"
            elif rd.op in (">", "2>") and rd.target is not None and rd.target.lit == "/dev/null" and rd.fd == "2":
                continue
            else:
                return None
        text = _stage(prog, words[1:], text)
        if text is None or len(text) > MAX_VALUE:
            return None
    return text
