"""The knowledge table's reading (``core/policy/data/programs.toml``, loaded by :mod:`core.policy._knowledge`)
and the entry point of the argument rules: :func:`read_arguments`, called by the dispatcher for every simple
command after the program's own handler.

For a program the table lists: options whose value is a command, code, a script, a file read, written or
sent, a library, a directory served; flags that make it listen, attach to a process or rewrite its operands;
subcommands that run a command, listen or upload; wrappers that run their operands; servers; and what an
interactive program reads from its input (code, its own commands where ``!CMD`` runs CMD, SQL) when text is
fed to it or follows it on the next lines (:func:`read_interactive_input`). Then the generic rules of
:mod:`core.policy.shell.effects.arguments` read what the arguments name.

To teach signoff a program, add its entry to the data file (its header documents every key); operators do the
same under ``policy.programs`` in the config.
"""

from __future__ import annotations

from copy import copy

from core.policy import _knowledge as K
from core.policy import _paths as P
from core.policy import tables as T
from core.policy._sql import classify_sql, sql_shell_commands
from core.policy.shell.common import show as _show
from core.policy.shell.effects.addresses import is_loopback
from core.policy.shell.effects.arguments import COMMAND_READERS, MAX_ARGS, argument_facts, listen_address
from core.policy.shell.effects.decide import (
    decide_handled,
    decide_unknown,
    fed,
    fetched,
    read_only_secrets,
    served_dir,
)
from core.policy.shell.effects.options import ex_line_effects
from core.policy.shell.effects.shells import SHELL_NAMES, grants_privileges
from core.policy.shell.state import MARK, SECRET, TextInput, is_downloaded
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

#: how the dispatcher knows a program
UNKNOWN, READ_ONLY, HANDLED = 0, 1, 2


def read_arguments(r, prog: str, args: list, metas: list, ctx, acc, stdin, known: int) -> None:
    """Apply the knowledge table and the generic argument rules to one expanded simple command.

    ``args`` are the expanded arguments after the program name; ``known`` says how the dispatcher knows the
    program (UNKNOWN: no handler and not read-only; READ_ONLY; HANDLED: a handler read it). Raises tiers on
    ``acc`` only; never raises.
    """
    entry = r.programs.get(prog)
    if entry is not None:
        if _read_entry(r, prog, entry, args, ctx, acc, stdin, known == HANDLED):
            return  # a wrapper: the command it runs was read
    if known == READ_ONLY:
        if args:
            read_only_secrets(r, prog, args, ctx, acc)
            if "-" in "".join(a[:1] for a in args[:MAX_ARGS]):
                f = argument_facts(r, args, ctx, inner=False)
                if f.output is not None:  # (sar -o /etc/cron.hourly/x: a read-only program that writes a file)
                    acc.add(H, "args.system_write", f"{prog} -{'-' if len(f.output[0]) > 1 else ''}{f.output[0]} "
                                                    f"writes into {_show(f.output[1])} (inside a system directory)")
        return
    if known == UNKNOWN:
        if args and entry is not None and entry.uses:
            args = _without_used(entry, args)  # (the key it signs with is not read: openssl req -key k.key)
        if args:
            f = argument_facts(r, args, ctx, inner=True, prog=prog)
            if f.net is None and entry is not None and entry.connects:
                # a client names its server as a bare host (`ncftpput HOST DIR FILE`, `telnet HOST`)
                host = next((a for a in args[:MAX_ARGS] if a[:1] not in "-/." and "." in a and "/" not in a and
                             not a.endswith((".tgz", ".gz", ".zip", ".tar", ".txt", ".log", ".json"))), None)
                if host is not None:
                    f = copy(f)
                    f.net = host
            decide_unknown(r, prog, f, ctx, acc)
            if entry is not None and entry.connects and entry.input == "bang":
                _fetches(entry, args, ctx)
            if f.net is not None and any(m is not None and m[0] is SECRET for m in metas):
                acc.add(H, "args.secret_send", f"{prog} is given secret contents and {_show(f.net)}: it may send "
                                               f"them over the network")
            if grants_privileges(args):
                acc.add(H, "args.capabilities", f"{prog} grants root-like capabilities (a privilege escalation)")
        else:
            f = None
        fed(r, prog, f, stdin, ctx, acc)
    elif args and prog not in COMMAND_READERS:
        # (SQL clients: the words of their SQL too: `duckdb -c "SELECT * FROM read_csv('/etc/shadow')"`)
        decide_handled(r, prog, argument_facts(r, args, ctx, inner=prog in T.SQL_CLIENTS), ctx, acc)
    elif args and prog not in T.NETWORK_SENDERS:
        a = listen_address(args)  # a server started by an interpreter or runner (`node app.js --host 0`)
        if a is not None:
            acc.add(M, "args.listen", f"{prog} listens on the network ({_show(a)})")



