"""Discord approval cards with discord.py, in the daemon's own event loop.

Cards go to every ``approval_channel_ids`` channel as an embed (tier colour, agent, action, the masked
and escaped command, description, reason, time left) with Approve / Deny buttons whose ``custom_id``
is ``signoff:a:<id>`` / ``signoff:d:<id>`` (Discord allows up to 100 characters). The buttons are a
:class:`discord.ui.DynamicItem` registered in ``setup_hook`` on every start, so discord.py routes a
press on any card, including one posted before a restart, with nothing stored in memory.

A press is checked before anything changes: the pressed message must carry the pressed ``custom_id``
(Discord's copy of the message, which a client cannot forge), it must be in an approval or on-call
channel, and the presser must be in ``approver_user_ids`` or (in a guild) hold one of
``approver_role_ids`` (the member's roles come with the interaction: no privileged intent needed).
Every interaction is answered exactly once within Discord's 3-second limit: at once with an ephemeral
reply when the decision is quick, else deferred (ephemeral "thinking") and followed up.

Crisis alerts go to ``crisis_channel_ids`` (re-alerts also to ``oncall_channel_ids``) with an "I'm on
it" button (``signoff:k:<alert id>``, another DynamicItem) that anyone in those channels may press.

Cards are edited by REST (``channel_id:message_id`` refs kept by the broker, in the ledger), so edits work after a
restart without any cache. Health follows the gateway: up on READY / RESUMED, down on a disconnect.

``api_base_url`` and ``gateway_url`` are applied by setting discord.py's class attributes
``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``: they are
process-wide (discord.py 2.x has no per-client setting), so one process talks to one Discord.
Sources: https://discord.com/developers/docs/interactions/receiving-and-responding ,
https://discord.com/developers/docs/resources/message#embed-object-embed-limits .
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl

from adapters.cards import TIER_COLOURS, Card, build_card, cut, mask_secrets
from core.channel import APPROVAL, CardChange
from core.crisis_desk import CrisisAlert, Origin
from core.errors import AlreadyAcknowledged, ChannelDown, UnknownAlert
from core.models import Actor, Approval, DecidedVia, Status
from core.retry import RECONNECT_POLICY, SEND_POLICY, Fault, RetryPolicy, retry_later
from core.retry import call as with_retries
from core.tiers import Tier

if TYPE_CHECKING:
    from bot.config import DiscordConfig
    from core.broker import Broker

log = logging.getLogger("signoff.discord")

#: Discord's own limits (embed limits; message content; custom_id).
MAX_TITLE, MAX_DESCRIPTION, MAX_FIELD, MAX_EMBED_TOTAL = 256, 4096, 1024, 6000
MAX_CONTENT, MAX_CUSTOM_ID = 2000, 100
#: Every interaction must be answered within 3 s; past this we defer and follow up.
ANSWER_WITHIN_S = 1.5
#: discord.py retries 5xx answers itself for ~25 s; no REST call of ours waits longer than this.
REST_TIMEOUT_S = 10.0
LOGIN_TIMEOUT_S = 15.0
#: Requests (send, edit): retried as core.retry says, within this policy's budget.
REQUEST_POLICY: RetryPolicy = SEND_POLICY
#: How long start() waits for the first connection before letting the daemon go on (stays retrying).
START_WAIT_S = 3.0

CUSTOM_ID_PREFIX = "signoff:"
CUSTOM_ID_TEMPLATE = r"signoff:(?P<decision>[ad]):(?P<id>[0-9A-Za-z]{1,64})"
ACK_ID_TEMPLATE = r"signoff:k:(?P<id>[0-9A-Za-z]{1,64})"  # "I'm on it" on a crisis alert
_CUSTOM_ID = re.compile(CUSTOM_ID_TEMPLATE)
_ACK_ID = re.compile(ACK_ID_TEMPLATE)


def classify(exc: BaseException) -> Fault | None:
    """The one mapping of discord.py's and aiohttp's errors to :mod:`core.retry` faults.

    discord.py already waits out 429s (sleeping ``retry_after``) and retries 500/502/504/524 five
    times (1+3+5+7+9 s) inside each request; what reaches here is what it gave up on.
    RateLimited: wait ``retry_after``. TimeoutError (our REST timeout, aiohttp's read timeout):
    delivered-unknown. A 5xx, a refused or reset connection, an OSError: transient. A 429 without
    Discord's headers (Cloudflare): wait its Retry-After, else transient. Any other HTTP error (400,
    401, 403, 404), a refused login: permanent. Anything else: None (not a platform fault).
    Source: discord/http.py ``HTTPClient.request`` (discord.py 2.7).
    """
    if isinstance(exc, discord.RateLimited):
        return Fault.wait(exc.retry_after, f"rate limited for {exc.retry_after:g} s")
    if isinstance(exc, TimeoutError):  # (aiohttp.ServerTimeoutError is one too)
        return Fault.unknown("no answer from Discord in time")
    if isinstance(exc, discord.HTTPException):
        status = getattr(exc, "status", 0)
        if status == 429:
            header = exc.response.headers.get("Retry-After") if exc.response is not None else None
            with contextlib.suppress(TypeError, ValueError):
                return Fault.wait(float(header), f"429 retry after {header} s")
            return Fault.transient("429 without retry-after")
        if status >= 500:
            return Fault.transient(f"{status} from Discord")
        return Fault.permanent(f"{status} {exc.text or ''}".strip())
    if isinstance(exc, discord.DiscordException):
        return Fault.permanent(repr(exc))
    if isinstance(exc, (aiohttp.ClientError, OSError)):
        return Fault.transient(repr(exc))
    return None

def custom_id(approve: bool, approval_id: str) -> str:
    return f"signoff:{'a' if approve else 'd'}:{approval_id}"


def parse_custom_id(value: str | None) -> tuple[bool, str] | None:
    """``"signoff:a:<id>"`` → (True, id), ``"signoff:d:<id>"`` → (False, id); anything else → None."""
    m = _CUSTOM_ID.fullmatch(value or "")
    if m is None:
        return None
    return m["decision"] == "a", m["id"]


# rendering ---------------------------------------------------------------------------------------

def _md(text: str, limit: int) -> str:
    """``text`` with Discord markdown escaped, at most ``limit`` characters (escaping at most doubles
    the length, so a cut to half always fits)."""
    escaped = discord.utils.escape_markdown(text)
    if len(escaped) > limit:
        escaped = discord.utils.escape_markdown(cut(text, limit // 2))
    return escaped


def _code_block(text: str, limit: int) -> str:
    """``text`` in a code block that it cannot close: runs of backticks are broken with zero-width
    spaces; at most ``limit`` characters in all."""
    def fenced(body: str) -> str:
        while "``" in body:
            body = body.replace("``", "`\u200b`")
        return f"```\n{body}\n```"

    block = fenced(text)
    if len(block) > limit:
        block = fenced(cut(text, max((limit - 8) // 2, 0)))
    return block


def _inline_code(text: str, limit: int) -> str:
    body = text.replace("`", "ˋ")
    return f"`{cut(body, limit - 2)}`"


def render_embed(card: Card) -> discord.Embed:
    """The card as an embed within Discord's limits (fields ≤ 1024, description ≤ 4096, all ≤ 6000)."""
    embed = discord.Embed(title=_md(f"{card.mark} {card.title}", MAX_TITLE), colour=TIER_COLOURS[card.tier])
    if card.escalated and card.status is Status.PENDING:
        embed.set_author(name="⬆ Escalated: needs a decision")
    fields: list[tuple[str, str, bool]] = []
    if card.agent:
        fields.append(("Agent", _md(card.agent, 256), True))
    fields.append(("Action", _inline_code(card.action, 256), True))
    if card.description:
        fields.append(("Description", _md(card.description, MAX_FIELD), False))
    # The policy's reason may quote the command: mask it too (build_card does not, as of writing).
    fields.append(("Why", _md(mask_secrets(card.reason), MAX_FIELD), False))
    if card.outcome:
        fields.append(("Outcome", _md(card.outcome, MAX_FIELD), False))
    elif card.time_left:
        then = "escalates" if card.tier < Tier.CRITICAL else "is denied"
        fields.append(("Time left", _md(f"Decide within {card.time_left}, or it {then}.", MAX_FIELD), False))
    footer = f"signoff {card.approval_id}"
    used = len(embed.title or "") + len(footer) + sum(len(n) + len(v) for n, v, _ in fields) + 40
    if card.command:
        embed.description = _code_block(card.command, min(MAX_DESCRIPTION, MAX_EMBED_TOTAL - used))
    for name, value, inline in fields:
        embed.add_field(name=name, value=value or "-", inline=inline)
    embed.set_footer(text=footer)
    return embed


