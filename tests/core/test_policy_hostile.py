"""Hostile input: the classifier never raises, never passes unreadable text as SAFE, and stays fast."""

from __future__ import annotations

import random
import time

import pytest

from core.policy import Policy, classify
from core.tiers import Tier

SIZE = 32 * 1024
BOUND = 0.5  # seconds for a 32 KiB hostile input (generous; typical is a few ms)


def _hostile() -> dict[str, str]:
    rnd = random.Random(1234)
    return {
        "a|": "a|" * (SIZE // 2), "a | ": "a | " * (SIZE // 4), "$(((((": "$(" + "(" * SIZE,
        "$($(": "$(" * (SIZE // 2), "((((": "(" * SIZE, "{ {": "{ " * (SIZE // 2), "backticks": "`" * SIZE,
        "backslashes": "\\" * SIZE, "whitespace": " " * SIZE, "tabs and newlines": "\t\n" * (SIZE // 2),
        "quotes": "'" * SIZE, "dquotes": '"' * SIZE, "unbalanced": "echo \"$(rm -rf / '" * (SIZE // 18),
        "heredocs": "cat <<EOF\nx\nEOF\n" * (SIZE // 16), "long heredoc": "cat <<EOF\n" + "line $(x)\n" * (SIZE // 10),
        "unterminated heredoc": "bash <<EOF\n" + "echo hi\n" * (SIZE // 8), "semicolons": ";" * SIZE,
        "ampersands": "&" * SIZE, "pipes": "|" * SIZE, "vars": "X=$X$X; " * (SIZE // 8),
        "for": "for a in 1 2 3; do echo $a; done; " * (SIZE // 35), "words": "word " * (SIZE // 5),
        "sql": "psql -c '" + "SELECT 1; " * (SIZE // 10) + "'", "awk": "awk '" + "print > \"f\"; " * (SIZE // 14) + "'",
        "python": "python -c '" + "os.system(\"ls\"); " * (SIZE // 18) + "'",
        "random bytes": "".join(chr(rnd.randrange(1, 256)) for _ in range(SIZE)),
        "random shell": "".join(rnd.choice("ab $(){}[]|&;<>'\"`\\\n#=*~/") for _ in range(SIZE)),
        "nul bytes": "\x00" * SIZE, "ansi": "$'" + "\\x41" * (SIZE // 4) + "'",
        "case": "case x in " + "a) b;; " * (SIZE // 7) + "esac",
        "sh -c nest": "sh -c '" * 2000 + "rm -rf /" + "'" * 2000,
    }


HOSTILE = _hostile()


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_is_fast_and_never_raises(name: str) -> None:
    policy = Policy()
    text = HOSTILE[name]
    elapsed = float("inf")
    for _ in range(3):  # best of three: other processes may share the machine
        t0 = time.perf_counter()
        r = policy.classify("terminal", text)
        elapsed = min(elapsed, time.perf_counter() - t0)
    assert isinstance(r.tier, Tier)
    assert r.rule != "internal.error", r
    assert elapsed < BOUND, f"{name}: {elapsed * 1000:.0f} ms"


@pytest.mark.parametrize("text", ["rm -rf / '", 'rm -rf /etc "', "$(rm -rf /", "`rm -rf /", "(rm -rf /",
                                  "{ rm -rf /", "rm -rf / <<", "rm -rf ${HOME", "echo $( ( ( rm -rf / "])
def test_damaged_text_is_still_matched(text: str) -> None:
    assert classify("terminal", text).tier is Tier.CRITICAL


@pytest.mark.parametrize("text", ["'", '"', "$(", "`", "((", "{", "}", ")", "<<", "|", "&&", ";;", "\\", "$'\\x"])
def test_unparseable_is_never_safe(text: str) -> None:
    assert classify("terminal", text).tier >= Tier.LOW


def test_fuzz_random_strings_never_raise() -> None:
    rnd = random.Random(99)
    alphabet = "rm -f/$(){}[]|&;<>'\"`\\\n#=*~.abcEOF\t:%@!"
    policy = Policy()
    for _ in range(3000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(0, 80)))
        action = rnd.choice(["terminal", "unknown_tool", "exec_sql", "write_file", "run_script", "api_call", text[:20]])
        r = policy.classify(action, text, text[:10], rnd.choice([None, "/", "/home/a/p", text[:5]]))
        assert isinstance(r.tier, Tier) and r.rule != "internal.error", (action, text, r)


def test_non_string_fields_do_not_raise() -> None:
    assert isinstance(classify("", None).tier, Tier)
    assert isinstance(classify("terminal", "\udcff\ud800").tier, Tier)