def _read_entry(r, prog: str, entry: K.Program, args: list, ctx, acc, stdin, handled: bool) -> bool:
    """The knowledge table's entry for ``prog`` applied to its arguments (and to text fed to it). True when
    nothing more is to be read (a wrapper whose command was read, an interactive program started bare).
    ``handled``: the program's handler read its arguments (and the command a wrapper runs: xargs, watch …)."""
    if handled and not args and stdin is None and entry.input is not None and (
            entry.input == "shell" or entry.input.startswith("code:")):
        acc.add(M, "shell.interactive", f"interactive {prog}: it runs whatever it is fed later")  # (screen, mongosh)
        return True
    if handled and entry.wraps is not None:
        read_options(r, prog, entry, args, ctx, acc, stdin, _HANDLED_SKIP_CODE)
        return True
    if entry.wraps is not None:
        pos, i = read_options(r, prog, entry, args, ctx, acc, stdin, (), wrapper=True)
        i += entry.wraps
        if i < len(args):
            r.run_argv(args[i:], [None] * (len(args) - i), ctx, acc, stdin)
            return True
        if entry.input == "shell" and stdin is None and not _runs_something(entry, args):
            acc.add(M, "shell.interactive", f"{prog} starts an interactive shell: it runs whatever it is fed later")
            return True
        return False  # nothing found to run: the generic rules read the arguments
    if entry.listens:
        acc.add(M, "args.listen", f"{prog} is a server: it listens on the network")
    # a handler read the program's operands, code and input precisely: the table adds what options do besides
    skip = _HANDLED_SKIP if handled else ()
    if handled and (prog in COMMAND_READERS or prog in T.SQL_CLIENTS):
        skip = _HANDLED_SKIP_CODE
    if handled and entry.input == "bang" and entry.connects and type(stdin) is TextInput:
        read_input(r, prog, "bang", stdin.text, ctx, acc)  # (ftp HOST <<< 'put .env': its handler reads the URL)
    if handled and not entry.subcommands and not _applies(entry, skip):
        return False  # (nothing in the entry adds to the handler: sh -c, find -exec, psql -c …)
    pos, _ = read_options(r, prog, entry, args, ctx, acc, stdin, skip)
    if pos and entry.subcommands:
        kind = entry.subcommands.get(pos[0])
        if kind == "command" and len(pos) > 1:
            # (uv run CMD, perf stat -e EV CMD …): the words after the subcommand, its own options skipped
            k = args.index(pos[0]) if pos[0] in args[:MAX_ARGS] else 0
            run_command_after(r, args, k + 1, ctx, acc, stdin)
        elif kind == "listen":
            if not (len(pos) > 1 and pos[1] in _NOT_SERVING):  # (not `tailscale serve status`, `ngrok tunnel list`)
                served = next((p for p in pos[1:4] if p[:1] in "/~"), None)  # (rclone serve http /: what it serves)
                served_dir(r, f"{prog} {pos[0]}", ["--directory", served] if served else [], ctx, acc)
        elif kind is not None and (kind == "sql" or kind.startswith("code:")) and stdin is None and len(pos) == 1:
            # a code subcommand given no code reads it from its input: a REPL (deno repl, flask shell)
            acc.add(M, "shell.interactive", f"interactive {prog} {pos[0]}: it runs whatever it is fed later")
        elif handled:
            pass
        elif kind == "upload" and len(pos) > 1:
            acc.add(M, "args.upload", f"{prog} {pos[0]} sends {_show(pos[1])} over the network")
            r.sends_secret(prog, pos[1], ctx, acc)
        elif kind is not None and kind.startswith("code:") and len(pos) > 1:
            _effect(r, prog, pos[0], kind, pos[1], ctx, acc, stdin, entry)
        elif kind is not None and (kind == "sql" or kind.startswith("code:")) and type(stdin) is TextInput:
            read_input(r, f"{prog} {pos[0]}", kind, stdin.text, ctx, acc)  # (echo CODE | flask shell)

        elif kind is not None:
            _effect(r, prog, pos[0], kind, None, ctx, acc, stdin, entry)
    if handled:
        return False
    if entry.operand is not None and pos and not (entry.subcommands and pos[0] in entry.subcommands):
        _effect(r, prog, "operand", entry.operand, pos[0], ctx, acc, stdin, entry)
    elif entry.operand == "servedir" and not pos and ctx.cwd:
        _effect(r, prog, "operand", "servedir", ctx.cwd, ctx, acc, stdin, entry)  # (cd ~ && miniserve: the home)
    if entry.input is not None:
        if type(stdin) is TextInput:
            read_input(r, prog, entry.input, stdin.text, ctx, acc)
        elif stdin is None and not pos and (entry.input == "shell" or entry.input.startswith("code:")) and (
                not _runs_something(entry, args)):
            acc.add(M, "shell.interactive", f"interactive {prog}: it runs whatever it is fed later")
            return True
    return False


