"""Text processors that can write files or run commands: ``awk`` (``system()``, ``print > f``, ``| getline``),
``sed`` (``w``, ``r``, ``e`` and ``-i``), ``xargs`` (the command it runs with its input).

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_text.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

import re
import shlex

from core.policy import _paths as P
from core.policy.shell.common import unescape
from core.policy.shell.families import handlers
from core.policy.shell.options import getopts
from core.policy.shell.state import MARK, MAX_COMBOS, MAX_FX, OTHER, SECRET, TextInput
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


def _awk_strings_after(code: str, pos: int):
    """The string literal starting at ``pos`` (after spaces), or None."""
    n = len(code)
    while pos < n and code[pos] in " \t(":
        pos += 1  # (print > ("/etc/cron.d/" "job"): a target in brackets)
    if pos < n and code[pos] == '"':
        j = code.find('"', pos + 1)
        if j > 0:
            return code[pos + 1:j]
    return None


#: a string literal, or a name (awk's variables, keywords and functions), in awk code
_AWK_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_]\w*')
#: a name given a string literal in the code (``F = "/etc/cron.d/x"``), not compared (``F == "x"``)
_AWK_ASSIGN = re.compile(r'(?<![\w$.])([A-Za-z_]\w*)\s*=\s*("(?:[^"\\\n]|\\.)*")(?!\s*[^\s;})])')
#: two string literals side by side: awk joins them (``"cat " "/etc/shadow"``)
_AWK_JOIN = re.compile(r'"([^"\\\n]*)"\s+"([^"\\\n]*)"')
_AWK_VAR = re.compile(r"[A-Za-z_]\w*")


def _awk_values(o, files: list) -> dict:
    """The variables an awk command sets before its code runs: ``-v NAME=VALUE``, ``--assign NAME=VALUE`` and
    ``NAME=VALUE`` operands (awk reads those as assignments, not files). ``{name: value}``; a value with a
    quote or an unknown part (``$(…)``) is left out."""
    given = list(o.vals.get("v", ()))
    assign = o.longs.get("--assign")
    if isinstance(assign, str):
        given.append(assign)
    given += [f for f in files if "=" in f and _AWK_VAR.fullmatch(f.split("=", 1)[0])]
    out = {}
    for g in given[:16]:
        name, _, value = g.partition("=")
        if _AWK_VAR.fullmatch(name) and '"' not in value and "\\" not in value and MARK not in value:
            out[name] = value
    return out


def _awk_resolve(code: str, values: dict) -> str:
    """``code`` with each variable of known string value written as that literal, and adjacent literals joined:
    ``print > F`` with ``-v F=/etc/cron.d/x`` reads as ``print > "/etc/cron.d/x"``, ``system("cat " F)`` as
    ``system("cat /etc/shadow")``, so the reading of literals below sees what the code uses."""
    values = dict(values)
    out = code
    for _ in range(4):  # (f = d "/job" is a literal once d is: a few rounds)
        before = len(values)
        for m in _AWK_ASSIGN.finditer(out):
            lit = m.group(2)[1:-1]
            if "\\" not in lit and len(values) < 32:
                values.setdefault(m.group(1), lit)
        if not values or (out is not code and len(values) == before):
            break
        out = _awk_substitute(code, values)
    return out


def _awk_substitute(code: str, values: dict) -> str:
    """:func:`_awk_resolve`'s one round: the variables of ``values`` written as literals, adjacent ones joined."""

    def sub(m):
        t = m.group(0)
        if t[0] == '"' or t not in values:
            return t
        end = m.end()
        rest = code[end:end + 2].lstrip()
        if (rest[:1] == "=" and rest[1:2] != "=") or code[m.start() - 1:m.start()] == "$":
            return t  # (an assignment to it, or $F: a field)
        return '"' + values[t] + '"'

    out = _AWK_TOKEN.sub(sub, code)
    for _ in range(8):
        joined = _AWK_JOIN.sub(r'"\1\2"', out)
        if joined == out:
            break
        out = joined
    return out


