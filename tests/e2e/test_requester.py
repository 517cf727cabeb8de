"""Who asked: the uid and pid of the process at the other end of the Unix socket are recorded on the
approval and its request event, beside the agent's own name, and every card shows them."""

from __future__ import annotations

import io
import os

from adapters.terminal import TerminalChannel
from tests.conftest import APPROVAL_CHAT, DISCORD_APPROVAL, discord_config, make_config
from tests.e2e.test_discord_flow import MEDIUM_CMD, embed_text


async def test_socket_peer_is_recorded_and_shown_on_telegram_and_discord(telegram, discord, start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp, telegram, discord=discord_config(discord)))
    status, approval = await api.call("POST", "/v1/approvals", json=MEDIUM_CMD)  # this process asks
    assert status in (200, 201, 202), approval
    me = f"uid {os.getuid()}, pid {os.getpid()}"
    assert (approval["requester_uid"], approval["requester_pid"]) == (os.getuid(), os.getpid())
    _, again = await api.call("GET", f"/v1/approvals/{approval['id']}")
    assert (again["requester_uid"], again["requester_pid"]) == (os.getuid(), os.getpid())
    [created] = [e for e in (await daemon.ledger.events([approval["id"]]))[approval["id"]] if e.kind == "created"]
    assert created.details["agent"] == "claude"
    assert (created.details["requester_uid"], created.details["requester_pid"]) == (os.getuid(), os.getpid())

    await telegram.wait_for(lambda: telegram.sent(APPROVAL_CHAT), what="telegram card")
    assert f"Agent: claude ({me})" in telegram.sent(APPROVAL_CHAT)[0].text
    await discord.wait_for(lambda: discord.sent(DISCORD_APPROVAL), what="discord card")
    assert f"Agent: claude ({me})" in embed_text(discord.sent(DISCORD_APPROVAL)[0])


async def test_socket_peer_is_shown_on_the_terminal_card(start_daemon, short_tmp):
    out = io.StringIO()
    daemon, api = await start_daemon(make_config(short_tmp, terminal=True), channels=[TerminalChannel(out)])
    _, approval = await api.call("POST", "/v1/approvals", json={k: v for k, v in MEDIUM_CMD.items() if k != "agent"})
    await daemon.broker.drain()
    assert f"Agent: uid {os.getuid()}, pid {os.getpid()}\n" in out.getvalue()  # no name given: who asked still shows
