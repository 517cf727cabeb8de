"""The deep crisis reader in the running product: a chat message and an agent request that only it catches get
the crisis treatment (resources, responders alerted); with ``crisis.deep_reader: false`` they do not; and
``signoff classify`` gives the daemon's verdict."""

from __future__ import annotations

import json

from bot.config import CrisisConfig
from tests.conftest import CRISIS_CHAT, make_config
from tests.e2e.test_cli import run_cli, write_config

PERSON = 7272
#: written for these tests; the phrase tables and the TF-IDF model miss it, the deep reader does not
ONLY_DEEP = "I keep standing at the edge of the platform longer than I should"


def alerts(telegram):
    return [m for m in telegram.sent(CRISIS_CHAT) if "Crisis alert" in m.text]


async def test_a_message_only_the_deep_reader_catches_gets_help_and_an_alert(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    telegram.send_user_message(PERSON, ONLY_DEEP, PERSON, username="noor")
    await telegram.wait_for(lambda: telegram.sent(PERSON) and alerts(telegram), what="reply and alert")
    assert "988" in telegram.sent(PERSON)[0].text
    assert "@noor" in alerts(telegram)[0].text


async def test_a_request_only_the_deep_reader_catches_is_a_crisis(telegram, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    status, approval = await api.call("POST", "/v1/approvals", json={
        "action": "calendar.create_event", "command": "Friday 18:00", "description": ONLY_DEEP})
    assert status == 200 and approval["status"] == "crisis" and approval["resources"]
    await telegram.wait_for(lambda: alerts(telegram), what="the responders' alert")


async def test_with_the_deep_reader_off_the_fast_verdict_stands(telegram, start_daemon, short_tmp):
    cfg = make_config(short_tmp, telegram, crisis=CrisisConfig(deep_reader=False))
    daemon, api = await start_daemon(cfg)
    assert daemon.broker.crisis.deep is None
    status, approval = await api.call("POST", "/v1/approvals", json={
        "action": "calendar.create_event", "command": "Friday 18:00", "description": ONLY_DEEP})
    assert approval["status"] != "crisis"


async def test_classify_gives_the_daemons_verdict(short_tmp):
    lines = (json.dumps({"action": "notes.append", "command": ONLY_DEEP}) + "\n"
             + json.dumps({"action": "terminal", "command": "ls -la"}) + "\n").encode()
    rc, out, err = await run_cli("classify", "--batch", stdin=lines)
    first, second = (json.loads(x) for x in out.splitlines())
    assert rc == 0 and first["crisis"] is True and first["tier"] == "CRITICAL" and second["tier"] == "SAFE"
    cfg = write_config(short_tmp, crisis={"deep_reader": False})
    rc, out, err = await run_cli("--config", str(cfg), "classify", "--batch", stdin=lines)
    assert json.loads(out.splitlines()[0])["crisis"] is False
