"""The generic argument rules' tiers (tiers.md v3.2): what the facts :func:`~core.policy.shell.effects.arguments.
argument_facts` reads make of a command.

* :func:`decide_unknown` gives a program no handler reads its tiers: a secret MEDIUM (with a destination HIGH), a
  system path MEDIUM (written through an output option HIGH), a shell MEDIUM or its command's tier (with a
  destination HIGH: a remote shell), a listener MEDIUM (serving the root, a home or a system directory HIGH), an
  upload MEDIUM; :func:`decide_handled` adds to a handler's reading what its options say;
* :func:`read_only_secrets`, :func:`fed`, :func:`served_dir`, :func:`fetched`: read-only programs given a secret,
  input fed to an unknown program, a server and what it serves, files copied from a remote host.
"""

from __future__ import annotations

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.common import show as _show
from core.policy.shell.effects.addresses import (
    _LOOPBACK,
)
from core.policy.shell.effects.arguments import MAX_ARGS, METADATA_READERS, Facts, argument_facts
from core.policy.shell.state import DOWNLOADED_DIR, OTHER, FileInput, TextInput
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL
MARK = P.UNKNOWN_MARK



#: options of read-only programs whose value is a file they read (a list of names, patterns, dates …): any
#: program's long ones, and the short ones of the programs that have them
_FILE_LIST_OPTIONS = frozenset(("--file", "--files-from", "--files0-from", "--from-file", "--exclude-from",
                                "--include-from", "--arg-file"))
_FILE_LIST_SHORT = {"file": ("-f",), "date": ("-f",), "ss": ("-F",), "dmesg": ("-F",), "xargs": ("-a",),
                    "grep": ("-f",), "egrep": ("-f",), "fgrep": ("-f",), "tar": ("-T",), "cpio": ("-E",)}


def read_only_secrets(r, prog: str, args: list, ctx, acc) -> None:
    """A read-only program given a secret file: its operands are read (unless it only names files: ``ls``,
    ``stat``, checksums, which the content readers' own check skips too), and so is an option's file value
    whatever the program (``file -f /etc/shadow``, ``ss -F``, ``readelf @/etc/shadow``)."""
    names_only = prog in METADATA_READERS
    list_opts = _FILE_LIST_OPTIONS | frozenset(_FILE_LIST_SHORT.get(prog, ()))  # (test -f FILE: a question)
    files = []
    prev_opt = False
    for a in args[:MAX_ARGS]:
        if not a:
            continue
        if a[0] == "-":
            if "=" in a:
                files.append(a.split("=", 1)[1])
            elif a[1:2] != "-" and a[2:3] in ("/", "~", "."):
                files.append(a[2:])
            prev_opt = a in list_opts
            continue
        if prev_opt or (not names_only and prog not in T.CONTENT_READERS):
            files.append(a[1:] if a[0] == "@" else a)
        elif a[0] == "@":
            files.append(a[1:])
        prev_opt = False
    if files:
        r.read_secret_check(prog, files, ctx, acc)



def fetched(srcs: list, dest: str, ctx) -> None:
    """Files copied from a remote host (``srcs``, the remote sources: ``scp HOST:x.sh .``, ``rsync -a HOST:dir/
    ./dir``, ``sftp HOST:x.sh``) are downloaded code when run later: the destination, the names the sources keep
    in it (and what is under them: a directory copied), the destination's contents when a directory's contents
    were copied into it."""
    if MARK in dest or len(ctx.downloaded) >= 64:
        return
    base = P.normalize(dest, ctx.cwd)
    ctx.downloaded.add(base)
    for s in srcs[:8]:
        name = s.split("://", 1)[-1].split(":", 1)[-1].rstrip("/").rsplit("/", 1)[-1]
        if name and MARK not in name:
            ctx.downloaded.add(P.normalize(f"{dest.rstrip('/')}/{name}", ctx.cwd))
            ctx.downloaded.add(DOWNLOADED_DIR + P.normalize(f"{dest.rstrip('/')}/{name}", ctx.cwd).rstrip("/"))
    if any(s.endswith("/") for s in srcs) and dest.rstrip("/") not in ("", ".", "..", "~"):
        ctx.downloaded.add(DOWNLOADED_DIR + base.rstrip("/"))  # (rsync HOST:dir/ ./dir: its contents into ./dir)


def _secret(prog: str, f: Facts, sent: bool, acc) -> None:
    """A secret among the arguments: sent over the network (``sent``: a destination is named too) HIGH, else
    read MEDIUM."""
    if sent:
        acc.add(H, "args.secret_send", f"{prog} is given {_show(f.secret)} (secret) and {_show(f.net)}: "
                                       f"it may send the secret over the network")
    else:
        acc.add(M, "args.secret_read", f"{prog} is given {_show(f.secret)} (secret): it may read it")


def _system_write(prog: str, output: tuple, acc) -> None:
    """A path in a system directory as the value of an output-like option (``output``: (option, path)): HIGH."""
    opt, path = output
    acc.add(H, "args.system_write", f"{prog} -{'-' if len(opt) > 1 else ''}{opt} writes into {_show(path)} "
                                    f"(inside a system directory)")