def run_command_after(r, args: list, k: int, ctx, acc, stdin) -> None:
    """Read ``args[k:]`` as a command a launcher runs, after the launcher's own options (``uv run --with X
    CMD``, ``perf stat -e EV CMD``, ``conda run -n ENV CMD``). Whether an option takes a value is not known
    here, so after one that may (no ``=``) both readings count: its value as the program, and the word after."""
    n = min(len(args), MAX_ARGS)
    while k < n and args[k][:1] == "-" and args[k] != "-":
        if args[k] == "--":
            k += 1
            break
        k += 1
    if k >= n:
        return
    if k >= 1 and args[k - 1][:1] == "-" and "=" not in args[k - 1] and args[k - 1] != "--" and k + 1 < n:
        alt = args[k + 1:n]  # (the option took args[k] as its value)
        r.run_argv(alt, [None] * len(alt), ctx.child(), acc, None)
    r.run_argv(args[k:n], [None] * (n - k), ctx, acc, stdin)


def _fetches(entry: K.Program, args: list, ctx) -> None:
    """A file-transfer client's fetch operand (``sftp HOST:x.sh [DIR]``): the file is downloaded into DIR (or
    the working directory), downloaded code when run later."""
    pos = [a for k, a in enumerate(args[:MAX_ARGS]) if a[:1] != "-" and not (k and entry.takes_value(args[k - 1]))]
    remote = [a for a in pos if ":" in a and "/" not in a.split(":", 1)[0] and a.split(":", 1)[0] and
              a.split(":", 1)[1] and "://" not in a]
    if remote:
        local = [a for a in pos if a not in remote]
        fetched(remote, local[0] if local else ".", ctx)


