"""git and the forges' CLIs (``gh``, ``glab``): pushes (force, production, deleted branches), history rewrites,
config values and options that run commands, secrets staged or printed.

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_git.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

import shlex

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.common import show
from core.policy.shell.effects.decide import served_dir
from core.policy.shell.effects.secrets import secret_printed, secret_read
from core.policy.shell.families import handlers
from core.policy.shell.options import first_value, getopts
from core.policy.shell.state import DOWNLOAD, DOWNLOADED_DIR, MARK, MAX_FX, OTHER
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


def _git_command_value(key: str, val: str):
    """The shell command a git config value runs, or None (``core.sshCommand``, ``alias.x=!cmd`` …)."""
    k = key.lower()
    if k.startswith("alias.") or k == "credential.helper" or k.startswith("credential."):
        return val[1:] if val.startswith("!") else None
    if k in T.GIT_COMMAND_KEYS or k.startswith("pager.") or k.endswith(T.GIT_COMMAND_KEY_SUFFIXES):
        return val
    return None


def _git_config_commands(r, pairs, ctx, acc, floor):
    for key, val in pairs:
        cmd = _git_command_value(key, val)
        if cmd and cmd.strip():
            plain = floor > L and _plain_tool(cmd)
            acc.add(L if plain else floor, "shell.git.command_config",
                    f"git config {key} sets {show(cmd)}" if plain else f"git config {key} runs a command")
            r.run_text(cmd, ctx.child(), acc)


#: editors, pagers and diff tools that git config commonly names (core.editor vim, core.pager delta)
_PLAIN_TOOLS = frozenset(("vim", "vi", "nvim", "nano", "emacs", "emacsclient", "code", "code-insiders", "subl", "mate",
                          "micro", "hx", "kak", "gedit", "kate", "less", "more", "most", "delta", "bat", "cat",
                          "diff-so-fancy", "diff-highlight", "meld", "kdiff3", "vimdiff", "nvimdiff", "opendiff",
                          "bcompare", "difftastic", "difft", "zed", "idea", "charm", "cursor", "windsurf"))


def _plain_tool(cmd: str) -> bool:
    """A command that is one of the usual editors, pagers or diff tools with plain options (``code --wait``,
    ``less -FRX``, ``delta --dark``): setting it is everyday configuration, not a command to review."""
    words = cmd.split()
    return (bool(words) and words[0].rsplit("/", 1)[-1] in _PLAIN_TOOLS and len(words) <= 4 and
            not any(ch in cmd for ch in ";|&$`<>()\\'\"") and all(w[:1] == "-" for w in words[1:]))


def _env_config(env: dict) -> list:
    """Config given to git through its environment: ``GIT_CONFIG_COUNT`` with ``GIT_CONFIG_KEY_n`` and
    ``GIT_CONFIG_VALUE_n``, and ``GIT_CONFIG_PARAMETERS`` (``'key=value' 'key=value'``, as ``git -c`` passes it)."""
    pairs = []
    count = env.get("GIT_CONFIG_COUNT", "")
    n = int(count) if count.isdigit() else 16  # (an unknown count: every pair set)
    for k in range(min(n, 16)):
        key = env.get(f"GIT_CONFIG_KEY_{k}")
        if key is not None:
            pairs.append((key, env.get(f"GIT_CONFIG_VALUE_{k}", MARK)))
    params = env.get("GIT_CONFIG_PARAMETERS", "")
    if params:
        try:
            words = shlex.split(params)
        except ValueError:
            words = params.split("'")
        pairs.extend(w.split("=", 1) for w in words[:16] if "=" in w)
    return pairs


_GIT_ATTACHED_ONLY = frozenset(("-O", "--open-files-in-pager"))  # optional values: only `-Ocmd`, `--x=cmd`


def _git_effects(r, sub, rest, metas, ctx, acc) -> None:
    """Options of a git subcommand that write a file or run a command (``git log --output=F``, ``git rebase -x
    CMD``), subcommands that discard (``git reflog expire``), and commands given as operands
    (``git submodule foreach CMD``, ``git bisect run CMD``)."""
    fxmap = T.GIT_OPTION_EFFECTS.get(sub)
    words = [a for a in rest if not a.startswith("-")]
    if fxmap:
        k, n, seen = 0, len(rest), 0
        while k < n and seen < MAX_FX:
            a = rest[k]
            k += 1
            if a == "--":
                break
            if not a.startswith("-"):
                continue
            key, eq, val = a.partition("=") if a.startswith("--") else (a[:2], "", a[2:])
            fx = fxmap.get(key)
            if fx is None:
                continue
            seen += 1
            if not eq and not val:
                if key in _GIT_ATTACHED_ONLY or k >= n:
                    continue
                val = rest[k]
                k += 1
            if fx == T.FX_WRITE:
                r.write_path(val, ctx, acc, f"git {sub} {key} writes")
            else:
                r.option_command("git " + sub, key, val, ctx, acc)
    if words:
        fx = T.GIT_SUBCOMMAND_EFFECTS.get((sub, words[0]))
        if fx is not None:
            acc.add(fx[0], f"shell.git.{sub}.{words[0]}"[:40], f"git {sub} {words[0]} {fx[1]}")
        how = T.GIT_RUNS.get((sub, words[0]))
        if how is not None:
            cmd = rest[rest.index(words[0]) + 1:]
            while cmd and cmd[0].startswith("-"):
                cmd = cmd[1:]
            if cmd:
                acc.add(L, f"shell.git.{sub}", f"git {sub} {words[0]} runs a command")
                if how == "text":
                    r.option_command(f"git {sub}", words[0], " ".join(cmd), ctx, acc)
                else:
                    r.run_argv(cmd, [None] * len(cmd), ctx.child(), acc, None)


#: subcommands that write files into the work tree
_WORK_TREE_WRITERS = frozenset(("checkout", "switch", "restore", "reset", "pull", "merge", "rebase", "stash", "apply",
                                "am", "cherry-pick", "revert", "read-tree", "checkout-index", "clone", "sparse-checkout",
                                "worktree"))


def h_git(r, prog, args, metas, ctx, acc, stdin, branch: bool = True):
    """``git [OPTIONS] SUBCOMMAND …``: reads SAFE (with secret files shown), pushes MEDIUM (force, production
    remotes, protected branches deleted: HIGH; a secret staged before: HIGH), ``reset --hard`` HIGH, commands in
    config values and transport options read as commands. An unknown option before the subcommand may take the next
    word as its value: both readings count (``branch`` False: this reading already branched, no further)."""
    if branch and ("GIT_CONFIG_COUNT" in ctx.env or "GIT_CONFIG_PARAMETERS" in ctx.env):
        _git_config_commands(r, _env_config(ctx.env), ctx, acc, L)
    i, n = 0, len(args)
    readings = 0
    work_tree = None
    while i < n and args[i].startswith("-"):
        a = args[i]
        if a == "-c" and i + 1 < n and "=" in args[i + 1]:
            _git_config_commands(r, [args[i + 1].split("=", 1)], ctx, acc, L)
        if a == "-C" and i + 1 < n and MARK not in args[i + 1]:
            ctx = ctx.child()  # (git -C DIR: it runs in DIR, its paths relative to it)
            ctx.cwd = P.normalize(args[i + 1], ctx.cwd)
        if a.startswith("--work-tree"):
            work_tree = a.split("=", 1)[1] if "=" in a else (args[i + 1] if i + 1 < n else None)
        if a in T.GIT_GLOBAL_WITH_ARG:
            i += 2
            continue
        if (branch and a not in T.GIT_GLOBAL_FLAGS and "=" not in a and a != "--" and i + 1 < n
                and not args[i + 1].startswith("-")):
            # an unknown option may take the next word as its value: the command after it counts too
            readings += 1
            if readings > T.MAX_OPTION_READINGS:
                acc.add(M, "shell.options.unknown", "git: too many unknown options before its subcommand")
            else:
                h_git(r, prog, args[i + 2:], metas[i + 2:], ctx, acc, stdin, branch=False)
        i += 1
    if i >= n:
        acc.add(S, "shell.git", "git")
        return OTHER
    sub, rest = args[i], args[i + 1:]
    if work_tree and MARK not in work_tree and sub in _WORK_TREE_WRITERS:
        # the files it checks out or merges are written into the work tree named (git --work-tree=/ checkout)
        r.write_into(work_tree, ctx, acc, f"git {sub} writes files into")
    if sub == "bundle" and len(rest) > 1 and rest[0] == "create":
        r.write_path(rest[1], ctx, acc, "git bundle create writes")
    if sub in ("daemon", "instaweb"):
        # a git server: it listens on the network (HIGH when it serves the root, a home or a system directory)
        served = [a.split("=", 1)[1] for a in rest if a.startswith("--base-path=")] + [
            a for a in rest if a[:1] != "-"]
        served_dir(r, f"git {sub}", ["--directory", served[0]] if served else [], ctx, acc)
    if sub == "init" and not [a for a in rest if a[:1] != "-"]:
        rest = rest + [ctx.cwd or "."]  # (git init: the directory it runs in)
    if sub in ("clone", "init", "worktree") and rest:
        # the directory it creates (git clone URL DIR, git init DIR): a write there
        cpos = [a for k, a in enumerate(rest) if a[:1] != "-" and not (
            k and rest[k - 1] in ("-b", "--branch", "-o", "--origin", "--depth", "-c", "--config", "--reference",
                                  "--separate-git-dir", "-u", "--upload-pack", "--template", "--filter", "-j"))]
        if sub == "worktree":
            cpos = cpos[1:] if cpos[:1] == ["add"] else []
        dest = cpos[1] if sub == "clone" and len(cpos) > 1 else (cpos[0] if sub != "clone" and cpos else None)
        if dest is None and sub == "clone" and cpos:  # (git clone URL: a directory named after the repository)
            dest = cpos[0].rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].removesuffix(".git") or None
        if dest and MARK not in dest and r.pclass(dest, ctx) in (P.SYSTEM, P.SYSROOT, P.ROOT, P.SENSITIVE):
            r.write_path(dest, ctx, acc, f"git {sub} writes into")
        if sub == "clone" and dest and MARK not in dest and len(ctx.downloaded) < 64:
            # every file of the clone came from the network: run later, it is downloaded code (… && sh x/run.sh)
            ctx.downloaded.add(DOWNLOADED_DIR + P.normalize(dest, ctx.cwd).rstrip("/"))
    if sub == "config":
        cpos = [a for a in rest if not a.startswith("-")]
        if len(cpos) >= 2:
            _git_config_commands(r, [(cpos[0], cpos[1])] if cpos[0] != "set" else [(cpos[1], " ".join(cpos[2:3]))],
                                 ctx, acc, M)
    for k, a in enumerate(rest):
        # commands run for the transport: --upload-pack/-u, --receive-pack, --exec, ext:: URLs
        if a.startswith(("--upload-pack=", "--receive-pack=")) or (a.startswith("--exec=") and sub in (
                "clone", "fetch", "ls-remote", "pull", "push", "archive")):
            acc.add(M, "shell.git.command_option", f"git {sub} runs a command for the transport")
            r.run_text(a.split("=", 1)[1], ctx.child(), acc)
        elif a in ("--upload-pack", "--receive-pack") or (a in ("--exec", "-u") and sub in (
                "clone", "fetch", "ls-remote", "pull", "push", "archive")):
            if k + 1 < len(rest):
                acc.add(M, "shell.git.command_option", f"git {sub} runs a command for the transport")
                r.run_text(rest[k + 1], ctx.child(), acc)
        elif a.startswith("ext::"):
            acc.add(H, "shell.git.ext", "git ext:: transport runs a command")
            r.run_text(a[5:].replace("% ", " ").replace("%%", "%"), ctx.child(), acc)
    _git_effects(r, sub, rest, metas, ctx, acc)
    o = getopts(rest, frozenset("mCcFtuoX") if sub == "commit" else frozenset(),
                frozenset(("--sort", "--format", "--contains", "--merged", "--no-merged", "--points-at",
                           "--set-upstream-to", "--push-option", "--repo", "--receive-pack", "--exec")))
    if sub in T.GIT_READ:
        acc.add(S, "shell.git.read", f"git {sub} (read-only)")
        # a file as it was in a commit (git show HEAD:.env, git cat-file -p main:.env) is that file read
        if sub in ("show", "cat-file"):
            r.read_secret_check(f"git {sub}", [a.split(":", 1)[1] for a in rest if ":" in a and a[0] != "-"],
                                ctx, acc)
        if sub in T.GIT_CONTENT_READS or (sub in ("log", "whatchanged") and (o.flags & {"p", "L"} or o.any(
                "--patch", "-p"))):
            # the file's contents (a diff, blame, grep of .env) come into the agent's context
            files = [a for a in o.pos if a and a[0] != "-"]
            if sub == "grep" and not o.any("-e", "-f", "--file"):
                files = files[1:]  # (git grep PATTERN [PATH…]: the pattern is not a file)
            r.read_secret_check(f"git {sub}", files, ctx, acc)
        return OTHER
    if sub == "add" or (sub == "commit" and o.pos):
        for f in o.pos:
            if r.is_secret_path(f, ctx):
                acc.add(M, "shell.git.add.secret", f"git {sub} stages {show(f)} (a secret file) to be pushed")
                ctx.flags.add("staged_secret")
    if sub == "branch":
        modify = o.flags & {"d", "D", "m", "M", "c", "C", "u", "f"} or o.any(
            "--delete", "--move", "--copy", "--set-upstream-to", "--unset-upstream", "--edit-description",
            "--force", "--track")
        listing = o.flags & {"l", "a", "r", "v"} or o.any("--list", "--all", "--remotes", "--contains", "--merged",
                                                         "--no-merged", "--points-at", "--sort", "--format",
                                                         "--show-current", "--verbose")
        if not modify and (not o.pos or listing):
            acc.add(S, "shell.git.read", "git branch (lists branches)")
        else:
            acc.add(L, "shell.git.branch", "git branch change")
        return OTHER
    if sub in ("tag", "remote", "stash", "config", "worktree", "notes", "submodule"):
        listing_words = {"tag": (), "remote": ("show", "get-url"), "stash": ("list", "show"),
                         "config": ("get", "list"), "worktree": ("list",), "notes": ("list", "show"),
                         "submodule": ("status", "summary")}[sub]
        if (not o.pos and sub in ("tag", "remote", "worktree", "notes", "submodule") and not o.flags - {"l", "v", "n"}
                and not o.longs.keys() - {"--list", "--verbose"}) or (o.pos and o.pos[0] in listing_words) or (
                sub == "config" and (o.any("--get", "--list", "--get-all", "--get-regexp", "-l") or
                                     len(o.pos) == 1)) or (sub == "tag" and o.flags & {"l"}):
            acc.add(S, "shell.git.read", f"git {sub} (lists)")
        else:
            acc.add(L, f"shell.git.{sub}", f"git {sub}")
        return OTHER
    if sub == "push":
        if "n" in o.flags or "--dry-run" in o.longs:
            acc.add(L, "shell.git.push.dry_run", "git push --dry-run")
            return OTHER
        force = "f" in o.flags or o.any("--force", "--force-with-lease", "--force-if-includes", "--mirror") or any(
            p.startswith("+") for p in o.pos)
        if force:
            acc.add(H, "shell.git.push.force", "force push (rewrites remote history)")
        remote = o.pos[0] if o.pos else ""
        if remote in T.PROD_REMOTES:
            acc.add(H, "shell.git.push.production", f"git push to the production remote {remote}")
        # deleting remote branches: `-d`/`--delete REF…`, or a refspec with an empty source (`:REF`)
        delete_all = "d" in o.flags or "--delete" in o.longs
        for ref in o.pos[1:]:
            if delete_all or (ref.startswith(":") and len(ref) > 1):
                name = ref.split(":", 1)[-1] if ":" in ref else ref
                name = name.removeprefix("refs/heads/").removeprefix("refs/tags/")
                if name in T.PROTECTED_BRANCHES or MARK in name:
                    acc.add(H, "shell.git.push.delete_main", f"deletes the branch {show(name)} on the remote "
                                                             f"{show(remote)}")
                else:
                    acc.add(M, "shell.git.push.delete", f"deletes the branch {show(name)} on the remote "
                                                        f"{show(remote)}")
        if "staged_secret" in ctx.flags:
            acc.add(H, "shell.secret_send", "git push sends a secret file staged just before")
        acc.add(M, "shell.git.push", "git push")
        return OTHER
    if sub == "reset":
        if "--hard" in o.longs:
            acc.add(H, "shell.git.reset.hard", "git reset --hard (discards work)")
        else:
            acc.add(L, "shell.git.reset", "git reset")
        return OTHER
    if sub == "clean":
        if o.flags & {"x", "X"}:
            acc.add(M, "shell.git.clean.ignored", "git clean -x/-X (removes ignored files such as .env)")
        elif "n" in o.flags or "--dry-run" in o.longs:
            acc.add(S, "shell.git.clean.dry_run", "git clean -n (lists)")
        else:
            acc.add(L, "shell.git.clean", "git clean")
        return OTHER
    if sub in ("send-email", "request-pull"):
        acc.add(M, "shell.git.email", f"git {sub}")
        return OTHER
    if sub == "help":
        acc.add(S, "shell.git.read", "git help")
        return OTHER
    acc.add(L, f"shell.git.{sub}"[:40], f"git {sub}")
    return OTHER


def h_gh(r, prog, args, metas, ctx, acc, stdin):
    """``gh``/``glab``: ``api`` by its method, deletes and releases HIGH, CI secrets HIGH, tokens printed a secret read,
    reads SAFE, other writes MEDIUM."""
    o = getopts(args, frozenset("XfFRHqtpbBlmRaAsrw"), frozenset(("--method", "--field", "--raw-field", "--input",
                                                                    "--repo", "--title", "--body", "--jq",
                                                                    "--template", "--header", "--base", "--head")))
    pos = o.pos
    group = pos[0] if pos else ""
    verb = pos[1] if len(pos) > 1 else ""
    if group == "api":
        method = (first_value(o, "X", "--method") or "").upper()
        if not method:
            method = "POST" if (o.flags & {"f", "F"} or o.any("--field", "--raw-field", "--input")) else "GET"
        t = T.HTTP_METHOD_TIERS.get(method, M)
        acc.add(t, f"shell.http.{method.lower()}", f"{prog} api {method} request")
        return DOWNLOAD
    word = secret_printed(prog, args)
    if word is not None:
        return secret_read(prog, word, acc)
    if (group, verb) in (("repo", "delete"), ("release", "delete")) or verb == "delete":
        acc.add(H, "shell.gh.delete", f"{prog} {group} {verb}")
    elif (group, verb) == ("release", "create"):
        acc.add(H, "shell.gh.release", f"{prog} release create (publishes a release)")
    elif group in T.FORGE_SECRET_GROUPS and verb in ("set", "delete", "remove"):
        acc.add(H, "shell.gh.secret", f"{prog} {group} {verb} (CI secrets and variables)")
    elif (group, verb) == ("pr", "checkout") or (group, verb) == ("repo", "clone"):
        acc.add(L, "shell.gh", f"{prog} {group} {verb} (a local checkout)")
    elif verb in ("list", "view", "status", "diff", "checks", "ls") or group in ("browse", "search", "status",
                                                                                "help", "version", "completion"):
        acc.add(S, "shell.gh.read", f"{prog} {group} {verb}".strip())
    elif group in ("auth", "config", "alias", "extension", "codespace"):
        acc.add(L, "shell.gh", f"{prog} {group}")
    else:
        acc.add(M, "shell.gh.write", f"{prog} {group} {verb}".strip())
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
HANDLERS = handlers(
    (("git",), h_git),
    (("gh", "glab"), h_gh),
)
