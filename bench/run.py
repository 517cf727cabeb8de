"""signoff's end-to-end benchmarks (shared/spec/benchmarks.md).

    python bench/run.py [--quick] [--json PATH]

Each figure is measured here, on loopback: the real daemon in this process on a temp socket and
SQLite file, agents as aiohttp clients over the Unix socket, and the real python-telegram-bot talking
to the loopback fake Bot API of the tests (rate limiter off, as the config allows for overhead runs).
A figure not measured by this version is written as null.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("PTB_TIMEDELTA", "1")

import aiohttp  # noqa: E402

from bot.app import Daemon, version  # noqa: E402
from bot.config import Config, LedgerConfig, ServerConfig, TelegramConfig, TerminalConfig  # noqa: E402
from tests.fakes import FakeTelegram  # noqa: E402

CHAT, APPROVER = 100, 111
MEDIUM = {"action": "terminal", "command": "git push origin main", "agent": "bench"}


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))], 3)


def config(tmp: Path, tg: FakeTelegram | None) -> Config:
    telegram = None
    if tg is not None:
        telegram = TelegramConfig(token=tg.token, base_url=tg.base_url, rate_limiter=False,
                                  approval_chat_ids=[CHAT], approver_ids=[APPROVER])
    return Config(server=ServerConfig(socket_path=tmp / "s.sock"), ledger=LedgerConfig(url=f"sqlite:///{tmp}/l.db"),
                  terminal=TerminalConfig(enabled=tg is None), telegram=telegram)


async def card_round_trips(n: int) -> tuple[dict, dict]:
    """request_to_card: POST → sendMessage reaches the fake; tap_to_unblock: press → waiting agent answered."""
    tmp = Path(tempfile.mkdtemp(prefix="sob-", dir="/tmp"))
    async with FakeTelegram() as tg:
        daemon = Daemon(config(tmp, tg), channels=None)
        await daemon.start()
        conn = aiohttp.UnixConnector(path=str(daemon.socket_path))
        to_card, to_unblock = [], []
        try:
            async with aiohttp.ClientSession(connector=conn) as http:
                for i in range(n):
                    before = len(tg.sent(CHAT))
                    t0 = time.perf_counter()
                    waiting = asyncio.ensure_future(http.post("http://s/v1/approvals?wait=60",
                                                              json={**MEDIUM, "command": f"git push origin b{i}"}))
                    await tg.wait_for(lambda b=before: len(tg.sent(CHAT)) > b, timeout=10)
                    to_card.append((time.perf_counter() - t0) * 1000)
                    card = tg.sent(CHAT)[-1]
                    t1 = time.perf_counter()
                    tg.press(CHAT, card.message_id, card.callback_data[0], APPROVER)
                    resp = await waiting
                    body = await resp.json()
                    to_unblock.append((time.perf_counter() - t1) * 1000)
                    assert body["status"] == "approved", body
        finally:
            await daemon.stop()
            shutil.rmtree(tmp, ignore_errors=True)
    return ({"n": n, "p50_ms": pct(to_card, 50), "p99_ms": pct(to_card, 99)},
            {"n": n, "p50_ms": pct(to_unblock, 50), "p99_ms": pct(to_unblock, 99)})


async def safe_throughput(clients: int, seconds: float) -> dict:
    """SAFE requests per second from ``clients`` concurrent agents (each request is recorded)."""
    tmp = Path(tempfile.mkdtemp(prefix="sob-", dir="/tmp"))
    daemon = Daemon(config(tmp, None), channels=[])
    await daemon.start()
    done = 0
    stop_at = time.perf_counter() + seconds
    try:
        conn = aiohttp.UnixConnector(path=str(daemon.socket_path), limit=clients)
        async with aiohttp.ClientSession(connector=conn) as http:
            async def agent(k: int):
                nonlocal done
                i = 0
                while time.perf_counter() < stop_at:
                    async with http.post("http://s/v1/approvals", json={"action": "read_file",
                                                                       "command": f"src/{k}/{i}.py"}) as r:
                        assert r.status == 200
                    done += 1
                    i += 1
            t0 = time.perf_counter()
            await asyncio.gather(*(agent(k) for k in range(clients)))
            elapsed = time.perf_counter() - t0
    finally:
        await daemon.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return {"clients": clients, "per_s": round(done / elapsed, 1)}


async def concurrent_waiters(n: int) -> dict:
    """n agents wait on n pending approvals; all are decided; how long until every agent is answered."""
    tmp = Path(tempfile.mkdtemp(prefix="sob-", dir="/tmp"))
    daemon = Daemon(config(tmp, None), channels=[])
    await daemon.start()
    errors = 0
    try:
        conn = aiohttp.UnixConnector(path=str(daemon.socket_path), limit=0)
        async with aiohttp.ClientSession(connector=conn, timeout=aiohttp.ClientTimeout(total=600)) as http:
            ids = []
            for i in range(0, n, 200):
                batch = await asyncio.gather(*(http.post("http://s/v1/approvals", json={**MEDIUM, "command": f"git push x{j}"})
                                               for j in range(i, min(n, i + 200))))
                ids += [(await r.json())["id"] for r in batch]

            async def wait(approval_id):
                nonlocal errors
                try:
                    async with http.get(f"http://s/v1/approvals/{approval_id}?wait=300") as r:
                        if (await r.json())["status"] != "approved":
                            errors += 1
                except Exception:
                    errors += 1

            waiters = [asyncio.ensure_future(wait(i)) for i in ids]
            while len(daemon.broker._waiters) < n:  # noqa: ASYNC110 (a benchmark polling the daemon it drives)
                await asyncio.sleep(0.05)
            rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            t0 = time.perf_counter()
            for i in range(0, n, 500):
                await asyncio.gather(*(daemon.broker.decide(a, True, _actor()) for a in ids[i:i + 500]))
            await asyncio.gather(*waiters)
            unblock = time.perf_counter() - t0
    finally:
        await daemon.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return {"n": n, "rss_mb": round(rss_mb, 1), "unblock_s": round(unblock, 3), "errors": errors}


def _actor():
    from core.models import Actor, DecidedVia

    return Actor(id="cli:bench", via=DecidedVia.CLI)


def classifier() -> dict:
    import subprocess

    out = subprocess.run([sys.executable, str(Path(__file__).with_name("classify.py")), "--json"],
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    worst = max((v["ms"] for v in (data.get("worst_hostile") or {}).values()), default=None)
    return {"per_s": data.get("per_second"), "hostile_32k_ms": worst}


async def main_async(quick: bool) -> dict:
    n_cards = 50 if quick else 1000
    to_card, to_unblock = await card_round_trips(n_cards)
    results = {
        "request_to_card": to_card,
        "tap_to_unblock": to_unblock,
        "safe_throughput": await safe_throughput(50, 2 if quick else 10),
        "concurrent_waiters": await concurrent_waiters(1000 if quick else 10000),
        "timer_lateness": None,
        "restart_pending": None,
        "classifier": classifier(),
        "burst_group": None,
    }
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller n (written in each result)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args()
    results = asyncio.run(main_async(args.quick))
    report = {"version": version(), "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
              "quick": args.quick, "results": results}
    for name, figures in results.items():
        print(f"{name:<20} {json.dumps(figures) if figures is not None else 'not measured by this version'}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
