"""Reading inline Python (``python -c``, code actions) for the calls that act on the system:
``os.system``/``os.popen``/``subprocess.*`` (the shell commands they run), ``os.remove``/``os.unlink``/
``shutil.rmtree`` (deletes), with literal arguments. A linear scan, no ``ast`` (it must never raise or
take long on hostile text).
"""

from __future__ import annotations

import re

_CALL = re.compile(
    r"(?<![A-Za-z0-9_])(system|popen|run|call|check_call|check_output|Popen|getoutput|getstatusoutput|"
    r"spawnl|spawnlp|execl|execlp|execvp|execv|rmtree|remove|unlink|rmdir|removedirs)\s*\(")
_STR_START = re.compile(r"\s*([rRbBuUfF]{0,2})('''|\"\"\"|'|\")")

SHELL_CALLS = frozenset(("system", "popen", "getoutput", "getstatusoutput"))
ARGV_CALLS = frozenset(("run", "call", "check_call", "check_output", "Popen", "spawnl", "spawnlp", "execl",
                        "execlp", "execvp", "execv"))
DELETE_CALLS = frozenset(("remove", "unlink", "rmdir", "removedirs"))

#: cap on how many calls are read in one text
MAX_CALLS = 64


def _read_string(code: str, i: int) -> tuple[str | None, int]:
    m = _STR_START.match(code, i)
    if not m:
        return None, i
    q = m.group(2)
    j = m.end()
    raw = "r" in m.group(1).lower()
    buf = []
    n = len(code)
    while j < n:
        if code.startswith(q, j):
            return "".join(buf), j + len(q)
        c = code[j]
        if c == "\\" and j + 1 < n and not raw:
            d = code[j + 1]
            buf.append({"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"'}.get(d, "\\" + d))
            j += 2
            continue
        buf.append(c)
        j += 1
    return None, n


def scan_python(code: str) -> list[tuple[str, object]]:
    """Return the effects found: ``("shell", text)``, ``("argv", [words])``, ``("rmtree", path)``,
    ``("delete", path)``, ``("rmtree", None)`` (non-literal argument)."""
    out: list[tuple[str, object]] = []
    for k, m in enumerate(_CALL.finditer(code)):
        if k >= MAX_CALLS:
            break
        name = m.group(1)
        i = m.end()
        if name in SHELL_CALLS:
            s, _ = _read_string(code, i)
            if s is not None:
                out.append(("shell", s))
        elif name in ARGV_CALLS:
            j = i
            while j < len(code) and code[j] in " \t\n":
                j += 1
            if j < len(code) and code[j] in "[(":
                words = []
                j += 1
                while True:
                    s, j2 = _read_string(code, j)
                    if s is None:
                        break
                    words.append(s)
                    j = j2
                    while j < len(code) and code[j] in " \t\n,":
                        j += 1
                if words:
                    out.append(("argv", words))
            else:
                s, _ = _read_string(code, i)
                if s is not None:
                    out.append(("shell", s))
        elif name == "rmtree":
            s, _ = _read_string(code, i)
            out.append(("rmtree", s))
        elif name in DELETE_CALLS:
            s, _ = _read_string(code, i)
            if s is not None:
                out.append(("delete", s))
    return out
