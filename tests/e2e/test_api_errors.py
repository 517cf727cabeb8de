"""The error tree at the API's boundary: one lookup, each error with its status, a 409 that tells the truth."""

from __future__ import annotations

import pytest

from core.crisis_desk import Origin
from core.errors import (
    AlreadyAcknowledged,
    AlreadyDecided,
    ChannelDown,
    IdempotencyConflict,
    NotAllowed,
    NotFound,
    SignoffError,
    UnknownAlert,
)
from tests.conftest import make_config

MEDIUM = {"action": "terminal", "command": "git push origin main"}


def test_each_error_carries_its_http_status_and_code():
    table = {NotFound: (404, "not_found"), UnknownAlert: (404, "not_found"), AlreadyDecided: (409, "already_decided"),
             AlreadyAcknowledged: (409, "already_acknowledged"), IdempotencyConflict: (409, "idempotency_conflict"),
             NotAllowed: (403, "forbidden"), ChannelDown: (503, "channel_down")}
    for cls, (status, code) in table.items():
        assert issubclass(cls, SignoffError)
        assert (cls.http_status, cls.code) == (status, code), cls
    assert issubclass(UnknownAlert, NotFound) and not issubclass(UnknownAlert, KeyError)


def test_channel_down_is_defined_once():
    import adapters.discord_channel as discord_channel
    import adapters.telegram_channel as telegram_channel

    assert telegram_channel.ChannelDown is ChannelDown and discord_channel.ChannelDown is ChannelDown


async def test_a_409_on_a_decided_approval_carries_the_approval_as_it_is(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    _, a = await api.call("POST", "/v1/approvals", json=MEDIUM)
    status, decided = await api.call("POST", f"/v1/approvals/{a['id']}/decision", json={"decision": "deny"})
    assert status == 200
    _, shown = await api.call("GET", f"/v1/approvals/{a['id']}")

    status, err = await api.call("POST", f"/v1/approvals/{a['id']}/decision", json={"decision": "approve"})
    assert status == 409
    assert err["error"]["code"] == "already_decided" and "denied" in err["error"]["message"]
    assert err["error"]["approval"] == shown
    assert err["error"]["approval"]["status"] == "denied"
    assert err["error"]["approval"]["decided_by"] == decided["decided_by"]

    status, err = await api.call("POST", f"/v1/approvals/{a['id']}/cancel")
    assert status == 409 and err["error"]["code"] == "already_decided"
    assert err["error"]["approval"]["status"] == "denied"
    assert err["error"]["approval"]["decided_by"] == decided["decided_by"]


async def test_other_errors_keep_exactly_code_and_message(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    status, err = await api.call("GET", "/v1/approvals/nope")
    assert status == 404 and set(err) == {"error"} and set(err["error"]) == {"code", "message"}
    body = dict(MEDIUM, idempotency_key="k1")
    await api.call("POST", "/v1/approvals", json=body)
    status, err = await api.call("POST", "/v1/approvals", json=dict(body, command="git push --force"))
    assert status == 409 and err["error"]["code"] == "idempotency_conflict" and set(err["error"]) == {"code", "message"}


async def test_unknown_alert_acknowledge_is_a_404_not_a_500(start_daemon, short_tmp, monkeypatch):
    daemon, api = await start_daemon(make_config(short_tmp))
    status, err = await api.call("POST", "/v1/crisis/nosuchalert/ack")
    assert status == 404 and err["error"]["code"] == "not_found" and "nosuchalert" in err["error"]["message"]

    # The alert vanishes between the look-up and the acknowledgement: still the 404 of the tree.
    alert = daemon.broker.crisis.raise_alert("i want to die", Origin("api"), None)

    async def gone(alert_id, actor):
        raise UnknownAlert(alert_id)

    monkeypatch.setattr(daemon.broker.crisis, "acknowledge", gone)
    status, err = await api.call("POST", f"/v1/crisis/{alert.id}/ack")
    assert status == 404 and set(err["error"]) == {"code", "message"} and alert.id in err["error"]["message"]


async def test_a_second_acknowledgement_is_a_409_that_says_who(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    alert = daemon.broker.crisis.raise_alert("i want to die", Origin("api"), None)
    status, first = await api.call("POST", f"/v1/crisis/{alert.id}/ack")
    assert status == 200
    status, err = await api.call("POST", f"/v1/crisis/{alert.id}/ack")
    assert status == 409 and err["error"]["code"] == "already_acknowledged"
    assert "already acknowledged by" in err["error"]["message"]
    assert err["error"]["alert"]["acknowledged_by"] == first["acknowledged_by"]


async def test_the_desk_raises_unknown_alert(start_daemon, short_tmp):
    from core.models import Actor, DecidedVia

    daemon, _ = await start_daemon(make_config(short_tmp))
    with pytest.raises(UnknownAlert) as info:
        await daemon.broker.crisis.acknowledge("nosuchalert", Actor(id="cli:x", via=DecidedVia.CLI))
    assert info.value.alert_id == "nosuchalert" and info.value.http_status == 404


async def test_the_adapters_raise_channel_down_when_not_connected():
    from adapters.discord_channel import DiscordChannel
    from adapters.telegram_channel import TelegramChannel
    from bot.config import DiscordConfig, TelegramConfig
    from core.models import CrisisAlert, utcnow

    alert = CrisisAlert(id="a1", created_at=utcnow(), category="ideation", source="api")
    telegram = TelegramChannel(TelegramConfig(token="123:abc", approval_chat_ids=[1], approver_ids=[2]))
    discord = DiscordChannel(DiscordConfig(token="abc", approval_channel_ids=[1], approver_user_ids=[2]))
    for channel in (telegram, discord):
        with pytest.raises(ChannelDown):
            await channel.alert_crisis(alert, 0)
        with pytest.raises(ChannelDown):
            await channel.update_crisis(alert)