def _system_secret(path: str) -> bool:
    """A secret of the system or of root, by absolute path (``/root/.ssh/id_rsa``, ``/etc/ssh/ssh_host_*_key``;
    tiers.md's system secrets): not one of the user's own keys a program may use (``~/.ssh/id_ed25519``)."""
    return path[:1] == "/" and not path.startswith(("/home/", "/Users/")) and P.is_secret_read(path)


def _without_used(entry: K.Program, args: list) -> list:
    """``args`` with the values of the entry's ``uses`` options (and its operands, when they are used) blanked:
    a key or identity used is not shown, unless it is a system secret (``ssh-add /root/.ssh/id_rsa`` loads
    root's key: read as a secret)."""
    out = list(args)
    for k, a in enumerate(args[:MAX_ARGS]):
        name = a.split("=", 1)[0]
        if entry.options.get(name) == "uses":
            if "=" in a:
                if not _system_secret(a.split("=", 1)[1]):
                    out[k] = name
            elif k + 1 < len(out) and not _system_secret(out[k + 1]):
                out[k + 1] = ""
        elif entry.operand == "uses" and a[:1] != "-" and not (k and entry.takes_value(args[k - 1])) and (
                not _system_secret(a)):
            out[k] = ""
    return out


_APPLIES: dict = {}


def _applies(entry: K.Program, skip: tuple) -> bool:
    """Whether any option of ``entry`` has a kind not left to the handler (``skip``)."""
    key = (id(entry), skip)
    hit = _APPLIES.get(key)
    if hit is None:
        hit = _APPLIES[key] = any(not kind.startswith(skip) for kind in entry.options.values())
    return hit


def read_wrapper_options(r, prog: str, entry: K.Program, args: list, ctx, acc, operands_before: int = 0) -> bool:
    """A wrapper the dispatcher looks through (sudo, strace, nice …): what its own options do (``strace -o FILE``
    writes FILE, ``flock FILE -c CMD`` runs CMD, ``fakeroot --lib LIB`` loads LIB). True when nothing follows to
    run and the wrapper then starts a shell (``fakeroot``, ``firejail``): an interactive shell (MEDIUM)."""
    pos, i = read_options(r, prog, entry, args, ctx, acc, None, _HANDLED_SKIP_CODE, wrapper=True,
                          operands_before=operands_before)
    if i >= len(args) and entry.input == "shell" and not _runs_something(entry, args):
        acc.add(M, "shell.interactive", f"{prog} starts an interactive shell: it runs whatever it is fed later")
        return True
    return False


#: words of option names that give a program something to run (a script, a command, code): it is not started bare
_RUN_WORDS = ("script", "run", "command", "cmd", "eval", "exec", "execute", "file", "load", "expr", "code")


def _runs_something(entry: K.Program, args: list) -> bool:
    """Whether an option among ``args`` gives the program something to run: one the table knows as code, a
    script or a command (``sbcl --script F``, ``nix-shell --run CMD``), or a long option named for it."""
    for a in args[:MAX_ARGS]:
        if a[:1] == "-" and len(a) > 1:
            kind = entry.options.get(a.split("=", 1)[0])
            if kind is not None and (kind.startswith(("code:", "script:")) or kind in ("command", "program")):
                return True
            name = a.lstrip("-").split("=", 1)[0].lower()
            if a[:2] == "--" and any(w in name for w in _RUN_WORDS):
                return True
    return False


