"""What the commands inline code runs imply, and the last pass over the effects (:func:`_finish`): a shell or
interpreter started with no script (:func:`bare_shell`: ``pty.spawn("/bin/sh")``, ``["bash", "-li"]``),
descriptors other than 0-2 redirected (``<&3``: a socket's), ``/dev/tcp/HOST/PORT``, ``nc HOST PORT``, and the
connections of reads and writes of URLs. Effects are returned without repeats, at most :data:`MAX_EFFECTS`.

To add a fact about a command run: :func:`_shell_facts` (command lines) or :func:`_finish` (argv lists); a
shell or interpreter: :data:`SHELL_PROGRAMS`. Add a case to ``tests/core/policy/test_code.py``.
"""

from __future__ import annotations

import re

from core.policy import tables as T
from core.policy._paths import UNKNOWN_MARK as MARK
from core.policy.code.literals import _addr_of, _show_addr

_DEV_TCP = re.compile(r"/dev/(?:tcp|udp)/([A-Za-z0-9.:-]{1,253})/(\d{1,5})")
_FD_REDIR = re.compile(r"(?:^|[\s;|&])\d*[<>]&\s*([3-9]|[1-9]\d{1,3})(?![\w])")
_NET_TOOLS = frozenset(("nc", "ncat", "netcat", "telnet", "socat", "openssl"))
#: shells and interpreters: started with no command, they run whatever they are fed
SHELL_PROGRAMS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash",
                            "rbash", "pwsh", "powershell", "busybox", "python", "python2", "python3", "perl", "ruby",
                            "irb", "node", "nodejs", "php", "lua", "luajit", "tclsh", "wish", "expect", "jshell",
                            "cmd", "cmd.exe", "powershell.exe"))
#: options that leave a shell interactive (no script named)
_SHELL_FLAG_CHARS = frozenset("ilpsqmuvxbBEhIV-")
_WRAPPERS = frozenset(("exec", "env", "nohup", "setsid", "command", "builtin"))


def bare_shell(words: list) -> str | None:
    """The shell or interpreter ``words`` start with no script or command (``["/bin/sh", "-i"]``,
    ``["bash", "-li"]``, ``["python3"]``, ``["/bin/sh", "-i", "<&3"]``), or None."""
    w = [x for x in words if isinstance(x, str)]
    while w and w[0] in _WRAPPERS:
        w.pop(0)
    if not w or MARK in w[0]:
        return None
    prog = w[0].rsplit("/", 1)[-1]
    if prog not in SHELL_PROGRAMS and not (prog.startswith("python") and prog[6:].replace(".", "").isdigit()):
        return None
    target = False
    for a in w[1:]:
        if target:
            target = False
            continue  # the file of a redirection (``>& /dev/tcp/…``)
        if a in (">", ">>", "<", ">&", "&>", "2>", "1>", "0<", "<>", ">|", "2>>", "&>>"):
            target = True
            continue
        if _FD_REDIR.match(" " + a) or a in ("2>&1", "0>&1", "1>&2", ">&2", "-", "--"):
            continue
        if a.startswith("--") and a in ("--login", "--interactive", "--norc", "--noprofile", "--posix", "--noediting"):
            continue
        if a.startswith("-") and len(a) > 1 and set(a[1:]) <= _SHELL_FLAG_CHARS:
            continue
        if a.startswith(("<", ">", "2>")):
            continue  # other redirections
        return None
    return w[0]


_SEGMENTS = re.compile(r"&&|\|\||[;\n|`]|\$\(|(?<![<>&])&(?![>&])")


def _shell_facts(text: str) -> list:
    """Facts about a command line the code runs: shells started in it with no script, descriptors other
    than 0-2 redirected (``<&3``: a socket's), ``/dev/tcp/HOST/PORT``, ``nc HOST PORT``."""
    out: list = []
    if len(text) > 4096:
        text = text[:4096]
    for m in _DEV_TCP.finditer(text):
        out.append(("connect", _show_addr(m.group(1), m.group(2))))
        break
    m = _FD_REDIR.search(text)
    if m:
        out.append(("stdio_socket", f"fd {m.group(1)}"))
    for k, seg in enumerate(_SEGMENTS.split(text)):
        if k >= 16:
            break
        words = seg.split()
        if not words:
            continue
        sh = bare_shell(words)
        if sh:
            out.append(("shell_start", sh))
        elif words[0].rsplit("/", 1)[-1] in _NET_TOOLS:
            toks = [("s", x) for x in words[1:] if not x.startswith("-")]
            host, port = _addr_of(toks)
            if host and port:
                out.append(("connect", _show_addr(host, port)))
    return out


def _finish(effects: list) -> list:
    """Effects without repeats, with the facts their commands imply (shells, tied descriptors, sockets)."""
    out: list = []
    seen: set = set()

    def put(e):
        key = (e[0], tuple(e[1]) if isinstance(e[1], list) else e[1])
        if key not in seen and len(out) < MAX_EFFECTS:
            seen.add(key)
            out.append(e)
            return True
        return False

    for e in effects:
        if not put(e):
            continue
        kind, val = e
        if kind in ("write", "read") and isinstance(val, str) and "://" in val[:12]:
            host, port = _addr_of([("s", val)])
            put(("connect", f"{val.split('://', 1)[0]}://{_show_addr(host, port)}"))  # file_put_contents("https://…")
        elif kind == "shell" and isinstance(val, str):
            for f in _shell_facts(val):
                put(f)
        elif kind == "argv" and val:
            sh = bare_shell(val)
            if sh:
                put(("shell_start", sh))
            elif len(val) > 2 and str(val[0]).rsplit("/", 1)[-1] in T.SHELLS and val[1] in ("-c", "-ic", "-lc"):
                for f in _shell_facts(str(val[2])):
                    put(f)
    return out


MAX_EFFECTS = 128
