"""Package managers: installs (MEDIUM), publishing to a registry (HIGH, :func:`publish_command`), package
runners whose fetched command counts too (``npx rimraf /``), code fetched by URL (``deno run https://…``), and
the programs that print a secret (table SECRET_PRINTERS).

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_packages.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

import re

from core.policy import tables as T
from core.policy.shell.common import show
from core.policy.shell.effects.publish import publish_command
from core.policy.shell.effects.secrets import secret_printed, secret_read
from core.policy.shell.families import handlers
from core.policy.shell.state import OTHER
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


def _package_runner_argv(prog, args):
    """``npx rimraf /``, ``bunx x``, ``pnpm dlx x``, ``yarn dlx x``, ``bun x x``, ``pipx run x``, ``uvx x``:
    the command the fetched package runs, or None."""
    i = 0
    if prog in ("pnpm", "yarn", "bun", "pipx"):
        if not args or args[0] not in ("dlx", "x", "run"):
            return None
        i = 1
    n = len(args)
    while i < n and args[i].startswith("-"):
        i += 2 if args[i] in ("-p", "--package", "--spec", "-c", "--call") else 1
    return args[i:] if i < n else None


def h_pkg(r, prog, args, metas, ctx, acc, stdin):
    """Package managers (tables INSTALLERS, PUBLISHERS, PACKAGE_RUNNERS): code fetched by URL HIGH, a package
    runner's command read too, publishing HIGH, installs MEDIUM, reads SAFE, other uses LOW."""
    pos = [a for a in args if not a.startswith("-")]
    sub = pos[0] if pos else ""
    if prog in T.PACKAGE_RUNNERS or prog in T.INSTALLERS:
        for a in args:
            v = a.split("=", 1)[1] if a.startswith("--") and "=" in a else a
            if v.startswith(T.REMOTE_CODE_PREFIXES) and (prog in T.PACKAGE_RUNNERS or sub == "run"):
                acc.add(H, "shell.download_exec", f"{prog} runs code fetched from {show(v)}")
                return OTHER
    if prog in T.PACKAGE_RUNNERS:
        run = _package_runner_argv(prog, args)
        if run:
            # the fetched tool's command counts too (npx rimraf / is a recursive delete of /)
            r.run_argv(run, [None] * len(run), ctx.child(), acc, stdin)
    pub = publish_command(prog, args, pos)
    if pub is not None:
        acc.add(H, "shell.publish", pub)
        return OTHER
    inst = T.INSTALLERS.get(prog, ())
    if prog == "yarn" and not pos and not [a for a in args if a not in ("--frozen-lockfile", "--immutable") and (
            "=" not in a)]:
        acc.add(M, "shell.install", "yarn (installs packages)")
        return OTHER
    modes = T.INSTALLER_MODE_LETTERS.get(prog, "")
    # an option before the subcommand may take the next word as its value (`zypper --root /mnt install`,
    # `apk -X URL add`): the first word not right after an option is the subcommand too
    sub2 = next((a for k, a in enumerate(args) if a[:1] != "-" and not (k and args[k - 1][:1] == "-" and
                                                                       "=" not in args[k - 1])), sub)
    if sub2 != sub and sub2 in (inst or ()):
        sub = sub2
    if inst is None or sub in (inst or ()) or any(a in (inst or ()) for a in args if a.startswith("-")) or any(
            len(a) > 1 and a[0] == "-" and a[1] in modes for a in args):
        if prog == "uv" and sub == "pip" and (len(pos) < 2 or pos[1] not in ("install", "sync")):
            acc.add(S if len(pos) > 1 and pos[1] in ("list", "show", "freeze", "check", "tree") else L,
                    "shell.pkg", f"uv pip {pos[1] if len(pos) > 1 else ''}".strip())
            return OTHER
        if prog == "uv" and sub == "tool" and (len(pos) < 2 or pos[1] not in ("install", "run")):
            acc.add(L, "shell.pkg", "uv tool")
            return OTHER
        if prog == "go" and sub == "get" and not pos[1:]:
            acc.add(L, "shell.pkg", "go get")
            return OTHER
        acc.add(M, "shell.install", f"{prog} {sub} (package install)".replace("  ", " "))
        return OTHER
    if sub in ("list", "ls", "show", "info", "view", "search", "outdated", "freeze", "check", "why", "doctor",
               "config", "help", "version", "env", "which", "policy", "shellenv", "--version", "prefix", "root",
               "whoami", "audit", "explain", "tree", "home", "cache-dir"):
        if not (sub == "audit" and "fix" in pos) and not (sub == "config" and any(x in pos for x in ("set", "delete"))):
            acc.add(S, "shell.pkg.read", f"{prog} {sub} (read-only)")
            return OTHER
        if sub == "config":
            k = next((j for j, x in enumerate(pos) if x in ("set", "delete")), len(pos))
            key = pos[k + 1].split("=", 1)[0].lower() if k + 1 < len(pos) else ""
            if key and not any(w in _RISKY_CONFIG_WORDS for w in re.split(r"[-._:/@]+", key)):
                acc.add(L, "shell.pkg.config", f"{prog} config {pos[k]} {key}")  # (python, init-author-name …)
                return OTHER
            acc.add(M, "shell.install", f"{prog} config {pos[k] if k < len(pos) else ''} {key} (where packages come "
                                        "from or what runs them)".replace("  ", " "))
            return OTHER
        acc.add(M, "shell.install", f"{prog} {sub} fix")
        return OTHER
    acc.add(L, "shell.program", f"{prog} {sub}".strip())
    return OTHER


#: package-manager config keys that change where packages come from, what runs them or credentials
_RISKY_CONFIG_WORDS = frozenset(("registry", "shell", "node", "options", "prefix", "globalconfig", "userconfig", "ca",
                                 "cafile", "cert", "certfile", "ssl", "git", "script", "module", "onload", "auth",
                                 "authtoken", "token", "password", "proxy", "index", "url", "trusted", "host",
                                 "editor", "browser", "scope", "extra", "keyfile", "key"))


def h_secret_printer(r, prog, args, metas, ctx, acc, stdin):
    """gpg --export-secret-keys, security find-generic-password -w … (table SECRET_PRINTERS): the output is a
    secret (MEDIUM to read into the agent's context; the pipe data flow carries it on)."""
    word = secret_printed(prog, args)
    if word is not None:
        return secret_read(prog, word, acc)
    acc.add(L, "shell.program", f"{prog} (not known to be read-only)")
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry): none of its own, the
#: family reads the programs of its tables (DEFAULTS)
HANDLERS: dict = {}
#: the installers, publishers, package runners and secret printers of the tables that no family reads with a
#: handler of its own (a program in both is read as a package manager)
_PACKAGE_PROGRAMS = set(T.INSTALLERS) | set(T.PUBLISHERS) | T.PACKAGE_RUNNERS | set(T.PUBLISH_TASKS)
DEFAULTS = handlers(
    (_PACKAGE_PROGRAMS, h_pkg),
    (set(T.SECRET_PRINTERS) - _PACKAGE_PROGRAMS, h_secret_printer),
)