def read_options(r, prog: str, entry: K.Program, args: list, ctx, acc, stdin, skip: tuple,
                 wrapper: bool = False, operands_before: int = 0) -> tuple[list, int]:
    """Apply the effects of ``entry``'s options found in ``args`` (kinds starting with one of ``skip`` are left
    to the program's handler); returns the operands and, with ``wrapper``, stops at the first operand past
    ``operands_before`` (``flock FILE -c CMD``) and returns its index (where the command it runs starts)."""
    opts = entry.options
    if not wrapper and not any(a[:1] == "-" or a[:1] == "+" and entry.plus_options for a in args[:MAX_ARGS]):
        return list(args[:MAX_ARGS]), min(len(args), MAX_ARGS)  # (no options: the arguments are the operands)
    pos: list = []
    inplace = False
    skipped = 0
    i, n = 0, min(len(args), MAX_ARGS)
    while i < n:
        a = args[i]
        if a == "--":
            dash = opts.get("--")
            if dash is not None:  # (lldb -- CMD, capsh -- ARGS)
                _effect(r, prog, "--", dash, None, ctx, acc, stdin, entry, rest=args[i + 1:n])
                return (pos, n) if not wrapper else (pos, n)
            if wrapper:
                return pos, i + 1
            pos.extend(args[i + 1:n])
            break
        kind = None
        val = None
        name = a
        if (a[:1] == "-" or a[:1] == "+" and entry.plus_options) and len(a) > 1:
            if "=" in a and a.split("=", 1)[0] in opts:
                name, val = a.split("=", 1)
                kind = opts[name]
            elif ":" in a and (a.split(":", 1)[0] in opts or a.split(":", 1)[0] + ":" in opts):  # -javaagent:/x.jar
                name, val = a.split(":", 1)
                kind = opts.get(name) or opts[name + ":"]
            elif a in opts:
                kind = opts[a]
                if kind not in K.FLAG_KINDS or a in entry.value_opts:
                    val = args[i + 1] if i + 1 < n else ""
                    i += 1
            elif len(a) > 2 and a[1] != "-" and a[:2] in opts and opts[a[:2]] not in K.FLAG_KINDS:
                name, kind, val = a[:2], opts[a[:2]], a[2:]
            elif a[1:2] != "-" and a[1:].isalpha():
                for ch in a[1:]:  # a bundle of flags (-lvnp)
                    fk = opts.get("-" + ch)
                    if fk in K.FLAG_KINDS and not fk.startswith(skip):
                        inplace = inplace or fk == "inplace"
                        _effect(r, prog, "-" + ch, fk, None, ctx, acc, stdin, entry)
                if entry.takes_value("-" + a[-1]):
                    i += 1
            elif entry.takes_value(a):
                i += 1
        elif wrapper and skipped >= operands_before:
            return pos, i
        elif wrapper:
            skipped += 1
        else:
            pos.append(a)
        if kind is not None and not (skip and kind.startswith(skip)):
            inplace = inplace or kind == "inplace"
            if kind in ("argv", "shellargs"):  # (gdb --args CMD …): the rest is the command
                _effect(r, prog, name, kind, None, ctx, acc, stdin, entry, rest=args[i + 1:n])
                return pos, n
            follows = args[i + 1:n] if kind in ("command", "program") and "=" not in a else None
            _effect(r, prog, name, kind, val, ctx, acc, stdin, entry, handled=bool(skip), rest=follows)
        i += 1
    if inplace:
        for f in pos[:16]:
            r.write_path(f, ctx, acc, f"{prog} rewrites")
    return pos, n


def read_input(r, prog: str, kind: str, text: str, ctx, acc) -> None:
    """Text an interactive program reads as its input: code in its language, its own commands (``!CMD`` runs
    CMD, ``put FILE`` sends FILE) or SQL."""
    if kind.startswith("code:"):
        read_code(r, text, kind[5:], ctx, acc)
    elif kind == "bang":
        for cmd in _bang_lines(text):
            acc.add(M, "args.bang", f"{prog} is told to run {_show(cmd)} (!CMD)")
            r.run_text(cmd, ctx.child(), acc)
        for f in _put_lines(text):
            acc.add(M, "args.upload", f"{prog} is told to send {_show(f)} (put)")
            r.sends_secret(prog, f, ctx, acc)
    elif kind == "sql":  # SQL, and the client's shell escapes (`\\! CMD`, `.shell CMD`, `system CMD`)
        sql = "\n".join(ln for ln in text.split("\n")[:256] if not ln.lstrip().startswith(_CLIENT_COMMANDS))
        if sql.strip():
            read_code(r, sql, "sql", ctx, acc)
        for cmd in _bang_lines(text):
            acc.add(M, "args.bang", f"{prog} is told to run {_show(cmd)} (a shell escape)")
            r.run_text(cmd, ctx.child(), acc)
    elif kind == "redis":  # one redis command a line (`FLUSHALL`)
        for line in text.split("\n")[:256]:
            words = line.split()
            if words:
                r.call("h_redis", prog, words, [None] * len(words), ctx, acc, None)