def h_awk(r, prog, args, metas, ctx, acc, stdin):
    """``awk PROGRAM FILE…``: SAFE, with ``system("CMD")``, ``print | "CMD"`` and ``"CMD" | getline`` read as
    commands (built at run time: HIGH), ``print > "FILE"`` a write, secret files read."""
    o = getopts(args, frozenset("Fvf"), frozenset(("--field-separator", "--assign", "--file")), stop_at_pos=True)
    if "f" in o.flags or "--file" in o.longs:
        acc.add(L, "shell.awk.file", f"{prog} runs a program file")
        files = o.pos
        code = ""
    else:
        code = o.pos[0] if o.pos else ""
        files = o.pos[1:]
        acc.add(S, "shell.awk", f"{prog} (read-only)")
    values = _awk_values(o, files)
    if values:
        files = [f for f in files if not ("=" in f and f.split("=", 1)[0] in values)]
    r.read_secret_check(prog, files, ctx, acc)
    if code:
        _awk_code(r, prog, code, ctx, acc)
        if ("=" in code or values) and len(code) < 8192:
            # (-v F=/etc/cron.d/x 'BEGIN { print … > F }': the file it names). Read beside the code as written,
            # as the code may set the variable again from its input (system(c) stays built at run time)
            resolved = _awk_resolve(code, values)
            if resolved != code:
                _awk_code(r, prog, resolved, ctx, acc)
        elif any(v[:1] in "/~" for v in values.values()):
            # (too long to follow cheaply: a path handed to it may be where it writes)
            acc.add(M, "shell.awk.long", f"{prog} program too long to follow its variables, given a path")
    return OTHER


def _awk_code(r, prog, code, ctx, acc) -> None:
    """Read awk ``code``: its effects (:meth:`scan_code`), and the commands, writes and pipes it names as
    literals (``system("CMD")``, ``print > "FILE"``, ``print | "CMD"``, ``"CMD" | getline``)."""
    r.scan_code(code, ctx, acc, "awk")  # sockets, listeners, reads (and the commands read again below)
    k = 0
    start = 0
    while k < 32:
        j = code.find("system", start)
        if j < 0:
            break
        k += 1
        start = j + 6
        m = start
        while m < len(code) and code[m] in " \t":
            m += 1
        if m < len(code) and code[m] == "(":
            lit = _awk_strings_after(code, m + 1)
            if lit is not None:
                acc.add(M, "shell.awk.system", f"{prog} runs commands (system)")
                r.run_text(lit, ctx, acc)
            else:
                acc.add(H, "shell.awk.system", f"{prog} runs commands built from its input (system)")
    # print/printf redirects and pipes
    start = 0
    k = 0
    while k < 32:
        j = code.find("print", start)
        if j < 0:
            break
        k += 1
        start = j + 5
        m = start
        depth = 0
        n = len(code)
        while m < n and code[m] not in ";}\n":
            ch = code[m]
            if ch == '"':
                e = code.find('"', m + 1)
                m = n if e < 0 else e + 1
                continue
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif depth <= 0 and ch in ">|":
                op = ch
                m += 1
                if m < n and code[m] == ">":
                    m += 1
                lit = _awk_strings_after(code, m)
                if op == "|":
                    if lit is not None:
                        acc.add(M, "shell.awk.pipe", f"{prog} pipes into a command")
                        r.run_text(lit, ctx, acc)
                    else:
                        acc.add(H, "shell.awk.pipe", f"{prog} pipes into a command built at run time")
                elif lit is not None:
                    r.write_path(lit, ctx, acc, f"{prog} writes")
                else:
                    acc.add(L, "shell.awk.write", f"{prog} writes a file")
                break
            m += 1
    # "cmd" | getline
    j = code.find("getline")
    if j > 0:
        before = code[:j].rstrip()
        if before.endswith("|"):
            q2 = before[:-1].rstrip()
            if q2.endswith('"'):
                q1 = q2.rfind('"', 0, len(q2) - 1)
                if q1 >= 0:
                    acc.add(M, "shell.awk.getline", f"{prog} runs a command (getline)")
                    r.run_text(q2[q1 + 1:-1], ctx, acc)


