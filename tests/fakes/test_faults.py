"""The fakes' injected faults, seen from a plain HTTP client (what each one looks like on the wire)."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

from .discord_api import FakeDiscord
from .faults import Fault
from .telegram_api import FakeTelegram


async def _tg(session, tg, method, **params):
    async with session.post(f"{tg.base_url}{tg.token}/{method}", data=params) as resp:
        return resp.status, await resp.json()


async def test_telegram_faults_on_the_wire():
    async with FakeTelegram() as tg, aiohttp.ClientSession() as session:
        tg.inject("sendMessage", Fault.rate_limit(2))
        status, body = await _tg(session, tg, "sendMessage", chat_id="1", text="hi")
        assert (status, body["parameters"]) == (429, {"retry_after": 2})
        tg.inject("sendMessage", Fault.server_error(502))
        assert (await _tg(session, tg, "sendMessage", chat_id="1", text="hi"))[0] == 502
        tg.inject("getMe", Fault.unauthorized())
        assert (await _tg(session, tg, "getMe"))[0] == 401
        tg.inject("sendMessage", Fault.reset())
        with pytest.raises(aiohttp.ClientError):
            await _tg(session, tg, "sendMessage", chat_id="1", text="hi")
        assert tg.sent() == []
        tg.inject("sendMessage", Fault.timeout_after_delivery())
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(_tg(session, tg, "sendMessage", chat_id="1", text="delivered"), 0.3)
        tg.inject("sendMessage", Fault.timeout())
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(_tg(session, tg, "sendMessage", chat_id="1", text="lost"), 0.3)
        assert [m.text for m in tg.sent()] == ["delivered"]
        assert (await _tg(session, tg, "sendMessage", chat_id="1", text="ok"))[0] == 200  # faults used up
        assert [k for _, k in tg.faults.seen] == ["rate_limit", "server_error", "unauthorized", "reset",
                                                  "timeout_after_delivery", "timeout"]


async def test_discord_faults_and_enforce_nonce_on_the_wire():
    async with FakeDiscord(channel_ids=(100,)) as dc, aiohttp.ClientSession() as session:
        url = f"{dc.api_base_url}/channels/100/messages"
        headers = {"Authorization": f"Bot {dc.token}", "Content-Type": "application/json"}

        async def post(body):
            async with session.post(url, data=json.dumps(body), headers=headers) as resp:
                return resp.status, resp.headers, await resp.json(content_type=None)

        dc.inject("POST /channels/100/messages", Fault.rate_limit(0.5))
        status, hdrs, body = await post({"content": "x"})
        assert status == 429 and body["retry_after"] == 0.5 and hdrs["Via"]
        dc.inject("POST /channels/100", Fault.reset())
        with pytest.raises(aiohttp.ClientError):
            await post({"content": "x"})
        dc.inject("POST /channels/100/messages", Fault.timeout_after_delivery())
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(post({"content": "first", "nonce": "77", "enforce_nonce": True}), 0.3)
        status, _, again = await post({"content": "first", "nonce": "77", "enforce_nonce": True})
        assert status == 200 and [m.content for m in dc.sent(100)] == ["first"]  # the nonce returned it
        assert int(again["id"]) == dc.sent(100)[0].id
        status, _, other = await post({"content": "second", "nonce": "77"})  # without enforce_nonce: a new one
        assert status == 200 and len(dc.sent(100)) == 2