#: how SQL clients' own commands start (psql `\\dt`, sqlite3 `.tables`, sqlcmd `:setvar`, mysql `system`): not SQL
_CLIENT_COMMANDS = ("\\", ".", ":", "!", "system ", "shell ", "HOST ", "host ")


def _put_lines(text: str) -> list:
    """Files an interactive file-transfer program is told to send (``put FILE``, ``mput …``, ``send FILE``)."""
    out = []
    for line in text.split("\n")[:256]:
        w = line.split()
        if len(w) >= 2 and w[0].lower() in ("put", "mput", "send", "append", "reput", "upload"):
            out.extend(x for x in w[1:3] if x[:1] != "-")
    return out[:16]


#: words after a listening subcommand that report on it or stop it (tailscale serve status, ngrok tunnel list)
_NOT_SERVING = frozenset(("status", "reset", "off", "stop", "list", "ls", "show", "get-config", "help", "version"))
#: table kinds not applied to a program whose handler read it (its code, scripts, reads and bang commands)
_HANDLED_SKIP_CODE = ("code:", "read", "bang")
_HANDLED_SKIP = ("read", "bang")


def _effect(r, prog: str, opt: str, kind: str, val, ctx, acc, stdin, entry=None, handled: bool = False,
            rest: list | None = None) -> None:
    """One option's (or operand's) effect, from its kind in the knowledge table. ``handled``: the program's
    handler read it (a script's file counts only when this text wrote or downloaded it)."""
    what = f"{prog} {opt}" if opt != "operand" else prog
    if kind == "listen":
        if val and is_loopback(val):
            acc.add(L, "args.listen.local", f"{what} serves on this machine only")  # (php -S localhost:8000)
        else:
            acc.add(M, "args.listen", f"{what} listens on the network")
        return
    if kind == "uses":
        return  # (a key or identity it uses, not shows: openssl -key, ssh-add KEY)
    if kind == "bang":
        acc.add(M, "args.bang", f"{what} reads commands that can start a shell (!CMD)")
        return
    if kind == "attach":
        acc.add(M, "args.attach", f"{what} attaches to a running process (it can read its memory and secrets)")
        return
    if kind == "inplace":
        return  # (the operands are rewritten: read by the caller)
    if kind == "argv" or kind == "shellargs":
        if rest:
            argv = rest if kind == "argv" else ["sh"] + rest  # (capsh -- -c CMD runs a shell with -c CMD)
            acc.add(S, "args.command", f"{what} runs {_show(' '.join(argv))}")
            r.run_argv(argv, [None] * len(argv), ctx.child(), acc, None)
        elif kind == "shellargs":
            acc.add(M, "shell.interactive", f"{what} starts an interactive shell: it runs whatever it is fed later")
        return
    if val is None or val == "":
        return
    if kind == "command" or kind == "program":
        if MARK in val:
            acc.add(M, "args.command", f"{what} runs a command decided at run time")
            return
        acc.add(S, "args.command", f"{what} runs {_show(val)}")  # (its tier: what it runs; a bare shell MEDIUM)
        base = val.strip().rsplit("/", 1)[-1]
        if base in SHELL_NAMES and " " not in val.strip() and rest and not handled:
            # an interpreter or shell with the words after it: the command it runs (nodemon --exec python3
            # app.py, fd -x sh -c '…', pidstat -e /bin/sh -c id)
            r.run_argv([val] + rest, [None] * (len(rest) + 1), ctx.child(), acc, None)
            return
        r.run_text(val, ctx.child(), acc)
    elif kind == "code:other" and entry is not None and entry.input == "bang" and entry.connects:
        # a file-transfer or debugger client's own commands (smbclient -c 'ls', lftp -e 'put f'): !CMD runs
        # CMD, put sends a file; plain commands are what the program is for
        read_input(r, prog, "bang", val.replace(";", "\n"), ctx, acc)
    elif kind.startswith("code:"):
        lang = kind[5:]
        if lang not in _READ_BY_CONTENT:
            acc.add(M, "args.inline_code", f"{what} runs inline {lang} code")
        read_code(r, val, lang, ctx, acc, prog)
    elif kind == "script:other" and entry is not None and entry.input == "bang" and entry.connects and not handled:
        # a file-transfer client's batch of its own commands (sftp -b FILE): put sends a file, !CMD runs one
        key = P.normalize(val, ctx.cwd) if MARK not in val else None
        if val in ("-", "/dev/stdin") and type(stdin) is TextInput:
            read_input(r, prog, "bang", stdin.text, ctx, acc)
        elif key is not None and key in ctx.written:
            read_input(r, prog, "bang", ctx.written[key], ctx, acc)
        else:
            acc.add(M, "args.script", f"{what} runs the commands in {_show(val)}, not read here: they may send "
                                      f"files (put) or run programs (!CMD)")
    elif kind.startswith("script:"):
        key = P.normalize(val, ctx.cwd) if MARK not in val else None
        if handled and (key is None or (key not in ctx.written and not is_downloaded(ctx, key))):
            return
        if val in ("-", "/dev/stdin") and type(stdin) is TextInput:
            acc.add(M, "args.script", f"{what} runs {kind[7:]} code from its input")
            read_code(r, stdin.text, kind[7:], ctx, acc)
        elif key is not None and key in ctx.written:
            acc.add(M, "args.script", f"{what} runs {kind[7:]} code written just before")
            read_code(r, ctx.written[key], kind[7:], ctx, acc)
        elif key is not None and is_downloaded(ctx, key):
            acc.add(H, "shell.download_exec", f"{what} runs the downloaded script {_show(val)}")
        elif key is None:
            acc.add(M, "args.script", f"{what} runs a {kind[7:]} script decided at run time")
        else:
            acc.add(L, "args.script", f"{what} runs the {kind[7:]} script {_show(val)}")
    elif kind == "read":
        r.read_secret_check(what, [val], ctx, acc)
    elif kind == "write":
        r.write_path(val, ctx, acc, f"{what} writes")
    elif kind == "writedir":
        r.write_into(val, ctx, acc, f"{what} writes into")
    elif kind == "upload":
        acc.add(M, "args.upload", f"{what} sends {_show(val)} over the network")
        r.sends_secret(prog, val, ctx, acc)
    elif kind == "library":
        if "/" not in val and not val.endswith(_CODE_FILE_SUFFIXES):
            return  # a module or plugin by name (pytest -p no:cacheprovider, -p xdist): found where it is installed
        key = P.normalize(val, ctx.cwd) if MARK not in val else None
        if key is not None and is_downloaded(ctx, key):
            acc.add(H, "shell.download_exec", f"{what} loads downloaded code ({_show(val)})")
        acc.add(M, "args.library", f"{what} loads code from {_show(val)}")
    elif kind == "host":
        pass  # a destination: counted by the generic rules with what else the command names
    elif kind == "servedir":
        cls = r.pclass(val, ctx)
        if cls in (P.ROOT, P.HOME, P.SYSROOT, P.SYSTEM):
            acc.add(H, "args.serve_system", f"{what} serves {_show(val)} to the network")


