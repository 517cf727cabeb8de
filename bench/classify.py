"""Benchmark and accuracy report for the risk classifier (core.policy).

Usage: python bench/classify.py [--data PATH] [--json] [--seconds N]

Prints exact-tier accuracy on the labelled commands, the confusion matrix, the misses, crisis rows
(scored separately: they depend on the crisis detector), classifications per second on one core
over the data (crisis check included), the crisis check's own rate, and the COLD time of every 32 KiB
hostile shape against the 10 ms budget: each repetition classifies a freshly generated variant (a new random
seed for random shapes) after every cache of the classifier was cleared (``core.policy.clear_caches``), so
no memo table hides the cost of a never-seen text. Per shape the best and the worst of the cold repetitions
are printed (the best is robust to other work on the machine); any shape whose best cold time is over the
budget is printed as a FAIL line, and worst cold times over it are listed as a warning.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.policy import Policy, clear_caches  # noqa: E402, I001
from core.tiers import Tier  # noqa: E402

#: The labelled data of shared/eval, beside the repository (CI lays shared/ next to its clone).
EVAL_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "eval"
DEFAULT_DATA = Path(os.environ.get("SIGNOFF_EVAL") or EVAL_DIR / "commands_public.jsonl")
TIERS = ["SAFE", "LOW", "MEDIUM", "HIGH", "CRITICAL"]
CRISIS_DATA = EVAL_DIR / "crisis_public.jsonl"
BUDGET_MS = 10.0  # no request of up to 32 KiB may take longer (crisis check included)


def _crisis_rate() -> float:
    """Messages per second of the crisis check on ~200-character messages built from the crisis rows (the
    measure of bench/crisis.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from crisis import _messages, _rate, load  # the crisis benchmark's own message mix and timing

    if not CRISIS_DATA.exists():
        return 0.0
    return _rate(_messages(load(CRISIS_DATA)))


SIZE = 32 * 1024


def _fill(unit: str, size: int = SIZE, tail: str = "") -> str:
    """``unit`` repeated to ``size`` characters (minus the tail), then the tail."""
    room = max(0, size - len(tail))
    return (unit * (room // max(1, len(unit)) + 1))[:room] + tail


def shell_shapes(size: int = SIZE, seed: int = 7) -> dict[str, str]:
    """Command texts of about ``size`` characters (random shapes drawn with ``seed``)."""
    rnd = random.Random(seed)
    heredoc = "cat <<EOF\n" + ("line of text $(x) `y`\n" * (size // 22)) + "EOF\n"
    distinct = []
    k = 0
    while sum(len(x) for x in distinct) < size:
        distinct.append(f"prog{k} --opt{k} file{k}.txt; ")
        k += 1
    assigns = []
    k = 0
    while sum(len(x) for x in assigns) < size:
        assigns.append(f"V{k}=$V{k - 1}x; ")
        k += 1
    shapes = {
        "a|": "a|" * (size // 2),
        "a | ": "a | " * (size // 4),
        "long pipeline": _fill("cat f | grep x | ", size, "sh"),
        "and chain": _fill("ls && ", size, "true"),
        "or chain": _fill("false || ", size, "true"),
        "background": _fill("sleep 1 & ", size),
        "$(((((": "$(" + "(" * (size - 2),
        "$($($(": "$(" * (size // 2),
        "nested subst": "echo " + "$(echo " * (size // 14) + "x" + ")" * (size // 14),
        "nested backticks": "echo " + "`echo \\" * (size // 16) + "`",
        "process subst": _fill("diff <(", size),
        "((((": "(" * size,
        "))))": ")" * size,
        "{{{{": "{ " * (size // 2),
        "subshells": "( " * (size // 4) + "ls" + " )" * (size // 4),
        "groups": "{ " * (size // 4) + "ls; " + "} " * (size // 4),
        "if nest": _fill("if true; then ", size),
        "backticks": "`" * size,
        "backtick pairs": _fill("`ls` ", size),
        "backslashes": "\\" * size,
        "backslash newlines": _fill("\\\n", size),
        "backslash words": _fill("r\\m -\\r\\f ", size),
        "whitespace": " " * size,
        "tabs": "\t" * size,
        "newlines": "\n" * size,
        "crlf": "\r\n" * (size // 2),
        "quotes": "'" * size,
        "dquotes": '"' * size,
        "quote pairs": _fill("'r''m' ", size),
        "dquote words": _fill('"$a" ', size),
        "ansi-c": "$'" + "\\x41" * (size // 4) + "'",
        "unbalanced": _fill("echo \"$(rm -rf / '", size),
        "heredocs": _fill("cat <<EOF\nx\nEOF\n", size),
        "heredoc markers": _fill("cat <<A <<B <<C ", size),
        "long heredoc": heredoc[:size],
        "unterminated heredoc": "bash <<EOF\n" + "echo hi\n" * (size // 8),
        "heredoc to sh": "sh <<EOF\n" + _fill("echo $(date) `id`\n", size - 16) + "\nEOF\n",
        "semicolons": ";" * size,
        "ampersands": "&" * size,
        "pipes": "|" * size,
        "rm chain": _fill("rm -rf /tmp/x && ", size),
        "rm many args": "rm -rf " + _fill("/tmp/a/b ", size - 7),
        "cd chain": _fill("cd a && ", size, "rm -rf x"),
        "for loops": _fill("for a in 1 2 3; do echo $a; done; ", size),
        "for loop words": "for a in " + _fill("x ", size - 30) + "; do rm $a; done",
        "nested for": _fill("for a in 1 2; do ", size),
        "vars": _fill("X=$X$X; ", size),
        "var chain": _fill("X=$X/$X; rm $X; ", size),
        "many assignments": "".join(assigns)[:size],
        "export chain": _fill("export A=$A:$A; ", size),
        "many distinct commands": "".join(distinct)[:size],
        "words": _fill("word ", size),
        "huge word": "a" * size,
        "huge path": "/" * size,
        "huge flag": "-" * size,
        "huge rm word": "rm -rf " + "a" * (size - 7),
        "huge quoted word": "echo '" + "a" * (size - 7) + "'",
        "sudo wrappers": _fill("sudo ", size, "ls"),
        "env wrappers": _fill("env A=1 ", size, "ls"),
        "timeout wrappers": _fill("timeout 1 ", size, "ls"),
        "mixed wrappers": _fill("sudo nice -n 1 nohup env X=1 timeout 5 ", size, "ls"),
        "xargs chain": _fill("xargs ", size, "rm"),
        "sh -c nest": "sh -c '" * 2000 + "rm -rf /" + "'" * 2000,
        "bash -c dquote nest": _fill('bash -c "', size // 2) + "ls",
        "eval chain": _fill("eval ", size, "ls"),
        "ssh nest": _fill("ssh h ", size, "ls"),
        "sql": "psql -c '" + ("SELECT 1; " * (size // 10)) + "'",
        "sql drops": "psql -c '" + _fill("DROP TABLE t; ", size - 12) + "'",
        "awk": "awk '" + ("print > \"f\"; " * (size // 14)) + "'",
        "awk system": "awk '" + _fill('system("ls"); ', size - 8) + "'",
        "python": "python -c '" + _fill('os.system("ls"); ', size - 14) + "'",
        "python rmtree": "python -c '" + _fill('shutil.rmtree("x"); ', size - 14) + "'",
        "find execs": "find . " + _fill("-exec rm {} \\; ", size - 7),
        "docker mounts": "docker run " + _fill("-v /a:/b ", size - 20) + " img ls",
        "curl data": "curl " + _fill("-d x=1 ", size - 20) + " https://x",
        "case": "case x in " + "a) b;; " * (size // 7) + "esac",
        "functions": _fill("f(){ g; }; ", size),
        "fork bombs": _fill(":(){ :|:& };", size),
        "redirects": _fill("> f ", size),
        "fd redirects": _fill("2>&1 ", size),
        "arith": _fill("$((1+", size),
        "braces var": _fill("${", size),
        "brace vars": _fill("${A:-${B:-", size),
        "glob": _fill("*?[a-z]", size),
        "comments": _fill("# rm -rf /\n", size),
        "hash words": _fill("a#b ", size),
        "nul bytes": "\x00" * size,
        "nul words": _fill("rm\x00 -rf\x00 /\x00 ", size),
        "surrogates": "\udcff\ud800" * (size // 2),
        "surrogate words": _fill("rm \udcff ", size),
        "random bytes": "".join(chr(rnd.randrange(1, 256)) for _ in range(size)),
        "random shell chars": "".join(rnd.choice("ab $(){}[]|&;<>'\"`\\\n#=*~/") for _ in range(size)),
        "random words": " ".join(rnd.choice(["rm", "-rf", "/", "$(", ")", "|", "sh", "'", "cd", "&&", "X=$X",
                                             "for", "in", "do", "done", "<<E", "E", "\n"])
                                 for _ in range(size // 3))[:size],
        "unicode": _fill("éñ漢字😂 ", size),
    }
    # a dangerous command at the very end of long harmless text must still be seen
    shapes["harmless then rm -rf /"] = _fill("echo hello; ", size, "\nrm -rf /")
    shapes["heredocs then rm -rf /"] = _fill("cat <<EOF\nx\nEOF\n", size, "\nEOF\nrm -rf /")
    shapes["loops then rm -rf /etc"] = _fill("for a in 1 2 3; do echo $a; done; ", size, "\nrm -rf /etc")
    return shapes


def _words(rnd: random.Random, letters: str, size: int) -> str:
    out: list[str] = []
    n = 0
    while n < size:
        w = "".join(rnd.choice(letters) for _ in range(rnd.randint(2, 8)))
        out.append(w)
        n += len(w) + 1
    return " ".join(out)[:size]


_SCRIPTS = [(0x0400, 0x04FF), (0x0370, 0x03FF), (0x4E00, 0x9FFF), (0x0600, 0x06FF), (0x0900, 0x097F),
            (0x3040, 0x30FF), (0xAC00, 0xD7A3), (0x0590, 0x05FF), (0x0E00, 0x0E7F), (0x1F300, 0x1F6FF),
            (0x00C0, 0x024F)]


def _unicode(rnd: random.Random, size: int) -> str:
    out: list[str] = []
    while len(out) < size:
        a, b = rnd.choice(_SCRIPTS)
        out.extend(chr(rnd.randint(a, b)) for _ in range(rnd.randint(1, 9)))
        out.append(" ")
    return "".join(out)[:size]


def _log(rnd: random.Random, size: int) -> str:
    levels = ["INFO", "DEBUG", "WARN", "ERROR"]
    words = ["request", "served", "connection", "reset", "timeout", "user", "retry", "cache", "miss", "worker",
             "started", "stopped", "killed", "signal", "exit", "code", "deadline", "exceeded", "pid"]
    lines: list[str] = []
    n = 0
    while n < size:
        ts = f"2025-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}T{rnd.randint(0, 23):02d}:" \
             f"{rnd.randint(0, 59):02d}:{rnd.randint(0, 59):02d}.{rnd.randint(0, 999999):06d}Z"
        path = "/" + "/".join("".join(rnd.choice("abcdefghijklmnopqrstuvwxyz_") for _ in range(rnd.randint(3, 10)))
                              for _ in range(rnd.randint(2, 6))) + rnd.choice([".py", ".log", ".go", ".ts", ""])
        msg = " ".join(rnd.choice(words) for _ in range(rnd.randint(2, 8)))
        line = (f"{ts} {rnd.choice(levels)} [{rnd.choice(['api', 'db', 'sched'])}-{rnd.randint(1, 99)}] "
                f"{path}:{rnd.randint(1, 4000)} {msg} id={rnd.getrandbits(64):016x} took={rnd.random() * 900:.3f}ms\n")
        lines.append(line)
        n += len(line)
    return "".join(lines)[:size]


def _base64(rnd: random.Random, size: int) -> str:
    import base64

    raw = base64.b64encode(rnd.randbytes(size)).decode()
    return "\n".join(raw[i:i + 76] for i in range(0, len(raw), 76))[:size]


def _hexdump(rnd: random.Random, size: int) -> str:
    lines: list[str] = []
    n = 0
    off = 0
    while n < size:
        data = rnd.randbytes(16)
        hx = " ".join(f"{b:02x}" for b in data)
        asc = "".join(chr(b) if 32 <= b < 127 else "." for b in data)
        line = f"{off:08x}  {hx}  |{asc}|\n"
        lines.append(line)
        n += len(line)
        off += 16
    return "".join(lines)[:size]


def _minified_js(rnd: random.Random, size: int) -> str:
    def ident() -> str:
        return rnd.choice("abcdefghijklmnopqrstuvwxyz_$") + "".join(
            rnd.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
            for _ in range(rnd.randint(0, 6)))

    parts: list[str] = []
    n = 0
    while n < size:
        a, b, c = ident(), ident(), ident()
        part = rnd.choice([
            f"function {a}({b},{c}){{return {b}.{c}({a}[{rnd.randint(0, 99)}])}}",
            f"var {a}={b}&&{c}?{b}:{c}||{rnd.randint(0, 1 << 20)};",
            f"{a}.prototype.{b}=function(){{this.{c}=!0}};",
            f"if(!{a}){{throw new Error(\"{b} {c}\")}}",
            f"{a}=[{','.join(str(rnd.randint(0, 999)) for _ in range(5))}];",
        ])
        parts.append(part)
        n += len(part)
    return "".join(parts)[:size]


#: shapes whose text is drawn at random: the cold benchmark draws a new one (new seed) for every repetition
RANDOM_SHAPES = {
    "random words": lambda rnd, size: _words(rnd, "abcdefghijklmnopqrstuvwxyz", size),
    "random spanish words": lambda rnd, size: _words(rnd, "abcdefghijklmnopqrstuvwxyzáéíóúñü", size),
    "random unicode scripts": _unicode,
    "random bytes": lambda rnd, size: "".join(chr(rnd.randrange(1, 256)) for _ in range(size)),
    "pasted log": _log,
    "base64 blob": _base64,
    "hex dump": _hexdump,
    "minified js": _minified_js,
}


def crisis_shapes(size: int = SIZE, seed: int = 7) -> dict[str, str]:
    """Free texts of about ``size`` characters for the crisis check (random shapes drawn with ``seed``)."""
    rnd = random.Random(seed)
    out = {f"{name} (fresh)": gen(rnd, size) for name, gen in RANDOM_SHAPES.items()}
    return out | {
        "single letters": _fill("a ", size),
        "spaced crisis letters": _fill("k i l l m y s e l f ", size),
        "repeated phrase": _fill("i want to kill myself ", size),
        "want to want to": _fill("want to ", size),
        "long word": "a" * size,
        "asterisks": _fill("s**c*de ", size),
        "emoji": _fill("🔫💊😂", size // 2),
        "zalgo": _fill("k\u0337i\u0337l\u0337l\u0337 ", size),
        "random words": " ".join(
            "".join(random.Random(i).choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6)) for i in range(size // 7)
        )[:size],
        "punctuation": _fill("!?.;,", size),
        "leet": _fill("k1ll m3 5u1c1d3 ", size),
        "dotted letters": _fill("s.u.i.c.i.d.e ", size),
        "glued words": _fill("iwanttodie", size),
        "my self": _fill("my self ", size),
        "negated": _fill("i am not suicidal ", size),
        "one-word sentences": _fill("end. my. life. ", size),
        "weak signs": _fill("goodbye everyone ", size),
        "unicode letters": _fill("ѕυι¢ι∂є ", size),
        "surrogates": "\udcff\ud800" * (size // 2),
        "nul bytes": "\x00" * size,
        "fuzzy words": _fill("suicdie sucide ", size),
        "harmless then crisis": _fill("the build is green. ", size, " i want to kill myself"),
    }


def request_shapes(size: int = SIZE, seed: int = 7) -> dict[str, tuple[str, str, str | None]]:
    """Whole requests: ``name -> (action, command, description)`` (random shapes drawn with ``seed``)."""
    out: dict[str, tuple[str, str, str | None]] = {}
    for name, text in shell_shapes(size, seed).items():
        out[f"shell: {name}"] = ("terminal", text, None)
    for name, text in crisis_shapes(size, seed).items():
        out[f"crisis: {name}"] = ("send_message", text, None)
    rnd = random.Random(seed + 1)
    out["description: pasted log (fresh)"] = ("terminal", "ls", _log(rnd, size))
    out["description: random words (fresh)"] = ("terminal", "ls", _words(rnd, "abcdefghijklmnopqrstuvwxyz", size))
    out["description 32 KiB"] = ("terminal", "ls", _fill("please review this change carefully. ", size))
    out["action 32 KiB"] = (_fill("runCommandNow_", size), "ls", None)
    out["action words 32 KiB"] = (_fill("delete_prod_", size), "", None)
    out["exec_sql 32 KiB"] = ("exec_sql", _fill("DELETE FROM t WHERE a = 'x'; ", size), None)
    out["run_script python 32 KiB"] = ("execute_code", _fill('import os; os.system("ls")\n', size), None)
    out["write_file path 32 KiB"] = ("write_file", "/" + "a/" * (size // 2 - 1), None)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    ap.add_argument("--seconds", type=float, default=2.0, help="time spent measuring throughput")
    ap.add_argument("--pure-python", action="store_true",
                    help="measure the crisis check without its compiled fast path (as on an install without a C "
                         "compiler)")
    args = ap.parse_args(argv)
    from core.crisis import _normalise, compiled

    if args.pure_python:
        _normalise._fast = None
    path = "compiled fast path" if compiled() else "pure-Python path"

    policy = Policy()
    policy.classify("terminal", "ls")
    gc.collect()
    gc.freeze()  # as the daemon does once started (bot/app.py): full collections do not walk the tables
    if not args.data.exists():
        ap.error(f"labelled data {args.data} not found (shared/eval beside the repository, or --data PATH)")
    rows = [json.loads(line) for line in args.data.read_text().splitlines() if line.strip()]
    confusion = {e: dict.fromkeys(TIERS, 0) for e in TIERS}
    misses = []
    exact = total = 0
    crisis_total = crisis_ok = 0
    crit_total = crit_ok = 0
    under = []
    for r in rows:
        res = policy.classify(r["action"], r.get("command") or None, r.get("description"), r.get("cwd"))
        if r["tier"] == "crisis":
            crisis_total += 1
            crisis_ok += res.crisis is not None
            continue
        total += 1
        got = res.tier.name
        confusion[r["tier"]][got] += 1
        if got == r["tier"]:
            exact += 1
        else:
            misses.append({"action": r["action"], "command": r.get("command", "")[:200], "expected": r["tier"],
                           "got": got, "rule": res.rule, "reason": res.reason[:200]})
        if r["tier"] == "CRITICAL":
            crit_total += 1
            crit_ok += got == "CRITICAL"
        if Tier[r["tier"]] >= Tier.HIGH and res.tier < Tier.MEDIUM:
            under.append(r)

    # throughput over the data, one core
    reqs = [(r["action"], r.get("command") or None) for r in rows]
    n = 0
    t0 = time.perf_counter()
    deadline = t0 + args.seconds
    while time.perf_counter() < deadline:
        for a, c in reqs:
            policy.classify(a, c)
        n += len(reqs)
    per_sec = n / (time.perf_counter() - t0)

    # throughput of the crisis check alone on ~200-character crisis-dense messages
    crisis_rate = _crisis_rate()

    # every 32 KiB shape, cold: each repetition is the FIRST classification of a fresh variant (new seed for
    # random shapes) with every cache cleared; best and worst of 5 (another process may share the machine)
    reps = 5
    times: dict[str, list[float]] = {}
    results: dict[str, object] = {}
    for rep in range(reps):
        for name, (action, command, description) in request_shapes(seed=1000 + rep).items():
            clear_caches(policy)
            t = time.perf_counter()
            res = policy.classify(action, command, description)
            times.setdefault(name, []).append(time.perf_counter() - t)
            results[name] = res
    hostile = {}
    for name, ts in times.items():
        res = results[name]
        hostile[name] = {"ms": round(min(ts) * 1000, 2), "worst_ms": round(max(ts) * 1000, 2),
                         "tier": res.tier.name, "rule": res.rule}
    clear_caches(policy)
    worst = max(hostile.items(), key=lambda kv: kv[1]["ms"])
    over = {k: v for k, v in hostile.items() if v["ms"] > BUDGET_MS}
    over_worst = {k: v for k, v in hostile.items() if v["worst_ms"] > BUDGET_MS}

    report = {
        "rows": total, "exact": exact, "accuracy": round(exact / total, 4) if total else None,
        "critical_recall": f"{crit_ok}/{crit_total}", "high_or_critical_below_medium": len(under),
        "crisis": f"{crisis_ok}/{crisis_total}", "confusion": confusion, "misses": misses,
        "per_second": round(per_sec), "crisis_messages_per_second": round(crisis_rate), "hostile_ms": hostile,
        "worst_hostile": {worst[0]: worst[1]}, "over_budget": sorted(over),
        "worst_cold_over_budget": sorted(over_worst), "crisis_check_compiled": compiled(),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"accuracy: {exact}/{total} = {exact / total:.2%} exact tier")
    print(f"CRITICAL rows classified CRITICAL: {crit_ok}/{crit_total}; HIGH/CRITICAL rows below MEDIUM: {len(under)}")
    print(f"crisis rows with crisis set: {crisis_ok}/{crisis_total} (depends on core.crisis)")
    print("\nconfusion (rows: expected, columns: got)")
    print(" " * 10 + "".join(f"{t:>10}" for t in TIERS))
    for e in TIERS:
        print(f"{e:>10}" + "".join(f"{confusion[e][g]:>10}" for g in TIERS))
    print(f"\nmisses ({len(misses)}):")
    for m in misses:
        print(f"  {m['expected']:>8} → {m['got']:<8} {m['action']} | {m['command'][:100]!r} | {m['rule']}")
    print(f"\nspeed: {per_sec:,.0f} classifications/s (one core, public data, crisis check included)")
    print(f"crisis check: {crisis_rate:,.0f} messages/s (~200-character crisis-dense messages), {path}")
    print(f"hostile 32 KiB inputs ({len(hostile)} shapes, COLD: fresh input, caches cleared; best / worst of "
          f"{reps}, budget {BUDGET_MS:g} ms), slowest first:")
    for name, v in sorted(hostile.items(), key=lambda kv: -kv[1]["ms"])[:30]:
        print(f"  {v['ms']:8.2f} ms {v['worst_ms']:8.2f} ms  {v['tier']:<8} {name:<40} {v['rule']}")
    print(f"worst hostile (cold): {worst[0]} {worst[1]['ms']:.2f} ms (worst repetition "
          f"{max(v['worst_ms'] for v in hostile.values()):.2f} ms)")
    if over_worst:
        print(f"warning: worst cold repetition over {BUDGET_MS:g} ms (may be noise): {', '.join(sorted(over_worst))}")
    if over:
        print(f"!!! FAIL: {len(over)} hostile input(s) over the {BUDGET_MS:g} ms budget: {', '.join(sorted(over))}")
    else:
        print(f"ok: every hostile input within {BUDGET_MS:g} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
