"""Reading inline code (``python -c``, ``node -e``, ``ruby -e``, ``perl -e``, ``php -r``, ``lua -e``, code
actions) for the calls that act on the system, with literal arguments: the shell commands they run
(``os.system``, ``subprocess.*``, ``child_process.execSync``/``spawnSync``, Ruby/Perl ``system``, backticks,
``qx()``/``%x()``), recursive deletes (``shutil.rmtree``, ``fs.rmSync(…, {recursive: true})``,
``FileUtils.rm_rf``, ``rmtree``), deletes (``os.remove``, ``fs.unlinkSync``, ``unlink``) and file writes
(``fs.writeFileSync``, ``File.write``, ``open(path, "w")``). The calls are data (:data:`CODE_CALLS`).

A linear scan, no ``ast`` (it must never raise or take long on hostile text).
"""

from __future__ import annotations

import re

#: call name -> how its literal arguments are read:
#:   cmd        one string: a shell command; several strings or a list: program and arguments
#:   prog_list  program string, then a list of arguments (``spawnSync('rm', ['-rf', '/'])``)
#:   path_argv  program path, then its argv as a list or strings (``os.execvp('rm', ['rm', '-rf', '/'])``)
#:   rmtree     recursive delete of the first string
#:   rm_opts    delete of the first string, recursive when an options object says ``recursive: true``
#:   delete     delete of the first string
#:   write      write to the first string
#:   open       write to the first string when the second is a writing mode (``open('/etc/x', 'w')``)
CODE_CALLS: dict[str, str] = {
    # python
    "system": "cmd", "popen": "cmd", "getoutput": "cmd", "getstatusoutput": "cmd", "run": "cmd", "call": "cmd",
    "check_call": "cmd", "check_output": "cmd", "Popen": "cmd", "exec": "cmd",
    "execl": "path_argv", "execlp": "path_argv", "execle": "path_argv", "execv": "path_argv",
    "execvp": "path_argv", "execve": "path_argv", "execvpe": "path_argv", "spawnl": "path_argv",
    "spawnlp": "path_argv", "spawnv": "path_argv", "spawnvp": "path_argv", "posix_spawn": "path_argv",
    "posix_spawnp": "path_argv",
    "rmtree": "rmtree", "remove": "rm_opts", "unlink": "delete", "rmdir": "rm_opts", "removedirs": "delete",
    "open": "open",
    # node / deno / bun
    "execSync": "cmd", "spawn": "prog_list", "spawnSync": "prog_list", "execFile": "prog_list",
    "execFileSync": "prog_list", "rmSync": "rm_opts", "rmdirSync": "rm_opts", "rm": "rm_opts",
    "unlinkSync": "delete", "removeSync": "rm_opts", "writeFileSync": "write", "appendFileSync": "write",
    "writeFile": "write", "appendFile": "write", "writeTextFile": "write", "writeTextFileSync": "write",
    # ruby (Kernel, FileUtils, File, Open3, IO)
    "rm_rf": "rmtree", "rm_r": "rmtree", "remove_dir": "rmtree", "remove_entry": "rmtree",
    "remove_entry_secure": "rmtree", "rm_f": "delete", "delete": "delete", "write": "write",
    "capture2": "cmd", "capture2e": "cmd", "capture3": "cmd", "popen2": "cmd", "popen3": "cmd",
    # perl (File::Path)
    "remove_tree": "rmtree",
    # php
    "shell_exec": "cmd", "passthru": "cmd", "proc_open": "cmd", "pcntl_exec": "path_argv",
    "file_put_contents": "write",
    # lua
    "execute": "cmd",
}
#: names that count only as methods of Ruby's ``File`` (``File.write``, ``File.delete``)
_FILE_ONLY = frozenset(("write", "delete"))
#: languages whose backticks (and ``%x()`` / ``qx()``) run shell commands
BACKTICK_LANGS = frozenset(("ruby", "perl", "php", None))

_NAMES = "|".join(sorted((re.escape(k) for k in CODE_CALLS), key=len, reverse=True))
_CALL = re.compile(r"(?<![A-Za-z0-9_$@])(" + _NAMES + r")(?![A-Za-z0-9_])")
_PY_STR = re.compile(r"([rRbBuUfF]{0,2})('''|\"\"\"|'|\"|`)")
_PERL_Q = re.compile(r"(qq|qw|qx|q|%[qQwWx]?)([(\[{<!|/])")
_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}
_SHELL_SUB = re.compile(r"`|\bqx\s*[(\[{<!|/]|%x[(\[{<!|/]")
_RECURSIVE = re.compile(r"recursive\s*[:=]\s*(?:=>\s*)?(?:true|True|1)|:recursive|recursive:\s*true")
_WRITE_MODE = re.compile(r"[wax+]")

#: cap on how many calls are read in one text
MAX_CALLS = 64
#: cap on the literal arguments read for one call
MAX_ARGS = 32