def render_crisis_embed(alert: CrisisAlert, realert: int = 0) -> discord.Embed:
    """A responders' alert: what was said, where, by whom, and whether someone is on it."""
    said = alert.text or alert.evidence or "(text not available)"
    title = ("🟡 " if alert.is_concern else "🆘 ") + alert.headline + (
        f" — nobody has acknowledged it yet (#{realert})" if realert else "")
    embed = discord.Embed(title=title, colour=TIER_COLOURS[Tier.CRITICAL],
                          description=_md(cut(said, 1500), MAX_DESCRIPTION))
    embed.add_field(name="Where", value=_md(alert.where, MAX_FIELD) or "-", inline=True)
    if alert.user_ref:
        who = f"{alert.user_name or ''} {alert.user_ref}".strip()
        embed.add_field(name="Who", value=_md(who, MAX_FIELD), inline=True)
    embed.add_field(name="Signal", value=_md(alert.signal, MAX_FIELD), inline=False)
    if alert.acknowledged_by:
        when = alert.acknowledged_at.strftime("%H:%M:%S UTC") if alert.acknowledged_at else ""
        name = alert.acknowledged_by_name or alert.acknowledged_by
        embed.add_field(name="Responder", value=_md(f"✋ {name} is on it (since {when})", MAX_FIELD), inline=False)
    else:
        embed.add_field(name="Responder", value="A person may need help now. Press **I'm on it** when you take it.",
                        inline=False)
    embed.set_footer(text=f"signoff crisis {alert.id}")
    return embed


