"""Shells and interpreters: ``sh -c``, scripts run (written or downloaded before), ``eval``, ``source``,
``python``/``node``/``perl``/… inline code (read by :func:`core.policy.code.scan_code` through
:func:`_scan_code`), PowerShell's ``Invoke-Expression``.

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_interpreters.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.code import apply_code_effects, code_runs_data, scan_code
from core.policy.shell.common import show
from core.policy.shell.effects.decide import served_dir
from core.policy.shell.families import handlers
from core.policy.shell.state import (
    DECODED,
    DOWNLOAD,
    MARK,
    MAX_DEPTH,
    OTHER,
    Ctx,
    FileInput,
    ProcOutput,
    TextInput,
    is_downloaded,
)
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


def _positional_params(c: Ctx, extra: list) -> None:
    for k, v in enumerate(extra[:10]):
        c.env[str(k)] = v
    if len(extra) > 1:
        c.env["@"] = c.env["*"] = " ".join(extra[1:64])


def h_shell(r, prog, args, metas, ctx, acc, stdin):
    """Shells: ``sh -c SCRIPT`` MEDIUM with the script read (from a download or another command's output: HIGH), a
    script file run (downloaded: HIGH; written before: read), the input as the script (``sh -s``, ``| sh``)."""
    i, n = 0, len(args)
    script = None
    script_meta = None
    cmd_flag = False
    stdin_flag = False  # -s (or a lone -): the script is read from stdin, the operands are its arguments
    while i < n:
        a = args[i]
        if a == "--" or a == "-":
            stdin_flag = stdin_flag or a == "-"
            i += 1
            break
        if a in ("-o", "+o", "--rcfile", "--init-file", "-O", "+O"):
            i += 2
            continue
        if a.lower() in ("-command", "-c", "-encodedcommand", "-file", "-f") and prog in ("pwsh", "powershell"):
            if a.lower() == "-encodedcommand":
                acc.add(H, "shell.pwsh.encoded", "PowerShell runs an encoded (hidden) command")
            cmd_flag = a.lower() in ("-command", "-c")
            i += 1
            break
        if (a.startswith("-") or a.startswith("+")) and len(a) > 1 and not a.startswith("--"):
            if "c" in a[1:]:
                cmd_flag = True
            if a[0] == "-" and "s" in a[1:] and prog not in ("pwsh", "powershell"):
                stdin_flag = True
            i += 1
            continue
        if a.startswith("--"):
            if a == "--command":
                cmd_flag = True
            i += 1
            continue
        break
    rest = args[i:]
    rmetas = metas[i:]
    if cmd_flag:
        acc.add(M, "shell.inline", f"{prog} -c (runs an inline script)")
        if rest:
            script = rest[0]
            script_meta = rmetas[0] if rmetas else None
            sub_out = script_meta[0] if script_meta else None
            if sub_out == DOWNLOAD:
                acc.add(H, "shell.download_exec", f"{prog} -c runs downloaded code")
            elif sub_out == DECODED:
                # (decoded data run is HIGH whatever it decodes to, as `… | base64 -d | sh` is)
                acc.add(H, "shell.pipe_exec.decoded", f"{prog} -c runs decoded data")
                return OTHER
            elif sub_out is not None and MARK in script:
                acc.add(H, "shell.generated_exec", f"{prog} -c runs text produced by another command")
            c = ctx.child()
            _positional_params(c, rest[1:])
            r.run_text(script, c, acc)
        return OTHER
    if stdin_flag:
        return _stdin_script(r, prog, stdin, ctx, acc)
    if rest:
        f = rest[0]
        meta = rmetas[0] if rmetas else None
        sub_out = meta[0] if meta else None
        if type(sub_out) is ProcOutput:
            return _procsub_script(r, prog, sub_out.out, ctx, acc)
        if sub_out == DOWNLOAD:
            acc.add(H, "shell.download_exec", f"{prog} runs downloaded code ({prog} <(curl …))")
        elif sub_out is not None:
            acc.add(H, "shell.generated_exec", f"{prog} runs a script produced by another command")
        elif is_downloaded(ctx, P.normalize(f, ctx.cwd)):
            acc.add(H, "shell.download_exec", f"runs the downloaded script {show(f)}")
        elif P.normalize(f, ctx.cwd) in ctx.written:
            acc.add(L, "shell.script", f"{prog} runs the script {show(f)} written just before")
            r.run_text(ctx.written[P.normalize(f, ctx.cwd)], ctx, acc)
        elif f in T.STDIN_PATHS:
            return _stdin_script(r, prog, stdin, ctx, acc)
        else:
            acc.add(L, "shell.script", f"{prog} runs the script {show(f)}")
        return OTHER
    return _stdin_script(r, prog, stdin, ctx, acc)


def _procsub_script(r, prog, out, ctx, acc):
    """``bash <(cmd)``, ``source <(cmd)``: the script is cmd's output."""
    if out == DOWNLOAD:
        acc.add(H, "shell.download_exec", f"{prog} runs downloaded code ({prog} <(curl …))")
    else:
        acc.add(H, "shell.generated_exec", f"{prog} runs a script produced by another command")
        if type(out) is TextInput:
            r.run_text(out.text, ctx, acc)
    return OTHER


def _stdin_script(r, prog, stdin, ctx, acc):
    if stdin is None:
        acc.add(M, "shell.interactive", f"interactive {prog}: it runs whatever it is fed later")
        return OTHER
    if type(stdin) is TextInput:
        if stdin.heredoc:
            acc.add(M, "shell.heredoc", f"heredoc script run by {prog}")
        else:
            acc.add(H, "shell.pipe_exec", f"text piped into {prog}")
        r.run_text(stdin.text, ctx, acc)
    elif stdin is DOWNLOAD:
        acc.add(H, "shell.download_exec", f"downloaded code piped into {prog}")
    elif stdin is DECODED:
        acc.add(H, "shell.pipe_exec.decoded", f"decoded data piped into {prog}")
    elif type(stdin) is FileInput:
        f = stdin.path
        if is_downloaded(ctx, P.normalize(f, ctx.cwd)):
            acc.add(H, "shell.download_exec", f"runs the downloaded script {show(f)}")
        else:
            acc.add(L, "shell.script", f"{prog} runs the script {show(f)}")
    else:
        acc.add(H, "shell.pipe_exec", f"text piped into {prog}")
    return OTHER


def h_eval(r, prog, args, metas, ctx, acc, stdin):
    """``eval WORDS``: HIGH (runs text built at run time) with the text read; environment set-up tools' output LOW."""
    if not args:
        return None
    progs = {m[2] for m in metas if m and m[2]}
    text = " ".join(args)
    if progs and progs <= T.ENV_SETUP_TOOLS and text.strip() == MARK:
        acc.add(L, "shell.eval.env_setup", f"eval of {'/'.join(sorted(progs))} output (environment set-up)")
        return OTHER
    if any(m and m[0] == DOWNLOAD for m in metas):
        acc.add(H, "shell.download_exec", "eval runs downloaded code")
    acc.add(H, "shell.eval", "eval runs text built at run time")
    if any(m and m[0] is DECODED for m in metas):
        return OTHER  # (decoded data run: HIGH whatever it decodes to, as `… | base64 -d | sh` is)
    if text.strip(MARK + " "):
        r.run_text(text, ctx, acc)
    return OTHER


def h_source(r, prog, args, metas, ctx, acc, stdin):
    """``source FILE``/``. FILE``: runs a script in this shell (LOW); from a download or ``<(cmd)`` HIGH."""
    if not args:
        acc.add(L, "shell.source", prog)
        return OTHER
    meta = metas[0] if metas else None
    if meta and type(meta[0]) is ProcOutput:
        return _procsub_script(r, prog, meta[0].out, ctx, acc)
    if args[0] in T.STDIN_PATHS and stdin is not None:
        return _stdin_script(r, prog, stdin, ctx, acc)  # curl … | source /dev/stdin
    if meta and meta[0] == DOWNLOAD:
        acc.add(H, "shell.download_exec", f"{prog} runs downloaded code")
    elif meta and meta[0] is not None:
        acc.add(H, "shell.generated_exec", f"{prog} runs text produced by another command")
    elif is_downloaded(ctx, P.normalize(args[0], ctx.cwd)):
        acc.add(H, "shell.download_exec", f"runs the downloaded script {show(args[0])}")
    else:
        acc.add(L, "shell.source", f"{prog} {show(args[0])} (runs a script in this shell)")
    return OTHER


def _scan_code(r, code: str, ctx, acc, lang: str | None = None):
    """Inline code's effects (:func:`core.policy.code.scan_code`) at their tiers (:mod:`core.policy.code.tiers`)."""
    apply_code_effects(r, scan_code(code, lang), ctx, acc, lang, max_depth=MAX_DEPTH)


def h_interp(r, prog, args, metas, ctx, acc, stdin):
    """Interpreters (python, node, perl, ruby …): inline code MEDIUM with its calls read (code that runs what
    it downloads, decodes or reads from the input: HIGH), ``-m MODULE`` as that program when the tables know it,
    scripts run (downloaded or generated: HIGH), the input as the script."""
    base = prog
    if prog.startswith("python") and prog not in T.INTERPRETERS:
        base = "python3"
    code_flags, with_arg = T.INTERPRETERS.get(base, ("", frozenset()))
    lang = T.INTERPRETER_LANGS.get(base)
    i, n = 0, len(args)
    if base in ("deno", "bun") and args and args[0] == "eval":
        acc.add(M, "shell.inline_code", f"{prog} eval runs inline code")
        _scan_code(r, " ".join(args[1:]), ctx, acc, lang)
        return OTHER
    if args and args[0][:1] != "-" and args[0] != "run" and (
            prog in T.INSTALLERS or prog in T.PUBLISHERS or prog in T.PACKAGE_RUNNERS):
        return r.call("h_pkg", prog, args, metas, ctx, acc, stdin)  # bun install, deno publish …
    if base == "php" and "-S" in args:
        served_dir(r, f"{prog} -S", args, ctx, acc)  # php's built-in web server (-t DIR: what it serves)
        return OTHER
    if args and args[0] == "run" and base in ("deno", "bun"):
        k = 1
        while k < len(args) and args[k].startswith("-"):
            k += 1
        if k < len(args) and args[k].startswith(T.REMOTE_CODE_PREFIXES):
            acc.add(H, "shell.download_exec", f"{prog} run runs code downloaded from {show(args[k])}")
            return OTHER
        args, metas = args[1:], metas[1:]
    code = None
    code_at = -1  # the argument the inline code came from (its meta tells where the text came from)
    inplace = False
    module = None
    while i < n:
        a = args[i]
        if a == "--":
            i += 1
            break
        if a == "-":
            break
        if a in T.LONG_CODE_FLAGS:
            code = args[i + 1] if i + 1 < n else ""
            code_at = i + 1
            i += 2
            break
        if a.startswith("--"):
            i += 1
            continue
        if a.startswith("-") and len(a) > 1:
            chars = a[1:]
            took = False
            for j, ch in enumerate(chars):
                if ch == "i" and base == "perl":
                    inplace = True
                    break  # the rest is a backup suffix
                if ch in code_flags:
                    tail = chars[j + 1:]
                    if tail:
                        code = tail
                        code_at = i
                    else:
                        code = args[i + 1] if i + 1 < n else ""
                        code_at = i + 1
                        took = True
                    break
                if ch == "m" and base in T.PYTHONS:
                    tail = chars[j + 1:]
                    module = tail or (args[i + 1] if i + 1 < n else "")
                    took = not tail
                    break
                if ch in with_arg:
                    took = j == len(chars) - 1
                    break
            i += 2 if took else 1
            if code is not None or module is not None:
                break
            continue
        break
    rest = args[i:]
    if module is not None:
        if module in ("pip", "pip3", "ensurepip"):
            return r.run_argv(["pip"] + rest, [None] * (len(rest) + 1), ctx, acc, stdin)
        if r.has_handler(module) and module not in T.INTERPRETERS:
            # a module that is also a program the tables know runs as that program (python -m twine upload)
            acc.add(L, "shell.python.module", f"{prog} -m {module}")
            return r.run_argv([module] + rest, [None] * (len(rest) + 1), ctx, acc, stdin)
        acc.add(L, "shell.python.module", f"{prog} -m {module}")
        if module in T.LISTENING_MODULES:
            served_dir(r, f"{prog} -m {module}", rest, ctx, acc)
        return OTHER
    if code is not None:
        if inplace:
            acc.add(L, "shell.perl.inplace", f"{prog} -i edits files in place")
            for f in rest:
                r.write_path(f, ctx, acc, "edit in place")
        else:
            acc.add(M, "shell.inline_code", f"{prog} runs inline code")
            meta = metas[code_at] if 0 <= code_at < len(metas) else None
            sub_out = meta[0] if meta else None
            if sub_out == DOWNLOAD:
                acc.add(H, "shell.download_exec", f"{prog} runs downloaded code as inline code")
            elif sub_out == DECODED:
                acc.add(H, "shell.pipe_exec.decoded", f"{prog} runs decoded data as inline code")
                return OTHER  # (HIGH whatever it decodes to)
            runs = code_runs_data(code)
            if runs == "fetch":
                acc.add(H, "shell.download_exec", f"{prog} runs code it downloads (inline code)")
            elif runs == "decoded":
                acc.add(H, "shell.pipe_exec.decoded", f"{prog} runs decoded data (inline code)")
            elif runs == "stdin" and stdin is not None:
                if stdin is DOWNLOAD:
                    acc.add(H, "shell.download_exec", f"{prog} runs the downloaded code piped into it")
                elif stdin is DECODED:
                    acc.add(H, "shell.pipe_exec.decoded", f"{prog} runs the decoded data piped into it")
                else:
                    acc.add(H, "shell.pipe_exec", f"{prog} runs the text piped into it")
        _scan_code(r, code, ctx, acc, lang)
        return OTHER
    if rest and rest[0] not in ("-", "/dev/stdin", "/proc/self/fd/0", "/dev/fd/0"):
        meta = metas[i] if i < len(metas) else None
        sub_out = meta[0] if meta else None
        if type(sub_out) is ProcOutput:
            # python3 <(curl …): the script is the command's output
            out = sub_out.out
            if out == DOWNLOAD:
                acc.add(H, "shell.download_exec", f"{prog} runs downloaded code ({prog} <(curl …))")
            else:
                acc.add(H, "shell.generated_exec", f"{prog} runs a script produced by another command")
                if type(out) is TextInput:
                    _scan_code(r, out.text, ctx, acc, lang)
        elif sub_out == DOWNLOAD:
            acc.add(H, "shell.download_exec", f"{prog} runs downloaded code")
        elif is_downloaded(ctx, P.normalize(rest[0], ctx.cwd)):
            acc.add(H, "shell.download_exec", f"runs the downloaded script {show(rest[0])}")
        else:
            cmds = T.SCRIPT_PUBLISHERS.get(rest[0].rsplit("/", 1)[-1], ())
            up = next((a for a in rest[1:] if a in cmds), None)
            if up:
                acc.add(H, "shell.publish", f"{prog} {show(rest[0])} {up} (publishes to a registry)")
            acc.add(L, "shell.script", f"{prog} runs {show(rest[0])}")
        return OTHER
    if stdin is None:
        acc.add(M, "shell.interactive", f"interactive {prog}: it runs whatever it is fed later")
        return OTHER
    if type(stdin) is TextInput:
        if stdin.heredoc:
            acc.add(M, "shell.heredoc", f"heredoc script run by {prog}")
        else:
            acc.add(H, "shell.pipe_exec", f"text piped into {prog}")
        _scan_code(r, stdin.text, ctx, acc, lang)
    elif stdin is DOWNLOAD:
        acc.add(H, "shell.download_exec", f"downloaded code piped into {prog}")
    elif type(stdin) is FileInput:
        if is_downloaded(ctx, P.normalize(stdin.path, ctx.cwd)):
            acc.add(H, "shell.download_exec", f"runs the downloaded script {show(stdin.path)}")
        else:
            acc.add(L, "shell.script", f"{prog} runs {show(stdin.path)}")
    else:
        acc.add(H, "shell.pipe_exec", f"text piped into {prog}")
    return OTHER


def h_invoke_expression(r, prog, args, metas, ctx, acc, stdin):
    """PowerShell ``iex``/``Invoke-Expression``: eval (HIGH), of a download when ``iwr``/``DownloadString`` is named."""
    text = " ".join(args)
    if any(w in text.lower() for w in T.PWSH_DOWNLOAD_WORDS) or stdin == DOWNLOAD:
        acc.add(H, "shell.download_exec", f"{prog} runs downloaded code")
    acc.add(H, "shell.eval", f"{prog} (PowerShell eval) runs text built at run time")
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
HANDLERS = handlers(
    (T.SHELLS, h_shell),
    (("eval",), h_eval),
    (("source", "."), h_source),
    ((*T.INTERPRETERS, "python3.8", "python3.9", "python3.10", "python3.11", "python3.12", "python3.13"), h_interp),
    (("iex", "Invoke-Expression", "invoke-expression"), h_invoke_expression),
)