def _read_string(code: str, i: int) -> tuple[str | None, int]:
    """A string literal starting at ``i`` (after blanks): Python/JS quotes, Perl ``q()``/``qq()``, Ruby
    ``%q()``/``%()``. Returns (text, end) or (None, i)."""
    n = len(code)
    while i < n and code[i] in " \t\n":
        i += 1
    m = _PY_STR.match(code, i)
    if m:
        q = m.group(2)
        j = m.end()
        raw = "r" in m.group(1).lower()
        buf = []
        while j < n:
            if code.startswith(q, j):
                return "".join(buf), j + len(q)
            c = code[j]
            if c == "\\" and j + 1 < n and not raw:
                d = code[j + 1]
                buf.append({"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "`": "`"}.get(d, "\\" + d))
                j += 2
                continue
            buf.append(c)
            j += 1
        return None, n
    m = _PERL_Q.match(code, i)
    if m and m.group(1) not in ("qw", "%w", "%W", "qx", "%x"):
        open_ = m.group(2)
        close = _CLOSE.get(open_, open_)
        j = code.find(close, m.end())
        if j < 0:
            return None, n
        return code[m.end():j], j + 1
    return None, i


def _read_list(code: str, i: int) -> tuple[list | None, int]:
    """``[ 'a', 'b' ]``, ``( 'a', 'b' )``, Perl ``qw(a b)`` or Ruby ``%w(a b)``."""
    n = len(code)
    while i < n and code[i] in " \t\n":
        i += 1
    m = _PERL_Q.match(code, i)
    if m and m.group(1) in ("qw", "%w", "%W"):
        close = _CLOSE.get(m.group(2), m.group(2))
        j = code.find(close, m.end())
        if j < 0:
            return None, n
        return code[m.end():j].split(), j + 1
    if i < n and code[i] in "[(":
        close = "]" if code[i] == "[" else ")"
        words: list = []
        j = i + 1
        while len(words) < MAX_ARGS:
            s, j2 = _read_string(code, j)
            if s is None:
                break
            words.append(s)
            j = j2
            while j < n and code[j] in " \t\n,":
                j += 1
        while j < n and code[j] in " \t\n":
            j += 1
        if j < n and code[j] == close:
            j += 1
        return words, j
    return None, i


def _read_args(code: str, i: int) -> tuple[list, str]:
    """The literal arguments of a call whose name ends at ``i``: strings and lists (a list is one item),
    up to the first argument that is not a literal; also the text of the argument list (for options)."""
    n = len(code)
    j = i
    while j < n and code[j] in " \t":
        j += 1
    paren = j < n and code[j] == "("
    if paren:
        j += 1
    if code.startswith("glob", j) and not code[j + 4:j + 5].isalnum():
        j += 4  # Perl: unlink glob "/etc/*"
    out: list = []
    start = j
    # a leading non-literal argument (os.P_WAIT, a mode constant) is skipped once
    skipped = False
    while len(out) < MAX_ARGS:
        s, j2 = _read_string(code, j)
        if s is not None:
            out.append(s)
        else:
            lst, j2 = _read_list(code, j)
            if lst is not None:
                out.append(lst)
            elif not out and not skipped and paren:
                k = j
                while k < n and (code[k].isalnum() or code[k] in "._"):
                    k += 1
                if k == j or k >= n or code[k] != ",":
                    break
                skipped = True
                j2 = k
            else:
                break
        j = j2
        while j < n and code[j] in " \t\n":
            j += 1
        if j < n and code[j] == ",":
            j += 1
            continue
        break
    end = code.find(")", j) if paren else code.find("\n", j)
    tail = code[start: (end if 0 <= end < j + 400 else j + 400)]
    return out, tail


def _strs(items: list) -> list:
    """Flatten strings and lists of strings."""
    out: list = []
    for it in items:
        if isinstance(it, list):
            out.extend(it)
        else:
            out.append(it)
    return out


def scan_code(code: str, lang: str | None = None) -> list[tuple[str, object]]:
    """Return the effects found: ``("shell", text)``, ``("argv", [words])``, ``("rmtree", path)``,
    ``("delete", path)``, ``("write", path)``, ``("rmtree", None)`` (non-literal argument).

    ``lang`` (python, node, ruby, perl, php, lua; None: unknown) only decides whether backticks run
    shell commands."""
    out: list[tuple[str, object]] = []
    for k, m in enumerate(_CALL.finditer(code)):
        if k >= MAX_CALLS:
            break
        name = m.group(1)
        kind = CODE_CALLS[name]
        if name in _FILE_ONLY and not code.endswith("File.", 0, m.start()):
            continue  # `write`/`delete` of other objects (f.write(text), map.delete(key))
        args, tail = _read_args(code, m.end())
        if not args:
            if (kind == "rmtree" or (kind == "rm_opts" and _RECURSIVE.search(tail))) and \
                    code[m.end():m.end() + 2].lstrip()[:1] == "(":
                out.append(("rmtree", None))
            continue
        if not args:
            continue
        first = args[0]
        if kind == "cmd":
            if isinstance(first, list):
                if first:
                    out.append(("argv", list(first)))
            elif len(args) == 1 or not all(isinstance(a, str) for a in args[1:]):
                out.append(("shell", first))
            else:
                out.append(("argv", _strs(args)))
        elif kind == "prog_list":
            if isinstance(first, str):
                rest = args[1] if len(args) > 1 and isinstance(args[1], list) else []
                out.append(("argv", [first] + list(rest)))
        elif kind == "path_argv":
            argv = _strs(args[1:])
            if argv:
                argv[0] = first if isinstance(first, str) else argv[0]
                out.append(("argv", argv))
            elif isinstance(first, str):
                out.append(("argv", [first]))
        elif isinstance(first, str):
            if kind == "rmtree":
                out.append(("rmtree", first))
            elif kind == "rm_opts":
                out.append(("rmtree" if _RECURSIVE.search(tail) else "delete", first))
            elif kind == "delete":
                out.append(("delete", first))
            elif kind == "write":
                out.append(("write", first))
            elif kind == "open":
                if len(args) > 1 and isinstance(args[1], str) and _WRITE_MODE.search(args[1]) and len(args[1]) <= 4:
                    out.append(("write", first))
    if lang in BACKTICK_LANGS and len(out) < MAX_CALLS:
        out.extend(_backticks(code))
    return out


def _backticks(code: str) -> list:
    out: list = []
    for k, m in enumerate(_SHELL_SUB.finditer(code)):
        if k >= MAX_CALLS:
            break
        tok = m.group()
        if tok == "`":
            continue  # pairs are read below
        open_ = tok[-1]
        close = _CLOSE.get(open_, open_)
        j = code.find(close, m.end())
        if j > 0:
            out.append(("shell", code[m.end():j]))
    # backtick pairs
    i = 0
    for _ in range(MAX_CALLS):
        a = code.find("`", i)
        if a < 0:
            break
        b = code.find("`", a + 1)
        if b < 0:
            break
        out.append(("shell", code[a + 1:b]))
        i = b + 1
    return out


#: calls that run code given as data (``exec``, ``eval``, ``new Function``, ``instance_eval``, Lua ``loadstring``)
_EVAL = re.compile(r"(?<![A-Za-z0-9_$.])(?:exec|eval|Function|instance_eval|class_eval|module_eval|loadstring|"
                   r"load|compile|runInThisContext|runInNewContext)\s*\(|\beval\s+[$\w]|[(,]\s*eval\s*[),]")
#: calls that run shell commands, and those that run code, taking decoded data (``os.system(b64decode(…))``)
_RUNS = re.compile(r"(?:exec|eval|system|popen|Popen|run|call|check_output|execSync|spawnSync|Function|"
                   r"instance_eval|loadstring|load)\s*\(")
_DECODE = re.compile(r"b64decode|base64|atob\s*\(|['\"]base64['\"]|unpack\s*\(\s*['\"]m|decode64|a2b_base64|"
                     r"bytes\.fromhex|unhexlify|codecs\.decode")
#: reading from the network in code (``urllib.request.urlopen``, ``requests.get``, ``fetch(``, ``Net::HTTP``)
_FETCH = re.compile(r"urlopen|urllib|requests\.(?:get|post|request)|httpx\.|http\.client|(?<![A-Za-z0-9_])fetch\s*\(|"
                    r"https?\.get\s*\(|https?\.request\s*\(|Net::HTTP|open-uri|URI\.open|LWP|HTTP::Tiny|"
                    r"file_get_contents\s*\(\s*['\"]https?:|curl_exec|socket\.http|wget|invoke-webrequest|"
                    r"downloadstring", re.I)
#: reading standard input in code (``sys.stdin.read()``, ``process.stdin``, ``STDIN.read``, ``<STDIN>``)
_STDIN = re.compile(r"sys\.stdin|stdin\.read|process\.stdin|\bSTDIN\b|\$stdin|<STDIN>|<>|php://stdin|"
                    r"io\.read|readFileSync\s*\(\s*(?:0|['\"]/dev/stdin)")


def code_runs_data(code: str) -> str | None:
    """How inline code runs code that is not in it: ``"fetch"`` (it evaluates what it downloads:
    ``exec(urlopen(…).read())``), ``"stdin"`` (it evaluates its standard input: ``exec(sys.stdin.read())``),
    ``"decoded"`` (it runs decoded data: ``os.system(b64decode(…))``), or None. A linear scan; the code's own
    literal calls are read by :func:`scan_code`."""
    code = code[:MAX_CODE_SCAN]
    evals = _EVAL.search(code) is not None
    if evals and _FETCH.search(code):
        return "fetch"
    if _RUNS.search(code) and _DECODE.search(code):
        return "decoded"
    if evals and _STDIN.search(code):
        return "stdin"
    return None


MAX_CODE_SCAN = 65536


def scan_python(code: str) -> list[tuple[str, object]]:
    """Inline Python (kept for callers of the first version)."""
    return scan_code(code, "python")