class DecisionButton(discord.ui.DynamicItem[discord.ui.Button], template=CUSTOM_ID_TEMPLATE):
    """Approve / Deny carrying the approval id; registered in ``setup_hook`` on every start, so
    presses on cards posted before a restart are routed here too."""

    def __init__(self, approve: bool, approval_id: str) -> None:
        super().__init__(discord.ui.Button(
            label="Approve" if approve else "Deny", emoji="✅" if approve else "⛔",
            style=discord.ButtonStyle.success if approve else discord.ButtonStyle.danger,
            custom_id=custom_id(approve, approval_id)))
        self.approve, self.approval_id = approve, approval_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> DecisionButton:
        return cls(match["decision"] == "a", match["id"])

    async def callback(self, interaction: discord.Interaction) -> None:
        channel: DiscordChannel | None = getattr(interaction.client, "signoff_channel", None)
        if channel is None:
            return
        await channel._on_press(interaction, self.approve, self.approval_id)


class AckButton(discord.ui.DynamicItem[discord.ui.Button], template=ACK_ID_TEMPLATE):
    """"I'm on it" on a crisis alert; routed after restarts like :class:`DecisionButton`."""

    def __init__(self, alert_id: str) -> None:
        super().__init__(discord.ui.Button(label="I'm on it", emoji="✋", style=discord.ButtonStyle.primary,
                                           custom_id=f"signoff:k:{alert_id}"))
        self.alert_id = alert_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> AckButton:
        return cls(match["id"])

    async def callback(self, interaction: discord.Interaction) -> None:
        channel: DiscordChannel | None = getattr(interaction.client, "signoff_channel", None)
        if channel is None:
            return
        await channel._on_acknowledge(interaction, self.alert_id)


def crisis_view(alert_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AckButton(alert_id))
    return view


def card_view(approval_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DecisionButton(True, approval_id))
    view.add_item(DecisionButton(False, approval_id))
    return view


class _Client(discord.Client):
    """discord.py's client, wired to one :class:`DiscordChannel`."""

    def __init__(self, channel: DiscordChannel, guild_ready_timeout: float):
        intents = discord.Intents.default()  # GUILDS, DM and guild messages; DMs carry their text
        # Text of guild messages needs the privileged MESSAGE_CONTENT intent, which Discord refuses
        # (closing the gateway) unless it is enabled in the developer portal: opt in only.
        intents.message_content = channel.config.message_content
        super().__init__(intents=intents, guild_ready_timeout=guild_ready_timeout, max_messages=None,
                         allowed_mentions=discord.AllowedMentions.none(), chunk_guilds_at_startup=False)
        self.signoff_channel = channel

    async def setup_hook(self) -> None:
        self.add_dynamic_items(DecisionButton, AckButton)

    async def on_connect(self) -> None:  # READY of a new session
        self.signoff_channel._gateway_up("connected")

    async def on_resumed(self) -> None:
        self.signoff_channel._gateway_up("resumed")

    async def on_disconnect(self) -> None:
        self.signoff_channel._gateway_down()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.signoff_channel._on_interaction(interaction)

    async def on_message(self, message: discord.Message) -> None:
        await self.signoff_channel._on_message(message)


