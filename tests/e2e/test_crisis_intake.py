"""Crisis intake is one call on the core (``CrisisDesk.intake``): detect, answer the person first, alert the
responders. Telegram, Discord and ``POST /v1/crisis`` all go through it."""

from __future__ import annotations

import pytest

from core.crisis_desk import CrisisDesk, IntakeResult
from core.ledger import Ledger
from core.models import Origin
from tests.conftest import make_config


class Responders:
    name = "responders"

    def __init__(self, log):
        self.log = log

    async def alert_crisis(self, alert, realert):
        self.log.append(("alert", alert.category))

    async def update_crisis(self, alert):
        pass


@pytest.fixture
async def desk(tmp_path):
    ledger = await Ledger.open(f"sqlite:///{tmp_path}/ledger.db")
    log: list = []
    d = CrisisDesk(ledger, [Responders(log)])
    d.log = log
    yield d
    await d.drain()
    await ledger.close()


async def test_crisis_language_is_answered_first_then_alerted(desk):
    async def answer(text):
        desk.log.append(("answer", text))

    got = await desk.intake("i want to die", Origin("telegram", chat="1"), answer)
    assert isinstance(got, IntakeResult) and got.verdict.match is not None
    assert "988" in got.reply and got.alert is not None and got.alert.source == "telegram"
    await desk.drain()
    assert desk.log[0] == ("answer", got.reply) and desk.log[1] == ("alert", got.alert.category)
    assert (await desk.get(got.alert.id)).category == got.verdict.match.category  # recorded


async def test_ordinary_text_gets_nothing(desk):
    called = []
    got = await desk.intake("kill the process on port 8080", Origin("discord"), lambda t: called.append(t))
    await desk.drain()
    assert (got.reply, got.alert, called, desk.log) == (None, None, [], [])


async def test_a_failing_answer_never_stops_the_alert(desk):
    async def broken(text):
        raise ConnectionError("platform gone")

    got = await desk.intake("i want to kill myself", Origin("telegram"), broken)
    await desk.drain()
    assert got.alert is not None and ("alert", got.alert.category) in desk.log


async def test_a_report_is_always_an_alert_and_answers_nobody(desk):
    got = await desk.intake("they seemed low today", Origin("api", agent="companion"), reported=True)
    assert got.reply is None and got.alert.category == "reported"
    got = await desk.intake("user said they have pills saved up and want to die", Origin("api"), reported=True)
    assert got.alert.category == got.verdict.match.category != "reported"


def _spy(daemon, monkeypatch) -> list[str]:
    seen: list[str] = []
    real = daemon.broker.crisis.intake

    async def intake(text, origin, *args, **kwargs):
        seen.append(origin.source)
        return await real(text, origin, *args, **kwargs)

    monkeypatch.setattr(daemon.broker.crisis, "intake", intake)
    return seen


async def test_telegram_and_the_api_go_through_the_one_intake(telegram, start_daemon, short_tmp, monkeypatch):
    daemon, api = await start_daemon(make_config(short_tmp, telegram))
    seen = _spy(daemon, monkeypatch)
    telegram.send_user_message(5555, "i want to die", 5555)
    await telegram.wait_for(lambda: telegram.sent(5555), what="reply to the person")
    status, body = await api.call("POST", "/v1/crisis", json={"text": "user said they have pills saved up"})
    assert status == 200 and body["status"] == "crisis"
    assert seen == ["telegram", "api"]


async def test_discord_goes_through_the_one_intake(discord, start_daemon, short_tmp, monkeypatch):
    from tests.conftest import discord_config

    daemon, api = await start_daemon(make_config(short_tmp, None, discord=discord_config(discord, message_content=True)))
    seen = _spy(daemon, monkeypatch)
    discord.send_user_message(9100, "i want to die", 4444, username="kai", dm=True)
    await discord.wait_for(lambda: discord.sent(9100), what="reply in the DM")
    assert seen == ["discord"]
