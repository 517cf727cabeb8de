"""The ``signoff`` command as a user runs it: subprocesses against a real daemon."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import yaml

from tests.conftest import ApiClient, make_config

SIGNOFF = [sys.executable, "-m", "bot.cli"]
ROOT = Path(__file__).resolve().parents[2]


def write_config(tmp: Path, **sections) -> Path:
    data = {"server": {"socket_path": str(tmp / "s.sock")}, "ledger": {"url": f"sqlite:///{tmp}/ledger.db"}}
    data.update(sections)
    path = tmp / "config.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


async def run_cli(*args: str, stdin: bytes | None = None, env: dict | None = None, timeout: float = 30):
    proc = await asyncio.create_subprocess_exec(
        *SIGNOFF, *args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, cwd=ROOT, env={**os.environ, **(env or {})})
    out, err = await asyncio.wait_for(proc.communicate(stdin), timeout)
    return proc.returncode, out.decode(), err.decode()


async def _start(start_daemon, tmp: Path, **kw):
    cfg_path = write_config(tmp)
    daemon, api = await start_daemon(make_config(tmp, **kw))
    return cfg_path, daemon, api


async def test_request_exit_codes(start_daemon, short_tmp):
    cfg, daemon, api = await _start(start_daemon, short_tmp)

    async def decide_first_pending(decision: str):
        while True:
            _, data = await api.call("GET", "/v1/approvals?status=pending")
            if data["approvals"]:
                a = data["approvals"][0]
                await api.call("POST", f"/v1/approvals/{a['id']}/decision", json={"decision": decision})
                return a
            await asyncio.sleep(0.02)

    for decision, code in (("approve", 0), ("deny", 1)):
        proc = asyncio.create_task(run_cli("request", "--config", str(cfg), "--action", "terminal", "--agent", "t",
                                           "--json", "--", "git", "push", "origin", "main"))
        pending = await asyncio.wait_for(decide_first_pending(decision), 10)
        rc, out, err = await proc
        assert rc == code, err
        assert pending["command"] == "git push origin main"
        assert pending["id"] in err and "MEDIUM" in err  # id and tier printed on stderr at once
        assert json.loads(out)["status"] == ("approved" if code == 0 else "denied")

    rc, out, err = await run_cli("request", "--config", str(cfg), "--action", "terminal", "--wait", "0.3",
                                 "--", "git push origin main")
    assert rc == 4, err
    rc, out, err = await run_cli("request", "--config", str(cfg), "--action", "read_file", "--", "README.md")
    assert rc == 0, err
    rc, out, err = await run_cli("request", "--config", str(cfg), "--action", "send_message",
                                 "--", "I want to kill myself")
    assert rc == 1 and "988" in out
    rc, out, err = await run_cli("request", "--config", str(cfg))  # --action missing
    assert rc == 2 and "--action" in err


async def test_request_daemon_unreachable_exits_3(short_tmp):
    cfg = write_config(short_tmp)
    rc, out, err = await run_cli("request", "--config", str(cfg), "--action", "terminal", "--", "ls")
    assert rc == 3 and "unreachable" in err


async def test_approve_and_deny_from_terminal(start_daemon, short_tmp):
    cfg, daemon, api = await _start(start_daemon, short_tmp)
    _, a = await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": "git push"})
    rc, out, err = await run_cli("pending", "--config", str(cfg), "--json")
    assert rc == 0 and [p["id"] for p in json.loads(out)["approvals"]] == [a["id"]]
    rc, out, err = await run_cli("approve", a["id"], "--config", str(cfg), "--note", "ok")
    assert rc == 0 and "approved" in out
    rc, out, err = await run_cli("deny", a["id"], "--config", str(cfg))
    assert rc == 1 and "approved" in err  # refused, told the true outcome
    rc, out, err = await run_cli("approve", "nope", "--config", str(cfg))
    assert rc == 1
    rc, out, err = await run_cli("ledger", "--config", str(cfg), "--json")
    assert rc == 0
    rows = json.loads(out)["approvals"]
    kinds = [e["kind"] for e in rows[0]["events"]]
    assert rows[0]["status"] == "approved" and kinds[0] == "created" and "decided" in kinds
    decided = next(e for e in rows[0]["events"] if e["kind"] == "decided")
    assert decided["actor"].startswith("cli:") and decided["channel"] == "cli"


async def test_approve_refused_when_terminal_channel_off(start_daemon, short_tmp):
    cfg, daemon, api = await _start(start_daemon, short_tmp, terminal=False)
    _, a = await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": "git push"})
    rc, out, err = await run_cli("approve", a["id"], "--config", str(cfg))
    assert rc == 1 and "terminal" in err
    _, now = await api.call("GET", f"/v1/approvals/{a['id']}")
    assert now["status"] == "pending"


async def test_run_on_builtin_defaults_and_stop_cleanly(short_tmp):
    env = {"HOME": str(short_tmp), "XDG_STATE_HOME": str(short_tmp / "state"), "SIGNOFF_CONFIG": ""}
    proc = await asyncio.create_subprocess_exec(*SIGNOFF, "run", cwd=ROOT, env={**os.environ, **env},
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    sock = short_tmp / "state" / "signoff" / "signoff.sock"
    try:
        for _ in range(300):
            if sock.exists():
                break
            await asyncio.sleep(0.05)
        api = ApiClient(sock)
        try:
            status, health = await api.call("GET", "/v1/health")
        finally:
            await api.close()
        assert status == 200 and health["channels"] == {"terminal": "up"}
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(proc.communicate(), 15)
    assert proc.returncode == 0, err.decode()
    assert (short_tmp / "state" / "signoff" / "ledger.db").exists()
    assert not sock.exists()


async def test_bad_config_exits_2_naming_the_key(short_tmp):
    cfg = write_config(short_tmp, telegram={"tokn": "x", "approval_chat_ids": [1]})
    rc, out, err = await run_cli("run", "--config", str(cfg))
    assert rc == 2 and "telegram.tokn" in err and str(cfg) in err


async def test_config_in_working_directory_is_ignored(short_tmp):
    (short_tmp / "signoff.yaml").write_text("server: {socket_path: /tmp/evil.sock}\n")
    (short_tmp / "config.yaml").write_text("server: {socket_path: /tmp/evil.sock}\n")
    env = {"HOME": str(short_tmp / "home"), "XDG_STATE_HOME": str(short_tmp / "state"), "SIGNOFF_CONFIG": ""}
    proc = await asyncio.create_subprocess_exec(
        *SIGNOFF, "request", "--action", "terminal", "--", "ls", cwd=short_tmp,
        env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await proc.communicate()
    assert proc.returncode == 3
    assert "evil" not in err.decode() and str(short_tmp / "state") in err.decode()


async def test_config_before_the_command_is_used(start_daemon, short_tmp):
    cfg, daemon, api = await _start(start_daemon, short_tmp)
    await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": "git push"})
    rc, out, err = await run_cli("--config", str(cfg), "pending", "--json")
    assert rc == 0 and len(json.loads(out)["approvals"]) == 1
    rc, out, err = await run_cli("--config", str(short_tmp / "missing.yaml"), "pending")
    assert rc == 2 and "missing.yaml" in err


async def test_wait_reattaches_and_cancel(start_daemon, short_tmp):
    cfg, daemon, api = await _start(start_daemon, short_tmp)
    _, a = await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": "git push"})
    rc, out, err = await run_cli("wait", a["id"], "--config", str(cfg), "--wait", "0.2")
    assert rc == 4 and "pending" in err
    waiting = asyncio.create_task(run_cli("wait", a["id"], "--config", str(cfg), "--json"))
    await asyncio.sleep(0.3)
    await api.call("POST", f"/v1/approvals/{a['id']}/decision", json={"decision": "approve"})
    rc, out, err = await waiting
    assert rc == 0 and json.loads(out)["status"] == "approved"
    _, b = await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": "git push"})
    rc, out, err = await run_cli("cancel", b["id"], "--config", str(cfg))
    assert rc == 0 and "cancelled" in out
    rc, out, err = await run_cli("cancel", b["id"], "--config", str(cfg))
    assert rc == 1 and "cancelled" in err


async def test_waiting_request_survives_a_daemon_restart(short_tmp):
    from bot.app import Daemon

    cfg_path = write_config(short_tmp)
    config = make_config(short_tmp)
    daemon = Daemon(config)
    await daemon.start()
    proc = asyncio.create_task(run_cli("request", "--config", str(cfg_path), "--action", "terminal", "--", "git push"))
    api = ApiClient(config.server.path())
    try:
        for _ in range(200):
            _, data = await api.call("GET", "/v1/approvals?status=pending")
            if data["approvals"]:
                break
            await asyncio.sleep(0.02)
        approval_id = data["approvals"][0]["id"]
    finally:
        await api.close()
    await daemon.stop()  # the agent's long poll is cut
    daemon = Daemon(config)
    await daemon.start()
    api = ApiClient(config.server.path())
    try:
        await api.call("POST", f"/v1/approvals/{approval_id}/decision", json={"decision": "approve"})
    finally:
        await api.close()
    try:
        rc, out, err = await proc
    finally:
        await daemon.stop()
    assert rc == 0, err


async def test_doctor_reports_a_missing_daemon(short_tmp):
    cfg = write_config(short_tmp)
    rc, out, err = await run_cli("doctor", "--config", str(cfg))
    assert rc == 1 and "daemon: not running" in out
    from core.crisis import compiled

    # it says which path the crisis check reads text through (a pure-Python one is a note, not a problem)
    assert ("ok       crisis check: compiled fast path" if compiled() else "note     crisis check: pure-Python") in out


async def test_classify_batch_keeps_one_result_per_line(short_tmp):
    lines = b'{"action": "terminal", "command": "rm -rf /"}\n\n{"command": "ls"}\nnot json\n{"action": 3}\n'
    rc, out, err = await run_cli("classify", "--batch", stdin=lines)
    results = [json.loads(x) for x in out.splitlines()]
    assert rc == 0 and len(results) == 5
    assert results[0]["tier"] == "CRITICAL" and "error" in results[1] and results[2]["tier"] == "SAFE"
    assert "error" in results[3] and "error" in results[4]


async def test_classify_batch_names_a_misspelt_field(short_tmp):
    lines = b'{"action": "terminal", "comand": "rm -rf /"}\n{"command": "ls", "agent": "x"}\n'
    rc, out, err = await run_cli("classify", "--batch", stdin=lines)
    first, second = (json.loads(x) for x in out.splitlines())
    assert rc == 0 and first["warnings"] == ["field 'comand' is ignored (did you mean 'command'?)"]
    assert "warnings" not in second  # (other fields are ignored quietly, as the spec says)


async def test_waiting_request_ends_not_approved_when_the_daemon_forgets_it(short_tmp):
    from bot.app import Daemon
    from bot.config import LedgerConfig

    cfg_path = write_config(short_tmp)
    config = make_config(short_tmp)
    daemon = Daemon(config)
    await daemon.start()
    proc = asyncio.create_task(run_cli("request", "--config", str(cfg_path), "--action", "terminal", "--", "git push"))
    try:
        for _ in range(500):  # the subprocess's request reaches the ledger
            if await daemon.ledger.list():
                break
            await asyncio.sleep(0.02)
    finally:
        await daemon.stop()
    other = config.model_copy(update={"ledger": LedgerConfig(url=f"sqlite:///{short_tmp}/other.db")})
    daemon = Daemon(other)  # same socket, another ledger: the approval is unknown there
    await daemon.start()
    try:
        rc, out, err = await asyncio.wait_for(proc, 20)
    finally:
        await daemon.stop()
    assert rc == 1 and "not approved" in err


async def test_a_started_daemon_keeps_its_tables_out_of_full_garbage_collections(short_tmp):
    # signoff run freezes what start-up loaded (gc.freeze): a full collection walking ~10^5 table objects would
    # stall the request it lands on by tens of milliseconds
    import gc

    from bot.app import Daemon, State

    daemon = Daemon(make_config(short_tmp))
    before = gc.get_freeze_count()
    task = asyncio.create_task(daemon.run_until_signal())
    try:
        for _ in range(500):
            if daemon.state is State.RUNNING and gc.get_freeze_count() > before:
                break
            await asyncio.sleep(0.01)
        assert daemon.state is State.RUNNING
        assert gc.get_freeze_count() > before + 10_000
    finally:
        if not task.done():  # (its loop handles SIGINT only while it serves; a failed start has ended the task)
            os.kill(os.getpid(), signal.SIGINT)
        await asyncio.wait_for(task, 10)
        gc.unfreeze()
    assert daemon.state is State.STOPPED


async def test_a_crisis_alert_is_acknowledged_from_the_terminal(start_daemon, short_tmp):
    cfg, daemon, api = await _start(start_daemon, short_tmp)
    rc, out, err = await run_cli("request", "--config", str(cfg), "--action", "send_message", "--",
                                 "I want to kill myself")
    assert rc == 1 and "988" in out
    _, data = await api.call("GET", "/v1/approvals?status=crisis")
    approval_id = data["approvals"][0]["id"]
    alert = await daemon.broker.crisis.find(approval_id)  # (the request's id leads to its alert)
    assert alert is not None and alert.acknowledged_by is None and alert.id != approval_id

    rc, out, err = await run_cli("ack", "--config", str(cfg), approval_id)
    assert rc == 0, err
    assert out.startswith(f"{alert.id}: acknowledged by ")
    acked = await daemon.broker.crisis.get(alert.id)
    assert acked.acknowledged_by.startswith("cli:")
    events = (await daemon.ledger.crisis_events([alert.id]))[alert.id]
    assert [e.kind for e in events].count("crisis_acknowledged") == 1

    rc, out, err = await run_cli("ack", "--config", str(cfg), alert.id)  # a second press is told who was first
    assert rc == 1 and "already acknowledged by" in err
    rc, out, err = await run_cli("ack", "--config", str(cfg), "nosuchid")
    assert rc == 1 and "no crisis alert" in err


async def test_only_a_terminal_approver_acknowledges_a_crisis_alert(start_daemon, short_tmp):
    # an agent must not silence the re-alerts: with the terminal channel off (or for another uid) it is refused
    daemon, api = await start_daemon(make_config(short_tmp, terminal=False))
    from core.crisis_desk import Origin

    alert = daemon.broker.crisis.raise_alert("i want to die", Origin("api"), None)
    status, data = await api.call("POST", f"/v1/crisis/{alert.id}/ack")
    assert status == 403 and "terminal channel is disabled" in data["error"]["message"]
    assert (await daemon.broker.crisis.get(alert.id)).acknowledged_by is None


async def test_waiting_request_survives_two_daemon_restarts(short_tmp, monkeypatch):
    """The outage clock starts again at each restart: a second restart long after the first (here: longer
    than the whole reconnect window) does not make a waiting client give up."""
    import bot.cli
    from bot.app import Daemon
    from bot.connection import DaemonConnection

    monkeypatch.setattr(bot.cli, "RECONNECT_SECONDS", 2.0)
    config = make_config(short_tmp)
    daemon = Daemon(config)
    await daemon.start()
    api = ApiClient(config.server.path())
    _, approval = await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": "git push"})
    await api.close()
    conn = DaemonConnection(config.server.path())
    waiting = asyncio.create_task(asyncio.to_thread(bot.cli._await_outcome, conn, approval, None, True, "request"))

    async def polled_by_the_client(d: Daemon) -> None:
        for _ in range(500):
            if d.broker._waiters.get(approval["id"]) is not None:
                return
            await asyncio.sleep(0.02)
        raise AssertionError("the client is not waiting on this daemon")

    for _ in range(2):
        await polled_by_the_client(daemon)
        await asyncio.sleep(2.5)  # connected for longer than the reconnect window
        await daemon.stop()
        daemon = Daemon(config)
        await daemon.start()
    await polled_by_the_client(daemon)
    api = ApiClient(config.server.path())
    try:
        status, _ = await api.call("POST", f"/v1/approvals/{approval['id']}/decision", json={"decision": "approve"})
        assert status == 200
        assert await asyncio.wait_for(waiting, 30) == 0
    finally:
        await api.close()
        await daemon.stop()


async def test_terminal_shows_pending_cards_again_after_a_restart(short_tmp):
    """The terminal's cards are lines on the old process's output: a restarted daemon prints each approval
    still pending (oldest first, with the commands that decide it), and not the decided ones."""
    import io

    from adapters.terminal import TerminalChannel
    from bot.app import Daemon

    config = make_config(short_tmp)
    daemon = Daemon(config, channels=[TerminalChannel(out=io.StringIO())])
    await daemon.start()
    api = ApiClient(config.server.path())
    try:
        ids = []
        for command in ("git push origin main", "pip install requests", "npm publish"):
            _, approval = await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": command})
            ids.append(approval["id"])
        await api.call("POST", f"/v1/approvals/{ids[1]}/decision", json={"decision": "deny"})
    finally:
        await api.close()
        await daemon.stop()
    out = io.StringIO()
    daemon = Daemon(config, channels=[TerminalChannel(out=out)])
    await daemon.start()
    try:
        shown = out.getvalue()
    finally:
        await daemon.stop()
    assert shown.count("still pending after a restart") == 2
    assert f"signoff approve {ids[0]}" in shown and f"signoff approve {ids[2]}" in shown
    assert shown.index(ids[0]) < shown.index(ids[2])
    assert ids[1] not in shown