def h_sed(r, prog, args, metas, ctx, acc, stdin):
    """``sed SCRIPT FILE…``: SAFE (prints); ``-i`` writes the files; the script's ``w``/``r``/``e`` commands write,
    read and run (``--sandbox`` forbids them)."""
    i, n = 0, len(args)
    inplace = False
    script_given = False
    scripts: list = []  # the sed scripts given (-e, --expression, or the first operand)
    program_file = None
    sandbox = False
    files: list = []
    while i < n:
        a = args[i]
        if a == "--":
            files.extend(args[i + 1:])
            break
        if a.startswith("--"):
            if a.startswith("--in-place"):
                inplace = True
            elif a == "--sandbox":
                sandbox = True
            elif a in ("--expression", "--file"):
                script_given = True
                if i + 1 < n:
                    if a == "--file":
                        program_file = args[i + 1]
                    else:
                        scripts.append(args[i + 1])
                i += 1
            elif a.startswith("--expression="):
                script_given = True
                scripts.append(a.split("=", 1)[1])
            elif a.startswith("--file="):
                script_given = True
                program_file = a.split("=", 1)[1]
            i += 1
            continue
        if a.startswith("-") and len(a) > 1:
            chars = a[1:]
            took = False
            for j, ch in enumerate(chars):
                if ch == "i" or ch == "I" and False:
                    inplace = True
                    if prog == "sed" and j == len(chars) - 1 and i + 1 < n and args[i + 1] == "":
                        took = True  # BSD: -i ''
                    break
                if ch in "ef":
                    script_given = True
                    val = chars[j + 1:] if j < len(chars) - 1 else (args[i + 1] if i + 1 < n else "")
                    if ch == "e":
                        scripts.append(val)
                    else:
                        program_file = val
                    if j == len(chars) - 1:
                        took = True
                    break
                if ch == "l":
                    took = j == len(chars) - 1
                    break
            i += 2 if took else 1
            continue
        files.append(a)
        i += 1
    if not script_given and files:
        scripts.append(files[0])
        files = files[1:]
    if program_file is not None and not sandbox:
        key = P.normalize(program_file, ctx.cwd) if MARK not in program_file else None
        if key in ctx.written:
            scripts.append(ctx.written[key])
        elif program_file not in ("-", "/dev/stdin"):
            acc.add(L, "shell.sed.file", f"{prog} runs a program file (it can write files and run commands)")
    for script in ([] if sandbox else scripts[:MAX_FX]):
        for kind, val in _sed_effects(script):
            if kind == "write":
                if val and val not in ("/dev/stdout", "/dev/stderr"):
                    r.write_path(val, ctx, acc, f"{prog} writes")
            elif kind == "read":
                r.read_secret_check(prog, [val], ctx, acc)
            elif kind == "cmd":
                r.option_command(prog, "e", val, ctx, acc)
            else:
                acc.add(H, "shell.sed.exec", f"{prog} runs the text it reads as commands (e)")
    if inplace:
        acc.add(L, "shell.sed.inplace", f"{prog} -i edits files in place")
        for f in files:
            r.write_path(f, ctx, acc, "edit in place")
    else:
        acc.add(S, "shell.sed", f"{prog} (prints)")
        r.read_secret_check(prog, files, ctx, acc)
    return OTHER


def _sed_effects(script: str) -> list:
    """What a sed script does besides printing: ``("write", FILE)`` (w, W, s///w), ``("read", FILE)`` (r, R),
    ``("cmd", CMD)`` (e CMD), ``("input_cmd", "")`` (e alone and s///e: the text read runs as a command)."""
    out: list = []
    if not any(ch in script for ch in "wWrRe"):
        return out
    i, n = 0, len(script)

    def eol(k):
        e = script.find("\n", k)
        return n if e < 0 else e

    def skip_delim(k, d):  # k after an opening delimiter: the index after its closing one
        while k < n and script[k] != d:
            k += 2 if script[k] == "\\" else 1
        return k + 1

    while i < n and len(out) < MAX_FX:
        c = script[i]
        if c in " \t\n;{}!":
            i += 1
            continue
        if c == "#":
            i = eol(i)
            continue
        for _ in range(2):  # an address, or two
            if i < n and (script[i].isdigit() or script[i] in "$+~"):
                i += 1
                while i < n and (script[i].isdigit() or script[i] == "~"):
                    i += 1
            elif i < n and script[i] == "/":
                i = skip_delim(i + 1, "/")
            elif i + 1 < n and script[i] == "\\":
                i = skip_delim(i + 2, script[i + 1])
            while i < n and script[i] in "IM":
                i += 1
            if i < n and script[i] == ",":
                i += 1
                continue
            break
        while i < n and script[i] in " \t!":
            i += 1
        if i >= n:
            break
        cmd = script[i]
        i += 1
        if cmd in "aic":
            while True:
                e = eol(i)
                if e > i and script[e - 1] == "\\" and e < n:
                    i = e + 1
                    continue
                i = e
                break
        elif cmd in "wWrRe":
            e = eol(i)
            arg = script[i:e].strip()
            i = e
            if cmd == "e":
                out.append(("cmd", arg) if arg else ("input_cmd", ""))
            else:
                out.append(("write" if cmd in "wW" else "read", arg))
        elif cmd in "btT:v":
            while i < n and script[i] not in ";\n":
                i += 1
        elif cmd in "sy":
            if i >= n:
                break
            d = script[i]
            i = skip_delim(i + 1, d)
            i = skip_delim(i, d)
            if cmd == "s":
                while i < n and script[i] in "gpiImMe0123456789w":
                    if script[i] == "e":
                        out.append(("input_cmd", ""))
                    elif script[i] == "w":
                        e = eol(i + 1)
                        out.append(("write", script[i + 1:e].strip()))
                        i = e
                        break
                    i += 1
    return out