class DiscordChannel:
    """The Discord channel (a :class:`core.channel.Channel`).

    Args:
        config: the ``discord`` section (token, channels, approvers, roles, URLs).
        guild_ready_timeout: discord.py's wait for guilds before ``on_ready`` (tests pass a small one;
            nothing here waits for ``on_ready``).
    """

    name = "discord"

    def __init__(self, config: DiscordConfig, guild_ready_timeout: float = 2.0):
        self.config = config
        self.broker: Broker | None = None
        self.client: _Client | None = None
        self.guild_ready_timeout = guild_ready_timeout
        self.rest_timeout = REST_TIMEOUT_S
        self._up = False
        self._stopping = False
        self._connector: asyncio.Task | None = None
        self._first_up = asyncio.Event()
        self._approvers = set(config.approver_user_ids)
        self._approver_roles = set(config.approver_role_ids)
        self._press_channels = set(config.approval_channel_ids) | set(config.oncall_channel_ids)
        self._responder_channels = (set(config.crisis_channel_ids or config.approval_channel_ids)
                                    | set(config.oncall_channel_ids))
        self._tasks: set[asyncio.Task] = set()
        self._later: asyncio.Task | None = None  # a resync after a wait longer than the retry budget
        self._patched: tuple[Any, Any] | None = None
        #: Why the channel is down for good (a refused token or intents), for logs and health; None otherwise.
        self.problem: str | None = None

    def bind(self, broker: Broker) -> None:
        self.broker = broker

    # lifecycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect in the background; an outage leaves the channel down and retrying."""
        self._stopping = False
        self._point_discord_py()
        self._connector = asyncio.create_task(self._run(), name="signoff-discord-connector")
        # Usually connected within milliseconds; never hold up the daemon's start for an outage
        # (nor wait out the timeout when the connector already gave up, e.g. on a refused token).
        first_up = asyncio.ensure_future(self._first_up.wait())
        await asyncio.wait({first_up, self._connector}, timeout=START_WAIT_S, return_when=asyncio.FIRST_COMPLETED)
        first_up.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await first_up

    def _point_discord_py(self) -> None:
        """Apply ``api_base_url`` / ``gateway_url`` where they differ from what discord.py uses now.
        These are class attributes, so the setting is process-wide; stop() puts the old values back."""
        old = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        base = self.config.api_base_url.rstrip("/")
        if base != discord.http.Route.BASE:
            discord.http.Route.BASE = base
        if self.config.gateway_url:
            gateway = yarl.URL(self.config.gateway_url)
            if gateway != discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY:
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway
        if (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) != old:
            self._patched = old

    async def _run(self) -> None:
        """Log in and keep the gateway connected; discord.py reconnects and resumes by itself, this
        loop starts over with a fresh client when it gives up (or the login failed)."""
        attempt = 0
        token = self.config.token.get_secret_value() if self.config.token else ""
        while not self._stopping:
            client = _Client(self, self.guild_ready_timeout)
            self.client = client
            try:
                # login() is REST; discord.py sleeps ~25 s retrying 5xx answers: cut that short.
                await asyncio.wait_for(client.login(token), timeout=LOGIN_TIMEOUT_S)
                attempt = 0
                await client.connect(reconnect=True)
            except discord.LoginFailure:
                self.problem = ("discord refused the bot token (discord.token / $SIGNOFF_DISCORD_TOKEN); "
                                "the Discord channel stays down until the daemon restarts with a valid token")
                log.error("%s", self.problem)
                await self._close_client(client)
                return
            except discord.PrivilegedIntentsRequired:
                self.problem = "discord refused the gateway intents; the Discord channel stays down"
                log.error("%s", self.problem)
                await self._close_client(client)
                return
            except asyncio.CancelledError:
                await self._close_client(client)
                raise
            except Exception as exc:
                if not self._stopping:
                    log.warning("discord unreachable (%r)", exc)
            self._up = False
            await self._close_client(client)
            if self._stopping:
                return
            delay = RECONNECT_POLICY.backoff(attempt)
            attempt += 1
            log.warning("discord: connecting again in %.1f s", delay)
            await asyncio.sleep(delay)

    @staticmethod
    async def _close_client(client: discord.Client) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.close(), timeout=5.0)

    async def stop(self) -> None:
        self._stopping = True
        self._up = False
        if self.client is not None:
            await self._close_client(self.client)
        if self._connector is not None and not self._connector.done():
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._connector), timeout=2.0)
            if not self._connector.done():
                self._connector.cancel()
                with contextlib.suppress(BaseException):
                    await self._connector
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._patched is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._patched
            self._patched = None

    def is_up(self) -> bool:
        return self._up

    async def _on_message(self, message: discord.Message) -> None:
        """A person writes to the bot (a DM, or a channel it reads): crisis language gets the
        resources at once in that channel, then the responders are alerted; a message in the model's grey
        zone gets a gentle check-in with the resources and a quiet note to the responders."""
        if message.author.bot or not message.content or message.channel.id in self.config.crisis_channel_ids:
            return
        where = "DM" if message.guild is None else str(message.channel.id)
        origin = Origin("discord", chat=where, user_ref=f"discord:{message.author.id}",
                        user_name=f"@{message.author.name}")
        await self.broker.crisis.intake(
            message.content, origin, lambda reply: asyncio.wait_for(message.reply(reply, mention_author=False),
                                                                    REST_TIMEOUT_S))

    def _gateway_up(self, how: str) -> None:
        was = self._up
        self._up = True
        self._first_up.set()
        if not was:
            user = self.client.user if self.client is not None else None
            log.info("discord %s as %s", how, user)
        self._spawn(self._resync())

    def _gateway_down(self) -> None:
        if self._up and not self._stopping:
            log.warning("discord gateway disconnected; discord.py is reconnecting")
        self._up = False

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _ready(self) -> bool:
        """Logged in (REST usable: the token was accepted), not closed."""
        c = self.client
        return c is not None and c.user is not None and not c.is_closed() and self.broker is not None

    async def _resync(self) -> None:
        """Post a card for every pending approval that has no Discord card yet (posted while down),
        and bring up to date the cards that missed an update."""
        if self.broker is None:
            return
        try:
            await self.broker.refresh_stale(self)
        except Exception:
            log.exception("discord resync: could not refresh stale cards")
        try:
            pending = await self.broker.pending()
        except Exception:
            log.exception("discord resync: could not read pending approvals")
            return
        for approval in pending:
            try:  # _post skips an approval already shown (also one whose first post was in flight)
                if (await self._post(approval))[1]:
                    await self.broker.record(approval.id, "card_posted", channel=self.name, resync=True)
            except Exception as exc:
                log.warning("discord resync: card %s not posted: %r", approval.id, exc)

    def _resync_after(self, exc: BaseException) -> None:
        """A card was not posted for a reason that passes (a long rate limit, 5xx past the retry budget)
        while the channel is up: post the missed cards again once the wait is over (at least
        ``REQUEST_POLICY.cap`` seconds). One such resync is pending at a time."""
        delay = retry_later(classify(exc), REQUEST_POLICY)
        if delay is None or (self._later is not None and not self._later.done()):
            return

        async def later() -> None:
            await asyncio.sleep(delay)
            if self._up and not self._stopping:
                await self._resync()

        log.info("discord: missed cards are posted again in %.1f s", delay)
        self._later = asyncio.ensure_future(later())
        self._tasks.add(self._later)
        self._later.add_done_callback(self._tasks.discard)

    # sending ---------------------------------------------------------------------------------

    async def _send(self, channel_id: int, **kwargs) -> discord.Message:
        """Send a message, retried as :mod:`core.retry` says. Every attempt carries the same nonce with
        ``enforce_nonce`` (discord.py sets it), so Discord answers a repeat with the message the first
        attempt created: a timeout after delivery is retried without posting a duplicate (Discord keeps
        nonces for a few minutes; the retry budget is far shorter).

        Raises:
            discord.HTTPException, aiohttp.ClientError, TimeoutError: permanent, or retries ran out.
        """
        nonce = secrets.randbits(63)

        def attempt():
            messageable = self.client.get_partial_messageable(channel_id)
            return asyncio.wait_for(messageable.send(allowed_mentions=discord.AllowedMentions.none(), nonce=nonce,
                                                     **kwargs), timeout=self.rest_timeout)

        return await with_retries(attempt, classify, REQUEST_POLICY, idempotent=True, give_up=self._gone,
                                  what=f"discord send to {channel_id}")

    def _gone(self) -> bool:
        """Stop retrying: the channel is known to be down (its reconnect posts and refreshes in order)."""
        return not self._up or self._stopping

    async def _edit(self, channel_id: int, message_id: int, **kwargs) -> None:
        """Edit a message, retried as :mod:`core.retry` says (an edit is idempotent: timeouts too);
        a message that is gone or not ours is logged and skipped."""
        def attempt():
            message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
            return asyncio.wait_for(message.edit(**kwargs), timeout=self.rest_timeout)

        try:
            await with_retries(attempt, classify, REQUEST_POLICY, idempotent=True, give_up=self._gone,
                               what=f"discord edit of {channel_id}:{message_id}")
        except (discord.NotFound, discord.Forbidden) as exc:
            log.warning("could not edit discord card %s:%s: %s", channel_id, message_id, exc)

    async def post_card(self, approval: Approval) -> bool:
        """Post the card to every approval channel, unless this channel already shows it."""
        return (await self._post(approval))[0]

    async def _post(self, approval: Approval) -> tuple[bool, bool]:
        """(shown, posted now). Runs under the approval's edit lock (:meth:`Broker.editing`) and renders its
        current state: a decision landing while the card is sent waits for its ref, then edits it too."""
        if not self._ready() or not self._up:  # down: the reconnect posts missed cards, oldest first
            return False, False
        async with self.broker.editing(approval.id, self.name):
            current = await self.broker.current(approval.id) or approval
            if current.is_final:
                return False, False
            if await self.broker.card_refs(approval.id, self.name, APPROVAL):
                return True, False  # already posted (a resync racing the first post)
            embed = render_embed(build_card(current))
            shown = False
            for channel_id in self.config.approval_channel_ids:
                try:
                    msg = await self._send(channel_id, embed=embed, view=card_view(approval.id))
                except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as exc:
                    log.warning("card %s not posted to discord channel %s: %r", approval.id, channel_id, exc)
                    self._resync_after(exc)
                    continue
                await self._record_card(approval, channel_id, msg.id)
                shown = True
            return shown, shown

    async def _record_card(self, approval: Approval, channel_id: int, message_id: int) -> None:
        await self.broker.record_card(approval.id, self.name, f"{channel_id}:{message_id}")

    async def update_card(self, approval: Approval, change: CardChange) -> bool:
        """Edit every copy to the approval's current state (:meth:`Broker.current`); edits of one approval run
        one at a time, so an older state never lands over a newer one. Returns whether a copy existed.

        Raises:
            ChannelDown: not connected (the card is brought up to date on reconnect), or a copy was not edited.
        """
        if not self._ready():
            raise ChannelDown("discord is not connected: the card is brought up to date on reconnect")
        async with self.broker.editing(approval.id, self.name):
            current = await self.broker.current(approval.id) or approval
            refs = [r.ref for r in await self.broker.card_refs(approval.id, self.name, APPROVAL)]
            embed = render_embed(build_card(current))
            view = None if current.is_final else card_view(current.id)
            failed = []
            for ref in refs:
                channel_id, message_id = (int(x) for x in ref.split(":"))
                try:
                    await self._edit(channel_id, message_id, embed=embed, view=view)
                except Exception as exc:
                    log.warning("discord card %s not updated (%s): %r", ref, change.value, exc)
                    failed.append(ref)
        if failed:
            raise ChannelDown(f"discord cards not updated: {', '.join(failed)}")
        return bool(refs)

    async def notify_oncall(self, approval: Approval) -> None:
        if not self._ready():
            return
        async with self.broker.editing(approval.id, self.name):  # as post_card: new copies stay in step
            await self._notify_oncall(await self.broker.current(approval.id) or approval)

    async def _notify_oncall(self, approval: Approval) -> None:
        if approval.is_final:  # decided meanwhile: no page, and no live buttons on a closed approval
            return
        existing = {r.place for r in await self.broker.card_refs(approval.id, self.name, APPROVAL)}
        card = build_card(approval)
        for channel_id in self.config.oncall_channel_ids:
            if str(channel_id) in existing:
                text = (f"⬆ **Escalated to {approval.tier.name}**: approval `{approval.id}` still needs a "
                        f"decision ({card.time_left or 'no time'} left).")
                await self._send(channel_id, content=text)
                continue
            # The embed's author line says "Escalated: needs a decision" while it is pending.
            msg = await self._send(channel_id, embed=render_embed(card), view=card_view(approval.id))
            await self._record_card(approval, channel_id, msg.id)

    async def alert_crisis(self, alert: CrisisAlert, realert: int) -> None:
        if not self._ready():
            raise ChannelDown("discord is not connected")
        # No responders configured: the approvers' channels are alerted rather than nobody.
        targets = list(self.config.crisis_channel_ids or self.config.approval_channel_ids)
        if realert:
            targets += [c for c in self.config.oncall_channel_ids if c not in targets]
        purpose = f"crisis:{realert}"
        done = {r.place for r in await self.broker.card_refs(alert.id, self.name, purpose)}
        embed = render_crisis_embed(alert, realert)
        failed = []
        for channel_id in targets:
            if str(channel_id) in done:
                continue  # reached on an earlier attempt
            view = None if alert.acknowledged_by else crisis_view(alert.id)
            try:
                msg = await self._send(channel_id, content=("🟡 **" if alert.is_concern else "🆘 **") + alert.headline + "**", embed=embed,
                                       **({"view": view} if view is not None else {}))
            except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as exc:
                failed.append(f"{channel_id}: {exc!r}")
                continue
            await self.broker.record_card(alert.id, self.name, f"{channel_id}:{msg.id}", purpose)
            await self._catch_up_crisis(alert, realert, channel_id, msg.id)
        if failed:
            raise ChannelDown(f"crisis alert not delivered to {', '.join(failed)}")

    async def _catch_up_crisis(self, alert: CrisisAlert, realert: int, channel_id: int, message_id: int) -> None:
        """Someone took the alert while this copy was being sent (update_crisis could not see it yet)."""
        if alert.acknowledged_by:
            return
        try:
            current = await self.broker.crisis.get(alert.id)
            if current is not None and current.acknowledged_by:
                await self._edit(channel_id, message_id, embed=render_crisis_embed(current, realert), view=None)
        except Exception as exc:
            log.warning("discord crisis alert %s:%s could not catch up: %r", channel_id, message_id, exc)

    async def update_crisis(self, alert: CrisisAlert) -> None:
        if not self._ready():
            raise ChannelDown("discord is not connected")
        for r in await self.broker.card_refs(alert.id, self.name):
            if r.purpose.startswith("crisis"):
                channel_id, message_id = (int(x) for x in r.ref.split(":"))
                realert = int(r.purpose.split(":")[1] or 0) if ":" in r.purpose else 0
                await self._edit(channel_id, message_id, embed=render_crisis_embed(alert, realert), view=None)

    # presses ---------------------------------------------------------------------------------

    def _is_approver(self, user: discord.abc.User, guild_id: int | None) -> bool:
        if user.id in self._approvers:
            return True
        if guild_id is None or not self._approver_roles or not isinstance(user, discord.Member):
            return False  # in a DM only approver_user_ids count
        # The interaction's member payload carries role ids; the guild may not be cached (no lookups).
        role_ids = set(getattr(user, "_roles", ())) | {r.id for r in user.roles}
        return bool(role_ids & self._approver_roles)

    @staticmethod
    def _actor(user: discord.abc.User) -> Actor:
        name = getattr(user, "nick", None) or user.global_name or f"@{user.name}"
        return Actor(id=f"discord:{user.id}", name=name, via=DecidedVia.DISCORD)

    async def _on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer presses of signoff buttons that no DynamicItem handles: data that is not on the
        pressed message (a modified client) or not a signoff button at all. Presses that are on the
        message go to :class:`DecisionButton` (the two conditions exclude each other)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data = interaction.data or {}
        cid = str(data.get("custom_id") or "")
        if not cid.startswith(CUSTOM_ID_PREFIX):
            return
        parsed = parse_custom_id(cid)
        ack = _ACK_ID.fullmatch(cid)
        if (parsed is not None or ack is not None) and _message_has(interaction.message, data.get("component_type"), cid):
            return  # DecisionButton's or AckButton's callback answers it
        self._up = True
        actor = self._actor(interaction.user)
        if ack is not None:
            await self._reply(interaction, "This button does not belong to this alert; nothing changed.")
            return
        if parsed is None:
            await self._reply(interaction, "This button is not a signoff button; nothing changed.")
            await self.broker.record(None, "forged_press", actor.id, self.name, user_name=actor.name, data=cid[:100])
            return
        await self._reply(interaction, "This button does not belong to this card; nothing changed.")
        await self.broker.record(parsed[1], "forged_press", actor.id, self.name, user_name=actor.name)

    async def _on_press(self, interaction: discord.Interaction, approve: bool, approval_id: str) -> None:
        self._up = True
        user = interaction.user
        actor = self._actor(user)
        message = interaction.message
        decision = "approve" if approve else "deny"
        if self.broker is None or message is None:
            await self._reply(interaction, "signoff is not ready; nothing changed.")
            return
        bot_id = self.client.user.id if self.client is not None and self.client.user is not None else None
        if (interaction.channel_id not in self._press_channels
                or (bot_id is not None and message.author.id != bot_id)):
            await self._reply(interaction, "This is not a signoff approval channel; nothing changed.")
            await self.broker.record(approval_id, "forged_press", actor.id, self.name, user_name=actor.name,
                                     channel_id=interaction.channel_id)
            return
        if not self._is_approver(user, interaction.guild_id):
            await self._reply(interaction, "You are not an approver for signoff; nothing changed.")
            await self.broker.record(approval_id, "unauthorised_press", actor.id, self.name, user_name=actor.name,
                                     decision=decision)
            return
        ref = f"{interaction.channel_id}:{message.id}"
        await self._answer_with(interaction, asyncio.ensure_future(self._decide(approval_id, approve, actor, ref)))

    async def _on_acknowledge(self, interaction: discord.Interaction, alert_id: str) -> None:
        """"I'm on it": anyone in a crisis or on-call channel may take the alert (as on Telegram)."""
        self._up = True
        if self.broker is None or interaction.channel_id not in self._responder_channels:
            await self._reply(interaction, "This button does not belong to this alert; nothing changed.")
            return
        actor = self._actor(interaction.user)
        task = asyncio.ensure_future(self._acknowledge(alert_id, actor))
        await self._answer_with(interaction, task)

    async def _acknowledge(self, alert_id: str, actor: Actor) -> str:
        try:
            alert = await self.broker.crisis.acknowledge(alert_id, actor)
        except AlreadyAcknowledged as exc:
            return f"{exc.alert.acknowledged_by_name or exc.alert.acknowledged_by} is already on it. Thank you."
        except UnknownAlert:
            return "This alert is unknown to signoff."
        except Exception:
            log.exception("discord acknowledge of %s failed", alert_id)
            return "signoff could not record this; try again."
        return f"Thank you, {alert.acknowledged_by_name or 'you'}: you are on it."

    async def _answer_with(self, interaction: discord.Interaction, task: asyncio.Future) -> None:
        """Answer with ``task``'s text: at once if it is done within the budget, else defer
        (ephemeral "thinking") and follow up. Exactly one response either way."""
        done, _ = await asyncio.wait({task}, timeout=ANSWER_WITHIN_S)
        if done:
            await self._reply(interaction, task.result())
            return
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException as exc:
            log.info("could not defer discord interaction: %s", exc)
        text = await task
        try:
            await asyncio.wait_for(interaction.followup.send(_clip(text), ephemeral=True), timeout=self.rest_timeout)
        except (discord.HTTPException, TimeoutError) as exc:
            log.info("could not follow up discord interaction: %r", exc)

    async def _decide(self, approval_id: str, approve: bool, actor: Actor, ref: str) -> str:
        try:
            return await self.broker.press(approval_id, approve, actor, self, ref)
        except Exception:
            log.exception("discord press on %s failed", approval_id)
            return "signoff could not record this press; nothing changed. Try again."

    async def _quiet_update(self, approval: Approval) -> None:
        with contextlib.suppress(Exception):
            await self.update_card(approval, CardChange.DECIDED)

    async def _reply(self, interaction: discord.Interaction, text: str) -> None:
        """The one response to an interaction: an ephemeral message."""
        try:
            await asyncio.wait_for(interaction.response.send_message(_clip(text), ephemeral=True),
                                   timeout=self.rest_timeout)
        except (discord.HTTPException, discord.InteractionResponded, TimeoutError) as exc:
            log.info("could not answer discord interaction: %r", exc)


def _message_has(message: discord.Message | None, component_type: Any, cid: str) -> bool:
    """Whether Discord's copy of the pressed message carries a component ``cid`` of that type."""
    if message is None:
        return False

    def walk(components):
        for c in components:
            yield c
            yield from walk(getattr(c, "children", ()) or ())

    return any(getattr(c, "custom_id", None) == cid and getattr(c.type, "value", None) == component_type
               for c in walk(message.components))


def _clip(text: str) -> str:
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"