#: files that are code to load (a library option given one of these names a file, not an installed module)
_CODE_FILE_SUFFIXES = (".so", ".dylib", ".dll", ".jar", ".py", ".pyc", ".js", ".mjs", ".cjs", ".node", ".rb", ".pl",
                       ".pm", ".lua", ".wasm", ".a", ".o", ".class", ".php", ".sh", ".ts")
#: command languages whose tier is what the commands do (debugger and editor commands, SQL), not "inline code"
_READ_BY_CONTENT = frozenset(("gdb", "vim", "sql"))
#: languages :func:`core.policy.code.scan_code` reads by name
_SCANNED_LANGS = frozenset(("python", "perl", "ruby", "node", "php", "lua"))


def read_code(r, code: str, lang: str, ctx, acc, prog: str = "gdb") -> None:
    """Read inline ``code`` in ``lang`` (a knowledge-table language) for what it does: shell text as commands,
    the languages the code scanner knows through it, gdb and ex/vim command lines through their readers, SQL
    through the SQL rules; in any language, a shell named in it counts (MEDIUM; with a network destination
    in the same code HIGH: a remote shell)."""
    if not code or MARK in code and len(code) < 2:
        return
    if ctx.flags and r.runs_decoded(code, ctx, acc):
        return  # (code decoded at run time: HIGH, not read)
    code = code[:16384]
    if lang == "sh":
        r.run_text(code, ctx.child(), acc)
        return
    if lang == "gdb":
        argv = []
        for line in code.split("\n")[:64]:
            if line.strip():
                argv += ["-ex", line.strip()]
        r.call("h_gdb", prog, argv, [None] * len(argv), ctx, acc, None)  # (gdb, lldb: debugger commands)
        return
    if lang == "vim":
        r.ex_effects("vim", "-c", ex_line_effects(code), ctx, acc)
        return
    if lang == "sql":
        tier, rule, reason, _parsed = classify_sql(code)
        acc.add(tier, rule, reason)
        for cmd in sql_shell_commands(code)[:16]:
            r.run_text(cmd, ctx.child(), acc)
        return
    r.scan_code(code, ctx, acc, lang if lang in _SCANNED_LANGS else None)
    # in any language: the shells, secrets, destinations and listening addresses its words name
    facts = copy(argument_facts(r, [code[:4096]], ctx, inner=True))
    facts.system = facts.sent = None  # (paths code merely names: the calls it makes are read above)
    decide_unknown(r, f"{lang} code", facts, ctx, acc)