def h_xargs(r, prog, args, metas, ctx, acc, stdin):
    """``xargs [OPTIONS] CMD …``: CMD read with its input as arguments (the items of a known input, one per line with
    ``-I``/``-0``/``-d``; unknown otherwise), secret input carried into the arguments."""
    i, n = 0, len(args)
    repl = None
    arg_file = None  # -a FILE: the items are read from FILE instead of the input
    records = False  # -0 / -d: one item per record (a NUL from printf reads as a new line), not per word
    while i < n:
        a = args[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        if a in ("-I", "-L", "-n", "-P", "-d", "-E", "-s", "-a", "--arg-file", "--delimiter", "--max-args",
                 "--max-procs", "--max-lines", "--eof", "--max-chars", "--replace"):
            if a in ("-I", "--replace"):
                repl = args[i + 1] if i + 1 < n else "{}"
            if a in ("-d", "--delimiter"):
                records = unescape(args[i + 1]) if i + 1 < n else True
            if a in ("-a", "--arg-file") and i + 1 < n:
                arg_file = args[i + 1]
            i += 2
            continue
        if a.startswith("--arg-file="):
            arg_file = a.split("=", 1)[1]
        if a.startswith("--delimiter=") or (a.startswith("-d") and not a.startswith("--")):
            records = unescape(a.split("=", 1)[1] if a.startswith("--") else a[2:])
        elif a == "--null" or (not a.startswith("--") and "0" in a):
            records = True
        if a.startswith("-I") and len(a) > 2:
            repl = a[2:]
        elif a.startswith("-i"):
            repl = a[2:] or "{}"
        elif a.startswith("--replace="):
            repl = a.split("=", 1)[1] or "{}"
        i += 1
    cmd = args[i:] or ["echo"]
    if prog == "parallel" and (":::" in cmd or "::::" in cmd or " " in cmd[0]):
        return _parallel(r, cmd, ctx, acc, stdin)
    if arg_file is not None:
        r.read_secret_check(f"{prog} -a", [arg_file], ctx, acc)
        stdin = TextInput("", True) if r.pclass(arg_file, ctx) == P.NULLDEV else (
            SECRET if r.is_secret_path(arg_file, ctx) else None)
    if type(stdin) is TextInput:
        if type(records) is str and len(records) == 1:
            items = stdin.text.split(records)  # -d ,
        else:
            items = stdin.text.split("\n") if repl or records else stdin.text.split()
        items = [x for x in items if x.strip()][:MAX_COMBOS] or [""]
    else:
        items = [MARK]
    c = ctx.child()
    # secret contents read by xargs become the command's arguments (cat .env | xargs curl -d)
    meta = (SECRET, False, None) if stdin == SECRET else None
    if repl:
        for it in items:
            argv = [x.replace(repl, it) for x in cmd]
            r.run_argv(argv, [meta if repl in x else None for x in cmd], c, acc, None)
    else:
        argv = cmd + items if items != [""] else list(cmd)
        r.run_argv(argv, [None] * len(cmd) + [meta] * (len(argv) - len(cmd)), c, acc, None)
    return OTHER


def _parallel(r, words: list, ctx, acc, stdin):
    """GNU ``parallel CMD … ::: ARGS``: the command words are joined into one shell command (parallel runs it
    through a shell), each argument put where ``{}`` (``{.}``, ``{/}`` …) stands or appended; ``:::: FILE`` and
    the input give arguments unknown here."""
    k = next((j for j, w in enumerate(words) if w in (":::", "::::", ":::+", "::::+")), len(words))
    template = " ".join(words[:k])  # (none: each argument is a command line to run)
    items = [w for w in words[k + 1:] if w not in (":::", "::::", ":::+", "::::+")][:MAX_COMBOS] if (
        k < len(words) and words[k].startswith(":::") and words[k] in (":::", ":::+")) else [MARK]
    if type(stdin) is TextInput and k == len(words):
        items = [x for x in stdin.text.split("\n") if x.strip()][:MAX_COMBOS] or [MARK]
    c = ctx.child()
    for it in items or [MARK]:
        arg = shlex.quote(it) if it != MARK else '"$PARALLEL_ARGUMENT"'  # (a variable with no known value)
        if not template:
            text = it if it != MARK else '"$PARALLEL_ARGUMENT"'
        elif "{" in template:
            text = re.sub(r"\{[./#%^]*\}", lambda _m, a=arg: a, template)
        else:
            text = f"{template} {arg}"
        r.run_text(text, c, acc)
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
HANDLERS = handlers(
    (("awk", "gawk", "mawk", "nawk"), h_awk),
    (("sed", "gsed"), h_sed),
    (("xargs", "parallel"), h_xargs),
)