def decide_unknown(r, prog: str, f: Facts, ctx, acc) -> None:
    """The generic rules' tiers for a program no handler reads."""
    if f.secret is not None:
        _secret(prog, f, f.net is not None, acc)
    if f.shell is not None:
        name, text = f.shell
        if f.net is not None:
            acc.add(H, "args.remote_shell", f"{prog} joins {name} to {_show(f.net)} (a remote shell)")
        else:
            acc.add(M, "args.shell", f"{prog} is given {name} to run: code that cannot be read here")
        if text and " " in text and MARK not in text:
            r.run_text(text, ctx.child(), acc)
    if f.output is not None:
        _system_write(prog, f.output, acc)
    elif f.system is not None:
        acc.add(M, "args.system_path", f"{prog} is given {_show(f.system)} (system directory): it may change it")
    if f.listen is not None:
        if f.served is not None:
            acc.add(H, "args.serve_system", f"{prog} serves {_show(f.served)} to the network")
        else:
            acc.add(M, "args.listen", f"{prog} listens on the network ({_show(f.listen)})")
    elif f.net is not None and f.sent is not None:
        acc.add(M, "args.upload", f"{prog} is given {_show(f.sent)} and {_show(f.net)}: it may send the file")
    if f.unread:
        acc.add(M, "args.too_many", f"{prog} is given more arguments that may matter than are read one by one")


def decide_handled(r, prog: str, f: Facts, ctx, acc) -> None:
    """The generic rules that add to a handler's reading: a secret file among the arguments (a read, sent
    when a destination is named too, unless the program is a network sender whose handler decides), a
    system path given to an output-like option, a shell given as an option's value (``--use-askpass=/bin/sh``),
    a listening address (unless the program is a client)."""
    if f.secret is not None and prog not in METADATA_READERS:
        _secret(prog, f, f.net is not None and prog not in T.NETWORK_SENDERS, acc)
    if f.output is not None:
        _system_write(prog, f.output, acc)
    if f.shell is not None:
        name, text = f.shell
        acc.add(M, "args.shell", f"{prog} is told to run {name}")
        if text and " " in text and MARK not in text:
            r.run_text(text, ctx.child(), acc)
    if f.listen is not None and prog not in T.NETWORK_SENDERS:
        acc.add(M, "args.listen", f"{prog} listens on the network ({_show(f.listen)})")


#: devices whose content is no one's data (``openssl s_client -connect HOST:443 </dev/null``: nothing is sent)
_NO_DATA_DEVICES = frozenset(("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/full"))


def fed(r, prog: str, f: Facts | None, stdin, ctx, acc) -> None:
    """Input fed to a program no handler reads: a file sent with a destination named (an upload; a secret
    file HIGH), text read for shells, secrets and destinations (it may be the program's commands)."""
    if stdin is None:
        return
    if type(stdin) is FileInput:
        path = stdin.path
        secret = r.is_secret_path(path, ctx)
        if f is not None and f.net is not None and (secret or path not in _NO_DATA_DEVICES):
            if secret:
                acc.add(H, "args.secret_send", f"{prog} is fed {_show(path)} (secret) and given {_show(f.net)}: "
                                               f"it may send the secret over the network")
            else:
                acc.add(M, "args.upload", f"{prog} is fed {_show(path)} and given {_show(f.net)}: it may send it")
        elif secret:
            acc.add(M, "args.secret_read", f"{prog} is fed {_show(path)} (secret): it reads it")
    elif stdin is OTHER:
        if f is not None and f.net is not None and f.listen is None and ("." in f.net or ":" in f.net):
            # (tar czf - . | sometool https://…: what the command before prints leaves with it; a destination
            # named as one, not a bare word after -h/-H: cpio -o -H newc names a format)
            acc.add(M, "args.upload", f"{prog} is fed another command's output and given {_show(f.net)}: it may "
                                      f"send it")
    elif type(stdin) is TextInput and stdin.text.strip():
        text = stdin.text[:8192]
        facts = argument_facts(r, [text], ctx, inner=True)
        if facts.shell is not None or facts.secret is not None or facts.listen is not None:
            decide_unknown(r, f"{prog} (fed text)", facts, ctx, acc)


def served_dir(r, what: str, args: list, ctx, acc) -> None:
    """A server started by ``what`` (``python3 -m http.server``, ``php -S``): MEDIUM (it listens on the
    network); HIGH when the directory it serves (``--directory DIR``/``-d DIR``, else the working directory)
    is the root, a home directory or a system directory."""
    served = None
    local = False  # bound to this machine only (--bind 127.0.0.1, php -S localhost:8000)
    for k, a in enumerate(args[:MAX_ARGS]):
        if a in ("--directory", "-d", "-t", "--docroot", "--root") and k + 1 < len(args):
            served = args[k + 1]
        elif a.startswith(("--directory=", "--docroot=", "--root=")):
            served = a.split("=", 1)[1]
        elif a in ("--bind", "-b", "--host", "--address", "-S") and k + 1 < len(args):
            local = args[k + 1].startswith(_LOOPBACK[:4])
        elif a.startswith(("--bind=", "--host=", "--address=")):
            local = a.split("=", 1)[1].startswith(_LOOPBACK[:4])
    if served is None:
        served = ctx.cwd or "."
    cls = r.pclass(served, ctx) if MARK not in served else P.UNKNOWN
    if local:
        if cls in (P.ROOT, P.HOME, P.SYSROOT, P.SYSTEM):
            acc.add(M, "args.serve_system", f"{what} serves {_show(served)} ({P.label(cls)}) to this machine")
        else:
            acc.add(L, "args.listen.local", f"{what} serves on this machine only")
    elif cls in (P.ROOT, P.HOME, P.SYSROOT, P.SYSTEM):
        acc.add(H, "args.serve_system", f"{what} serves {_show(served)} ({P.label(cls)}) to the network")
    else:
        acc.add(M, "args.listen", f"{what} listens on the network (a server)")