#: what a bare interpreter reads from its input: program -> language (the knowledge table adds more)
def _input_kind(r, prog: str, words: list) -> str | None:
    """What ``prog`` started with ``words`` (its options only, or a subcommand that reads code: ``deno repl``,
    ``flask shell``, ``python manage.py shell``) reads from its input, or None."""
    base = "python3" if prog.startswith("python") else prog
    if base in T.INTERPRETERS and words and words[0][:1] != "-":
        script = words[0].rsplit("/", 1)[-1]  # (python manage.py shell: the script's own entry)
        if script in r.programs:
            prog, words = script, words[1:]
    entry = r.programs.get(prog)
    if entry is not None and entry.input is not None:
        return entry.input
    if entry is not None and words and words[0] in entry.subcommands:
        kind = entry.subcommands[words[0]]
        if (kind == "sql" or kind.startswith("code:")) and all(w[:1] == "-" for w in words[1:]):
            return kind
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
        if len(line) > 160:
            continue  # (a program started on a line of its own with a few options: a short line)
        words = line.split()
        if not words or len(words) > 8:
            continue
        if words[0] in T.WRAPPERS and len(words) > 1:
            words = words[1:]
        prog = words[0].rsplit("/", 1)[-1]
        kind = _input_kind(r, prog, words[1:])
        if kind is None:
            continue
        read_input(r, prog, kind, "\n".join(lines[k + 1:k + 257]), ctx, acc)
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
