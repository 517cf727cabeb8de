"""The Discord fake, driven by the real discord.py (REST, gateway, persistent views, dynamic items)."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
import warnings
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakes.discord_api import FakeDiscord, point_discord_py_at, restore_discord_py

APPROVERS = 7001


class Decision(discord.ui.DynamicItem[discord.ui.Button], template=r"signoff:(?P<decision>a|d):(?P<id>[0-9a-f]+)"):
    """Approve / deny button carrying the request id; survives restarts via add_dynamic_items."""

    def __init__(self, decision: str, request_id: str) -> None:
        style = discord.ButtonStyle.success if decision == "a" else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label="Approve" if decision == "a" else "Deny", style=style,
                                           custom_id=f"signoff:{decision}:{request_id}"))
        self.decision, self.request_id = decision, request_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any) -> Decision:
        return cls(match["decision"], match["id"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if any(role.id == APPROVERS for role in getattr(interaction.user, "roles", [])):
            return True
        await interaction.response.send_message("You may not decide this request.", ephemeral=True)
        return False

    async def callback(self, interaction: discord.Interaction) -> None:
        client: SignoffClient = interaction.client  # type: ignore[assignment]
        client.decisions.append((self.request_id, self.decision, interaction.user.id))
        await interaction.response.send_message(f"Recorded {self.decision} for {self.request_id}", ephemeral=True)
        assert interaction.message is not None
        await interaction.message.edit(content=f"Decided: {self.decision}", view=None)


class ToolsView(discord.ui.View):
    """A persistent view with static custom_ids (registered with add_view on every start)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Help", custom_id="signoff:help")
    async def help(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("Help text", ephemeral=True)

    @discord.ui.button(label="Ack", custom_id="signoff:ack")
    async def ack(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content="Acknowledged", view=None)


class SignoffClient(discord.Client):
    def __init__(self, message_content: bool = True) -> None:
        intents = discord.Intents.default()
        intents.guilds = True
        intents.message_content = message_content
        super().__init__(intents=intents, guild_ready_timeout=0.05)
        self.decisions: list[tuple[str, str, int]] = []
        self.user_messages: list[discord.Message] = []

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Decision)
        self.add_view(ToolsView())

    async def on_message(self, message: discord.Message) -> None:
        if self.user is not None and message.author.id != self.user.id:
            self.user_messages.append(message)


