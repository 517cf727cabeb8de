"""The shell's read-only builtins and the read-only programs: ``cd``/``pushd``, ``export``/``declare``,
``read``, ``mapfile``, ``alias``, ``trap``, ``set``, ``unset``, ``echo``/``printf``, ``printenv``, and what a
read-only program prints (``cat``, ``base64 -d``). They change the reader's data flow state (the directory,
variables, aliases) rather than the system.

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_builtins.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.common import is_secret_name, show, unescape
from core.policy.shell.families import handlers
from core.policy.shell.options import getopts
from core.policy.shell.state import (
    DECODED,
    MARK,
    MAX_VALUE,
    OTHER,
    SECRET,
    SECRET_REF,
    Acc,
    FileInput,
    TextInput,
)
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


def h_read_only(r, prog, args, metas, ctx, acc, stdin):
    """Every read-only program without a handler of its own (READ_ONLY and the operator's additions): SAFE, with
    the secret files it shows (CONTENT_READERS); the programs of :data:`_READ_ONLY_COMMANDS` then say what they
    print or change (``cat`` passes its input on, ``cd`` moves the reader), the others print something (OTHER)."""
    if acc.tier < S:
        acc.add(S, "shell.read_only", f"{prog} (read-only)")
    if prog in T.CONTENT_READERS:
        r.read_secret_check(prog, _files_read(prog, args), ctx, acc)
        if type(stdin) is FileInput:
            r.read_secret_check(prog, [stdin.path], ctx, acc)
    command = _READ_ONLY_COMMANDS.get(prog)
    if command is None:
        return OTHER
    return command(r, prog, args, metas, ctx, acc, stdin)


#: programs whose first operand is a pattern, not a file (unless the pattern is given by an option)
_PATTERN_FIRST = frozenset(("grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "look"))
#: their options that give the pattern (then every operand is a file) and take a value
_PATTERN_OPTS = frozenset(("-e", "--regexp", "-f", "--file"))


def _files_read(prog: str, args: list) -> list:
    """The operands of a content reader that are files it shows: ``grep PATTERN FILE…`` shows FILE, not the
    pattern (``grep -rn '/etc/shadow' tests/`` reads tests/)."""
    if prog not in _PATTERN_FIRST:
        return [a for a in args if a and a[0] != "-"]
    given = False
    values = set()
    for k, a in enumerate(args):
        if a in _PATTERN_OPTS or (a[:2] in ("-e", "-f") and len(a) > 2) or a.startswith(("--regexp=", "--file=")):
            given = True
            if a in _PATTERN_OPTS and k + 1 < len(args):
                values.add(k + 1)
    files = [a for k, a in enumerate(args) if (not a or a[0] != "-") and k not in values]  # ('' is a pattern too)
    files = files if given else files[1:]
    return [a for a in files if a]


def _cat(r, prog, args, metas, ctx, acc, stdin):
    """``cat``/``tac`` with no file (or ``-``) print their input: a heredoc goes on as printed text."""
    files = [a for a in args if a and (a[0] != "-" or a == "-")]
    if (not files or files == ["-"]) and stdin is not None:
        if type(stdin) is TextInput and stdin.heredoc:
            return TextInput(stdin.text, False)
        return stdin
    return OTHER


def _decoder(r, prog, args, metas, ctx, acc, stdin):
    """``base64 -d``, ``xxd -r``: decoded data (HIGH when it is run)."""
    if any(a in ("-d", "--decode", "-D", "-r", "-revert") or (a.startswith("-") and "d" in a[1:] and
                                                             not a.startswith("--")) for a in args):
        return DECODED
    return OTHER


def _cd(r, prog, args, metas, ctx, acc, stdin):
    """``cd DIR``, ``pushd DIR``: the reader's working directory moves (``cd -``: unknown)."""
    pos = [a for a in args if not a.startswith("-") or a == "-"]
    target = pos[0] if pos else "~"
    prev = ctx.cwd
    if target == "-":
        old = ctx.env.get("OLDPWD")
        ctx.cwd = old if type(old) is str and old != "." else MARK  # (`cd -`: where the last cd left)
    else:
        ctx.cwd = P.normalize(target, ctx.cwd) if MARK not in target else MARK
        if len(ctx.cwd) > 1024:  # hostile cd chains: the directory is as good as unknown
            ctx.cwd = MARK
    ctx.env["OLDPWD"] = prev if prev is not None else MARK  # (bash sets it: `$OLDPWD`, `~-`)
    return None


def _pwd(r, prog, args, metas, ctx, acc, stdin):
    """``pwd``: prints the working directory when the reader knows it (``"$(pwd)/shadow"`` after ``cd /etc``)."""
    cwd = ctx.cwd
    if cwd and MARK not in cwd and cwd[0] in "/~":
        return TextInput(cwd + "\n", False)
    return OTHER


def _popd(r, prog, args, metas, ctx, acc, stdin):
    """``popd``: the directory is unknown (the stack is not followed)."""
    ctx.cwd = MARK
    return None


def _export(r, prog, args, metas, ctx, acc, stdin):
    """``export``/``declare``/``local`` … ``K=V``: variables set (and read: ``PAGER=…`` runs); alone, every
    variable printed (a secret read)."""
    names = [a for a in args if not a.startswith("-")]
    if not names:
        acc.add(M, "shell.env.dump", f"{prog} prints every variable (secrets) into the agent's context")
        return SECRET
    nameref = any(a[:1] == "-" and "n" in a[1:] for a in args if a[:2] != "--")
    for a in names:
        if "=" in a:
            k, v = a.split("=", 1)
            if nameref:
                # declare -n r=NAME: $r is NAME's value (a secret when NAME is one)
                ctx.env[k] = MARK
                target = v.split("[", 1)[0]
                if (is_secret_name(target) or SECRET_REF + target in ctx.flags) and len(ctx.flags) < 256:
                    ctx.flags.add(SECRET_REF + k)
                if target in ctx.tainted:
                    ctx.tainted.add(k)
                continue
            ctx.env[k] = v
            r.set_var(k, v, ctx, acc)
    return None


def _set(r, prog, args, metas, ctx, acc, stdin):
    """``set`` alone prints every variable (a secret read); ``set -- A B`` sets the positional parameters."""
    if not args:
        acc.add(M, "shell.env.dump", "set prints every variable (secrets) into the agent's context")
        return SECRET
    if "--" in args:
        pos = args[args.index("--") + 1:]
        for k, v in enumerate(pos[:9]):
            ctx.env[str(k + 1)] = v
        ctx.env["@"] = ctx.env["*"] = " ".join(pos[:64])
        return None
    return OTHER


def _read(r, prog, args, metas, ctx, acc, stdin):
    """``read A B``: the first line of a known input split into the variables (unknown otherwise); a secret
    input taints them."""
    if type(stdin) is FileInput:
        r.read_secret_check(prog, [stdin.path], ctx, acc)
    names = [a for a in args if not a.startswith("-")]
    line = None
    if type(stdin) is TextInput:
        line = stdin.text.split("\n", 1)[0]
    for k, a in enumerate(names):
        if line is not None and "-a" not in args:
            if k == len(names) - 1:
                ctx.env[a] = " ".join(line.split()[k:])
            else:
                ws = line.split()
                ctx.env[a] = ws[k] if k < len(ws) else ""
        else:
            ctx.env[a] = MARK
        if stdin is SECRET or (type(stdin) is FileInput and r.is_secret_path(stdin.path, ctx)):
            ctx.tainted.add(a)
    return None


def _alias(r, prog, args, metas, ctx, acc, stdin):
    """``alias x='rm -rf'``: an alias runs its value later in this shell, so the definition counts as the
    command; later uses of it are read through it (dispatch)."""
    for a in args:
        if "=" in a and not a.startswith("-"):
            name, val = a.split("=", 1)
            acc.add(S, "shell.alias", f"alias {name} defined")
            r.run_text(val, ctx, acc)
            if len(ctx.aliases) < 64 and len(val) <= MAX_VALUE:
                ctx.aliases[name] = val
    return None


def _trap(r, prog, args, metas, ctx, acc, stdin):
    """``trap CMD SIGNAL…`` runs CMD later in this shell (on exit, on a signal): it counts as the command."""
    ops = [a for a in args if a != "--"]
    if len(ops) >= 2 and ops[0] not in ("-", "-p", "-l", "-P") and not ops[0].isdigit() and ops[0].strip():
        acc.add(S, "shell.trap", f"trap: a command run on {show(ops[1])}")
        r.run_text(ops[0], ctx.child(), acc)
    return None


def _unset(r, prog, args, metas, ctx, acc, stdin):
    """``unset A B``: the variables are forgotten."""
    for a in args:
        ctx.env.pop(a, None)
    return None


def h_mapfile(r, prog, args, metas, ctx, acc, stdin):
    """``mapfile``/``readarray [-C callback] [ARRAY] < file``: lines of the input into an array (secret when the
    input is); the callback runs as a command for every few lines."""
    o = getopts(args, short_arg=frozenset("dnOsucC"))
    for cb in o.vals.get("C", ()):
        r.run_text(cb, ctx, acc)
    name = o.pos[-1] if o.pos else "MAPFILE"
    ctx.env[name] = MARK
    if type(stdin) is FileInput:
        r.read_secret_check(prog, [stdin.path], ctx, acc)
        if r.is_secret_path(stdin.path, ctx):
            ctx.tainted.add(name)
    elif stdin == SECRET:
        ctx.tainted.add(name)
    return None


def h_echo(r, prog, args, metas, ctx, acc, stdin):
    """``echo``/``printf``: SAFE (MEDIUM when a secret variable is printed); prints its text (a TextInput, the
    escapes of ``echo -e`` and ``printf`` decoded) for the next command; ``printf -v VAR`` sets VAR instead."""
    acc.add(S, "shell.echo", f"{prog} (prints text)")
    for m in metas:
        if m and m[1]:
            acc.add(M, "shell.secret_print", f"{prog} prints a secret variable into the agent's context")
            break
    if prog == "echo":
        k = 0
        esc = False
        while k < len(args) and len(args[k]) > 1 and args[k][0] == "-" and set(args[k][1:]) <= set("neE"):
            esc = esc or "e" in args[k]
            k += 1
        text = " ".join(args[k:])
        if esc:
            text = unescape(text)
        return TextInput(text + "\n", False)
    # printf FORMAT ARGS
    k = 0
    var = None
    if args and args[0] == "-v" and len(args) > 1:
        k = 2
        var = args[1]
    if var is not None:
        out = h_echo(r, prog, args[2:], metas[2:], ctx, Acc(), stdin)
        ctx.env[var] = out.text if type(out) is TextInput and len(out.text) <= MAX_VALUE else MARK
        return None
    if k >= len(args):
        return TextInput("", False)
    fmt = unescape(args[k])
    rest = args[k + 1:]
    if "%" not in fmt:
        return TextInput(fmt, False)
    out = []
    count = max(1, fmt.count("%") - 2 * fmt.count("%%"))
    idx = 0
    for _ in range(64):
        chunk = fmt
        for spec in ("%s", "%b", "%d", "%q", "%i"):
            while spec in chunk:
                val = rest[idx] if idx < len(rest) else ""
                chunk = chunk.replace(spec, val, 1)
                idx += 1
        out.append(chunk.replace("%%", "%"))
        if idx >= len(rest) or count == 0:
            break
    return TextInput("".join(out), False)


def h_printenv(r, prog, args, metas, ctx, acc, stdin):
    """``printenv`` alone or of a secret variable: a secret read (MEDIUM); of other variables SAFE."""
    names = [a for a in args if not a.startswith("-")]
    if not names:
        acc.add(M, "shell.env.dump", "printenv prints every environment variable (secrets) into the agent's context")
        return SECRET
    elif any(is_secret_name(nm) for nm in names):
        acc.add(M, "shell.secret_print", "printenv of a secret variable into the agent's context")
        return SECRET
    else:
        acc.add(S, "shell.read_only", "printenv (read-only)")
    return OTHER


#: read-only programs and builtins with a reading of their own (signature of a handler); other read-only
#: programs print something the reader does not follow (OTHER)
_READ_ONLY_COMMANDS = {
    "cat": _cat, "tac": _cat, "base64": _decoder, "base32": _decoder, "xxd": _decoder, "echo": h_echo,
    "printf": h_echo, "printenv": h_printenv, "cd": _cd, "pushd": _cd, "popd": _popd, "pwd": _pwd, "export": _export,
    "declare": _export, "typeset": _export, "local": _export, "readonly": _export, "set": _set,
    "mapfile": h_mapfile, "readarray": h_mapfile, "read": _read, "alias": _alias, "trap": _trap, "unset": _unset,
}


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
HANDLERS = handlers(
    (("printenv",), h_printenv),
)
