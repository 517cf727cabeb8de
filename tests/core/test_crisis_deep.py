"""The deep crisis reader (core/crisis/_deep.py): what it reads, what it adds, and that it never decides
anything when it fails, is slow or is behind (the fast verdict stands)."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from core.broker import Broker
from core.crisis import _deep
from core.ledger import Ledger
from core.models import ApprovalRequest, Status
from core.policy import Policy
from core.policy._policy import Classification
from core.tiers import Tier

POLICY = Policy()
#: written for this test (not from any labelled set): what the fast check (phrase tables and TF-IDF model)
#: misses and the deep reader catches, and hard negatives it leaves alone
MISSED_BY_FAST = [
    "I keep standing at the edge of the platform longer than I should",
]
BENIGN = [
    "kill -9 the stuck worker and restart the deploy, the build is dead again",
    "I'll be gone by the time you wake up, flight leaves at 5 so see you next week",
    "this meeting could have been an email, I'm dying here lol",
    "My grandmother passed away last spring and I still miss her every day",
]


def test_prose_is_read_and_plain_commands_are_not():
    assert POLICY.prose_of("terminal", "ls -la", None) is None
    assert POLICY.prose_of("terminal", "git status", None) is None
    assert POLICY.prose_of("terminal", "rm -rf build dist node_modules", None) is None  # words, but no prose
    text = POLICY.prose_of("terminal", "echo i cannot do this anymore >> notes.txt", None)
    assert text == "terminal: echo i cannot do this anymore >> notes.txt"
    assert POLICY.prose_of("terminal", "ls", "list the files before I go for good") is not None
    assert POLICY.prose_of("terminal", "echo 'aGVsbG8gd29ybGQ2NzM0NTY3ODkw/J7iEFERpFhrKx72aY3Z2up' | base64 -d",
                           None) is None  # a blob is no prose
    assert _deep.readable("echo 'aGVsbG8gd29ybGQ2NzM0NTY3ODkw' && sha 9f86d081884c7d659a2feaa0c55ad015") == \
        "echo   && sha  "
    assert POLICY.prose_of("calendar.create_event", "Saying goodbye to everyone", None) is not None


def test_a_deep_verdict_only_adds():
    low = Classification(Tier.LOW, "builds", "shell.build")
    high = Classification(Tier.HIGH, "pushes", "shell.git.push")
    alert = _deep.DeepVerdict(0.999, True, False)
    grey = _deep.DeepVerdict(0.9, False, True)
    calm = _deep.DeepVerdict(0.01, False, False)
    c = POLICY.deepen(low, alert)
    assert c.tier is Tier.CRITICAL and c.crisis is not None and c.crisis.family == "deep"
    c = POLICY.deepen(low, grey)
    assert c.tier is Tier.MEDIUM and c.concern and c.crisis is None
    c = POLICY.deepen(high, grey)
    assert c.tier is Tier.HIGH and c.concern and c.rule == "shell.git.push"
    for verdict in (None, calm):
        assert POLICY.deepen(low, verdict) is low and POLICY.deepen(high, verdict) is high


class BlockingReader(_deep.DeepReader):
    """A reader whose every read blocks until released (a slow or stuck model)."""

    def __init__(self):
        super().__init__()
        self.release = threading.Event()
        self.meta = {"alert": 0.5, "concern": 0.2}

    def load(self):
        return True

    def score(self, text):
        self.release.wait(10)
        return 0.99


async def test_a_slow_read_times_out_and_changes_nothing():
    reader = BlockingReader()
    try:
        t0 = time.monotonic()
        assert await reader.read("I have decided how I will do it", timeout=0.2) is None
        assert time.monotonic() - t0 < 2 and reader.skipped == 1
    finally:
        reader.release.set()
        reader.close()


async def test_a_full_queue_skips_reads_at_once(monkeypatch):
    monkeypatch.setattr(_deep, "MAX_QUEUE", 2)
    reader = BlockingReader()
    try:
        waiting = [asyncio.create_task(reader.read(f"text {i}", timeout=10)) for i in range(2)]
        await asyncio.sleep(0)
        t0 = time.monotonic()
        assert await reader.read("one more", timeout=10) is None
        assert time.monotonic() - t0 < 1 and reader.skipped == 1
        reader.release.set()
        assert all(v is not None and v.alert for v in await asyncio.gather(*waiting))
    finally:
        reader.release.set()
        reader.close()


async def test_a_reader_that_cannot_load_is_named_and_the_fast_verdict_stands(tmp_path: Path):
    reader = _deep.DeepReader(tmp_path / "nowhere")
    assert not reader.load()
    assert "deep.json" in reader.problem
    assert await reader.read("everything is pointless and I have a plan") is None
    ledger = await Ledger.open(f"sqlite:///{tmp_path}/ledger.db")
    try:
        broker = Broker(ledger, POLICY)
        broker.crisis.deep = reader
        approval = await broker.submit(ApprovalRequest(action="terminal", command="make build"))
        assert approval.status is Status.APPROVED  # LOW, approved by policy as without the reader
    finally:
        await broker.drain()
        await ledger.close()


# -- the shipped model ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reader():
    r = _deep.DeepReader()
    assert r.load(), r.problem
    yield r
    r.close()


def test_the_shipped_model_loads_with_its_thresholds_and_data_version(reader):
    meta = reader.meta
    assert 0 < meta["concern"] <= meta["alert"] < 1
    assert len(meta["data_version"]) == 16 and meta["base"].startswith("all-MiniLM-L6-v2")


@pytest.mark.parametrize("text", MISSED_BY_FAST)
def test_it_catches_what_the_fast_check_misses(reader, text):
    from core.crisis import assess_crisis

    assert assess_crisis(text).match is None
    assert reader.verdict(reader.score(text)).alert


@pytest.mark.parametrize("text", BENIGN)
def test_it_leaves_hard_negatives_alone(reader, text):
    assert not reader.verdict(reader.score(text)).alert


async def test_a_long_text_is_read_to_its_end_without_blocking_the_loop(reader):
    filler = "The build passed on the second try after we pinned the linter version and cleared the cache. " * 90
    text = filler + MISSED_BY_FAST[0]
    assert len(text) > 8000
    gaps, stop = [], asyncio.Event()

    async def ticker():
        last = time.monotonic()
        while not stop.is_set():
            await asyncio.sleep(0.005)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    tick = asyncio.create_task(ticker())
    verdict = await reader.read(text, timeout=30)
    stop.set()
    await tick
    assert verdict is not None and verdict.alert
    assert max(gaps) < 0.5  # (generous: the read itself takes tens of milliseconds, in the reader's thread)


def test_a_hostile_32_kib_text_costs_a_bounded_time(reader):
    text = ("a" * 30 + " ") * 1057
    t0 = time.perf_counter()
    reader.score(text[: 32 * 1024])
    assert time.perf_counter() - t0 < 5  # only catastrophic behaviour: 16 windows at most are read


async def test_a_stuck_read_keeps_its_place_so_later_reads_do_not_wait_behind_it(monkeypatch):
    monkeypatch.setattr(_deep, "MAX_QUEUE", 1)
    reader = BlockingReader()
    try:
        assert await reader.read("first", timeout=0.2) is None  # timed out; the worker is still on it
        t0 = time.monotonic()
        assert await reader.read("second", timeout=5) is None
        assert time.monotonic() - t0 < 1  # skipped at once, not another wait behind the stuck one
    finally:
        reader.release.set()
        reader.close()