@pytest.fixture
async def dc() -> AsyncIterator[FakeDiscord]:
    loop = asyncio.get_running_loop()
    problems: list[Any] = []
    loop.set_exception_handler(lambda _loop, ctx: problems.append(ctx))
    async with FakeDiscord() as fake:
        point_discord_py_at(fake.api_base_url, fake.gateway_url)
        try:
            yield fake
        finally:
            restore_discord_py()
    # Clean shutdown: no tasks, keep-alive threads or unclosed aiohttp sessions left behind.
    for _ in range(20):
        await asyncio.sleep(0.01)
        if not [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
            break
    assert [t for t in asyncio.all_tasks() if t is not asyncio.current_task()] == []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gc.collect()
    assert [w for w in caught if "nclosed" in str(w.message)] == []
    assert problems == []
    for thread in threading.enumerate():
        if thread.name.startswith("keep-alive-handler"):
            thread.join(1)
            assert not thread.is_alive()


@asynccontextmanager
async def running(dc: FakeDiscord, **kwargs: Any) -> AsyncIterator[SignoffClient]:
    client = SignoffClient(**kwargs)
    task = asyncio.create_task(client.start(dc.token))
    try:
        await dc.wait_for(lambda: client.is_ready() or task.done(), what="client ready")
        if task.done():
            task.result()
        yield client
    finally:
        await client.close()
        await asyncio.wait_for(task, 5)


async def raw(dc: FakeDiscord, method: str, path: str, body: Any = None, auth: bool = True) -> tuple[int, Any, str]:
    headers = {"Authorization": f"Bot {dc.token}"} if auth else {}
    async with aiohttp.ClientSession() as session, session.request(
        method, dc.api_base_url + path, json=body, headers=headers) as resp:
        ctype = resp.headers.get("Content-Type", "")
        return resp.status, (await resp.json() if ctype == "application/json" else await resp.text()), ctype


def card(request_id: str) -> tuple[discord.Embed, discord.ui.View]:
    embed = discord.Embed(title="Approve deploy?", description="Agent wants to run `deploy prod`.")
    embed.add_field(name="Agent", value="ci-bot")
    view = discord.ui.View(timeout=None)
    view.add_item(Decision("a", request_id))
    view.add_item(Decision("d", request_id))
    return embed, view


async def send_card(client: discord.Client, request_id: str = "1f") -> discord.Message:
    channel = client.get_channel(100)
    assert isinstance(channel, discord.TextChannel)
    embed, view = card(request_id)
    return await channel.send(embed=embed, view=view)


async def test_login_card_press_and_role_check(dc: FakeDiscord) -> None:
    async with running(dc) as client:
        assert dc.gateway_queries == [{"v": "10", "encoding": "json", "compress": "zlib-stream"}]
        assert client.user is not None and client.user.id == 4242 and client.application_id == 4242
        guild = client.get_guild(5000)
        assert guild is not None and guild.get_role(APPROVERS) is not None and guild.get_channel(300) is not None
        msg = await send_card(client)
        held = dc.messages[msg.id]
        assert held.custom_ids == ["signoff:a:1f", "signoff:d:1f"] and held.embeds[0]["title"] == "Approve deploy?"
        assert held.embeds[0]["fields"] == [{"name": "Agent", "value": "ci-bot", "inline": True}]

        dc.press(msg.id, "signoff:a:1f", user_id=11, username="mallory")  # no approver role
        await dc.wait_for(lambda: len(dc.interaction_responses) == 1)
        refusal = dc.interaction_responses[0]
        assert refusal["type"] == 4 and refusal["data"]["flags"] == 64
        assert refusal["data"]["content"] == "You may not decide this request."
        assert client.decisions == [] and dc.messages[msg.id].custom_ids

        dc.press(msg.id, "signoff:a:1f", user_id=12, role_ids=[APPROVERS])
        await dc.wait_for_call("PATCH", f"/channels/100/messages/{msg.id}")
        assert client.decisions == [("1f", "a", 12)]
        held = dc.messages[msg.id]
        assert held.content == "Decided: a" and held.components == [] and held.embeds and len(held.history) == 1
        assert dc.interaction_responses[1]["data"]["content"] == "Recorded a for 1f"
        with pytest.raises(AssertionError, match="no enabled button"):
            dc.press(msg.id, "signoff:d:1f", user_id=12, role_ids=[APPROVERS])
        assert [m.id for m in dc.sent(100)] == [msg.id]
        assert len(dc.sent(100, include_ephemeral=True)) == 3

        dc.send_user_message(100, "the agent is deleting things", user_id=13)
        dc.send_user_message(777, "hi in DM", user_id=14, dm=True)
        await dc.wait_for(lambda: len(client.user_messages) == 2)
        assert [m.content for m in client.user_messages] == ["the agent is deleting things", "hi in DM"]
        assert isinstance(client.user_messages[1].channel, discord.DMChannel)
        dm_channel = await client.user_messages[1].author.create_dm()
        assert dm_channel.id == 777
        embed, view = card("2e")
        dm_card = await dm_channel.send(embed=embed, view=view)
        assert dc.sent(777)[0].guild_id is None
        dc.press(dm_card.id, "signoff:a:2e", user_id=14, in_guild=False)  # a DM press has no member roles
        await dc.wait_for(lambda: len(dc.interaction_responses) == 3)
        assert dc.interaction_responses[2]["data"]["content"] == "You may not decide this request."
        with pytest.raises(AssertionError, match="not in a guild"):
            dc.press(dm_card.id, "signoff:a:2e", user_id=14, in_guild=True)


async def test_persistent_view_defer_followup_and_update(dc: FakeDiscord) -> None:
    async with running(dc) as client:
        channel = client.get_channel(200)
        assert isinstance(channel, discord.TextChannel)
        msg = await channel.send("Tools", view=ToolsView())
        dc.press(msg.id, "signoff:help", user_id=12)
        await dc.wait_for_call("POST", "/webhooks/4242/")
        help_msg = dc.sent(200, include_ephemeral=True)[-1]
        assert help_msg.content == "Help text" and help_msg.ephemeral and help_msg.flags & 128 == 0
        dc.press(msg.id, "signoff:ack", user_id=12)
        await dc.wait_for(lambda: len(dc.interaction_responses) == 2)
        assert [r["type"] for r in dc.interaction_responses] == [5, 7]
        assert dc.messages[msg.id].content == "Acknowledged" and dc.messages[msg.id].components == []


async def test_restarted_client_handles_old_buttons(dc: FakeDiscord) -> None:
    async with running(dc) as first:
        msg = await send_card(first, "abc123")
    # discord.py's close() usually ends up sending close code 4000 (its poll loop closes first), so the
    # old session stays resumable; a press now is buffered for it and never handled, as on Discord.
    await dc.wait_for(lambda: not dc.connected)
    dc.press(msg.id, "signoff:a:abc123", user_id=12, role_ids=[APPROVERS])
    async with running(dc) as second:
        dc.press(msg.id, "signoff:d:abc123", user_id=12, role_ids=[APPROVERS])
        await dc.wait_for(lambda: second.decisions == [("abc123", "d", 12)])
        await dc.wait_for_call("PATCH", f"/messages/{msg.id}")
    assert first.decisions == [] and dc.identify_count == 2 and dc.resume_count == 0


async def test_gateway_disconnect_resumes_and_replays(dc: FakeDiscord) -> None:
    async with running(dc) as client:
        msg = await send_card(client)
        await dc.disconnect_gateway(4000)
        dc.press(msg.id, "signoff:a:1f", user_id=12, role_ids=[APPROVERS])  # while disconnected: replayed
        await dc.wait_for(lambda: dc.resume_count == 1 and client.decisions)
        await dc.disconnect_gateway(None)  # TCP drop
        await dc.wait_for(lambda: dc.resume_count == 2 and dc.connected)
        assert dc.identify_count == 1


async def test_outage_and_recovery(dc: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.backoff.ExponentialBackoff, "delay", lambda self: 0.05)
    async with running(dc) as client:
        dc.down = True
        await dc.wait_for(lambda: not dc.connected)
        status, body, _ = await raw(dc, "GET", "/users/@me")
        assert status == 502 and "Bad Gateway" in body
        await asyncio.sleep(0.2)  # a few refused reconnects
        dc.down = False
        await dc.wait_for(lambda: dc.resume_count == 1 and dc.connected)
        msg = await send_card(client)
        assert dc.messages[msg.id].custom_ids


async def test_rate_limit_is_retried_by_discord_py(dc: FakeDiscord) -> None:
    async with running(dc) as client:
        dc.fail_next("POST /channels/100/messages", status=429, retry_after=0.1)
        started = time.monotonic()
        msg = await send_card(client)
        assert time.monotonic() - started >= 0.1
        assert [c.status for c in dc.calls_to("POST", "/channels/100/messages")] == [429, 200]
        assert dc.messages[msg.id].custom_ids


async def test_press_without_any_session_is_refused(dc: FakeDiscord) -> None:
    status, msg, _ = await raw(dc, "POST", "/channels/100/messages", {"content": "card", "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "signoff:a:1"}]}]})
    assert status == 200
    with pytest.raises(AssertionError, match="no gateway session"):
        dc.press(int(msg["id"]), "signoff:a:1", user_id=12)


async def test_rest_errors_in_discord_shape(dc: FakeDiscord) -> None:
    async with running(dc) as client:
        channel = client.get_channel(100)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.HTTPException) as exc:
            await channel.send(embed=discord.Embed(title="x" * 257))
        assert exc.value.status == 400 and exc.value.code == 50035 and "embeds.0.title" in exc.value.text
        long_id = discord.ui.View(timeout=None).add_item(discord.ui.Button(label="x", custom_id="y" * 101))
        with pytest.raises(discord.HTTPException, match="custom_id"):
            await channel.send("hi", view=long_id)
        with pytest.raises(discord.HTTPException, match="6000"):
            await channel.send(embeds=[discord.Embed(description="d" * 4000), discord.Embed(description="d" * 2001)])

    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": str(i), "custom_id": f"b{i}"} for i in range(6)]}
    status, body, ctype = await raw(dc, "POST", "/channels/100/messages", {"content": "x", "components": [row]})
    assert (status, ctype) == (400, "application/json")
    assert body["errors"]["components"]["0"]["components"]["_errors"][0]["code"] == "BASE_TYPE_BAD_LENGTH"
    assert (await raw(dc, "GET", "/users/@me", auth=False))[:2] == (401, {"message": "401: Unauthorized", "code": 0})
    assert (await raw(dc, "GET", "/guilds/5000/bans"))[0] == 404
    assert (await raw(dc, "POST", "/channels/999/messages", {"content": "x"}))[1]["code"] == 10003
    assert (await raw(dc, "POST", "/channels/100/messages", {"content": ""}))[1]["code"] == 50006


async def test_interaction_callback_rules(dc: FakeDiscord) -> None:
    async with running(dc):
        status, msg, _ = await raw(dc, "POST", "/channels/100/messages", {"content": "raw", "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "unhandled:1"}]}]})
        assert status == 200
        iid = dc.press(int(msg["id"]), "unhandled:1", user_id=12)  # no handler in the client: nobody answers
        token = dc._interactions[iid].token
        assert (await raw(dc, "POST", f"/webhooks/4242/{token}", {"content": "early"}, auth=False))[1]["code"] == 10015
        callback = f"/interactions/{iid}/{token}/callback?with_response=true"
        status, body, _ = await raw(dc, "POST", callback, {"type": 6}, auth=False)
        assert status == 200 and body["interaction"]["id"] == iid
        status, body, _ = await raw(dc, "POST", callback, {"type": 4, "data": {"content": "again"}}, auth=False)
        assert (status, body["code"]) == (400, 40060)
        original = f"/webhooks/4242/{token}/messages/@original"  # after a type 6: the component's message
        assert (await raw(dc, "PATCH", original, {"content": "edited", "components": []}, auth=False))[0] == 200
        assert dc.messages[int(msg["id"])].content == "edited" and dc.messages[int(msg["id"])].components == []
        dc.interaction_timeout = 0.1
        late = dc.press(int(msg["id"]), "unhandled:1", user_id=12, forged=True)  # button already removed
        await asyncio.sleep(0.15)
        status, body, _ = await raw(dc, "POST", f"/interactions/{late}/{dc._interactions[late].token}/callback",
                                    {"type": 6}, auth=False)
        assert (status, body["code"]) == (404, 10062)


async def test_message_content_intent(dc: FakeDiscord) -> None:
    async with running(dc, message_content=False) as client:
        dc.send_user_message(100, "secret", user_id=13)
        dc.send_user_message(100, "<@4242> hello", user_id=13)
        dc.send_user_message(778, "dm text", user_id=13, dm=True)
        await dc.wait_for(lambda: len(client.user_messages) == 3)
        assert [m.content for m in client.user_messages] == ["", "<@4242> hello", "dm text"]
    dc.privileged_intents = 0
    client = SignoffClient(message_content=True)
    try:
        with pytest.raises(discord.PrivilegedIntentsRequired):
            await asyncio.wait_for(client.start(dc.token), 5)
    finally:
        await client.close()
