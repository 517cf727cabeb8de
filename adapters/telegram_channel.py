"""Telegram approval cards with python-telegram-bot.

Cards go to every ``approval_chat_ids`` chat in HTML parse mode; Approve / Deny are inline buttons
whose ``callback_data`` is ``a:<id>`` / ``d:<id>`` (14 bytes; Telegram allows 1-64 bytes). A press is
checked before anything changes: the presser must be in ``approver_ids`` and the pressed message's own
keyboard (Telegram's copy, which a client cannot forge) must carry the pressed data. Every press is
answered with a short toast (Telegram limit: 200 characters).
Source of the limits: https://core.telegram.org/bots/api (sendMessage, CallbackQuery, answerCallbackQuery).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
from typing import TYPE_CHECKING

import httpx
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from adapters.cards import Card, build_card
from core.channel import APPROVAL, UNCERTAIN, CardChange
from core.crisis_desk import CrisisAlert, Origin
from core.errors import AlreadyAcknowledged, ChannelDown, UnknownAlert
from core.models import Actor, Approval, DecidedVia
from core.retry import RECONNECT_POLICY, SEND_POLICY, DeliveryUnknown, Fault, RetryPolicy, retry_later
from core.retry import call as with_retries

if TYPE_CHECKING:
    from bot.config import TelegramConfig
    from core.broker import Broker

log = logging.getLogger("signoff.telegram")

#: Telegram's own limits (Bot API docs).
MAX_MESSAGE_CHARS = 4096
MAX_TOAST_CHARS = 200
#: A press must be answered within seconds; past this we answer "working on it" and finish later.
ANSWER_WITHIN_S = 2.0
#: Requests (send, edit): retried as core.retry says, within this policy's budget.
REQUEST_POLICY: RetryPolicy = SEND_POLICY
#: PTB's HTTP timeouts, seconds (a read timeout after a send is "delivered, maybe").
CONNECT_TIMEOUT_S, READ_TIMEOUT_S, WRITE_TIMEOUT_S = 5.0, 10.0, 10.0
#: How many card contents are remembered to skip identical edits ("message is not modified").
EDIT_MEMORY = 2048


def classify(exc: BaseException) -> Fault | None:
    """The one mapping of python-telegram-bot's errors to :mod:`core.retry` faults.

    RetryAfter: wait ``retry_after`` s. TimedOut: delivered-unknown when the request may have reached
    Telegram (a read or write timeout), transient when it cannot have (connect or pool timeout).
    BadRequest, Forbidden, InvalidToken, Conflict, ChatMigrated, EndPointNotFound: permanent (BadRequest
    is a kind of NetworkError in PTB: it is checked first). Any other NetworkError (a 5xx answer, a
    refused or reset connection): transient. Anything else: None (not a platform fault).
    Source: telegram/request/_baserequest.py and _httpxrequest.py (PTB 22).
    """
    if isinstance(exc, RetryAfter):
        return Fault.wait(_seconds(exc.retry_after), f"429 retry after {_seconds(exc.retry_after):g} s")
    if isinstance(exc, (BadRequest, Forbidden, InvalidToken, Conflict, ChatMigrated, EndPointNotFound)):
        return Fault.permanent(str(exc))
    if isinstance(exc, TimedOut):
        if isinstance(exc.__cause__, (httpx.ConnectTimeout, httpx.PoolTimeout)):
            return Fault.transient(f"timed out before sending ({type(exc.__cause__).__name__})")
        return Fault.unknown("timed out waiting for Telegram's answer")
    if isinstance(exc, NetworkError):
        return Fault.transient(str(exc))
    if isinstance(exc, TelegramError):
        return Fault.permanent(str(exc))
    return None


def render_html(card: Card, header: str | None = None) -> str:
    """The card as Telegram HTML: every text that is not ours escaped; ≤ 4096 characters of text."""
    e = html.escape
    lines = []
    if header:
        lines.append(f"<b>{e(header)}</b>")
    lines.append(f"{card.mark} <b>{e(card.title)}</b>")
    if card.agent:
        lines.append(f"<b>Agent:</b> {e(card.agent)}")
    lines.append(f"<b>Action:</b> <code>{e(card.action)}</code>")
    if card.command:
        lines.append(f"<pre>{e(card.command)}</pre>")
    if card.description:
        lines.append(f"<b>Description:</b> {e(card.description)}")
    lines.append(f"<b>Why:</b> {e(card.reason)}")
    if card.outcome:
        lines.append(f"<b>{e(card.outcome)}</b>")
    elif card.time_left:
        lines.append(f"<i>Decide within {e(card.time_left)}, or it {'escalates' if card.tier < 4 else 'is denied'}.</i>")
    lines.append(f"<code>{e(card.approval_id)}</code>")
    return "\n".join(lines)


def keyboard(approval_id: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[
        InlineKeyboardButton("✅ Approve", callback_data=f"a:{approval_id}"),
        InlineKeyboardButton("⛔ Deny", callback_data=f"d:{approval_id}"),
    ]])


def parse_data(data: str | None) -> tuple[bool, str] | None:
    """``"a:<id>"`` → (True, id), ``"d:<id>"`` → (False, id); anything else → None."""
    if not data or len(data) > 64 or data[1:2] != ":" or data[0] not in "ad":
        return None
    approval_id = data[2:]
    if not approval_id.isalnum():
        return None
    return data[0] == "a", approval_id


def redact(text: str, config: TelegramConfig) -> str:
    """``text`` without the bot token (PTB quotes it in some errors)."""
    token = config.token.get_secret_value() if config.token else ""
    return text.replace(token, "••••") if token else text


def render_crisis_html(alert: CrisisAlert, realert: int = 0) -> str:
    """A responders' alert: what was said, where, by whom, and whether someone is on it."""
    e = html.escape
    said = alert.text or alert.evidence or "(text not available)"
    mark = "🟡" if alert.is_concern else "🆘"
    lines = [f"{mark} <b>{alert.headline}</b>" + (f" — <b>nobody has acknowledged it yet (#{realert})</b>" if realert else "")]
    lines.append(f"<b>Where:</b> {e(alert.where)}")
    if alert.user_ref:
        lines.append(f"<b>Who:</b> {e(alert.user_name or '')} <code>{e(alert.user_ref)}</code>")
    lines.append(f"<b>Said:</b> <i>{e(said[:1500])}</i>" + (" …" if len(said) > 1500 else ""))
    lines.append(f"<b>Signal:</b> {e(alert.signal)}")
    if alert.acknowledged_by:
        when = alert.acknowledged_at.strftime("%H:%M:%S UTC") if alert.acknowledged_at else ""
        lines.append(f"✋ <b>{e(alert.acknowledged_by_name or alert.acknowledged_by)} is on it</b> (since {when})")
    else:
        lines.append("A person may need help now. Press <b>I'm on it</b> when you take it.")
    lines.append(f"<code>{e(alert.id)}</code>")
    return "\n".join(lines)


def show_keyboard(approval_id: str) -> InlineKeyboardMarkup:
    """The "Show card" button of a notice about a card whose delivery is uncertain (``s:<id>``)."""
    return InlineKeyboardMarkup([[InlineKeyboardButton("📄 Show card", callback_data=f"s:{approval_id}")]])


def crisis_keyboard(alert_id: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton("✋ I'm on it", callback_data=f"k:{alert_id}")]])


class TelegramChannel:
    """The Telegram channel (a :class:`core.channel.Channel`).

    Args:
        config: the ``telegram`` section (token, chats, approvers, base_url, rate_limiter).
    """

    name = "telegram"

    def __init__(self, config: TelegramConfig):
        self.config = config
        self.broker: Broker | None = None
        self.app: Application | None = None
        self._up = False
        self._started = False
        self._connector: asyncio.Task | None = None
        self._prober: asyncio.Task | None = None
        self._later: asyncio.Task | None = None  # a resync after a wait longer than the retry budget
        self._approvers = set(config.approver_ids)
        self._contents: dict[str, int] = {}  # "chat:message" -> hash of the text and keyboard it shows
        #: Why the channel is down for good (a refused token), for logs and health; None otherwise.
        self.problem: str | None = None

    def bind(self, broker: Broker) -> None:
        self.broker = broker

    # lifecycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect in the background; an outage leaves the channel down and retrying."""
        builder = ApplicationBuilder().token(self.config.token.get_secret_value()).base_url(self.config.base_url)
        builder = (builder.connect_timeout(CONNECT_TIMEOUT_S).read_timeout(READ_TIMEOUT_S)
                   .write_timeout(WRITE_TIMEOUT_S).get_updates_read_timeout(30))
        if self.config.rate_limiter:
            from telegram.ext import AIORateLimiter

            builder = builder.rate_limiter(AIORateLimiter(max_retries=2))
        self.app = builder.build()
        self.app.add_handler(CallbackQueryHandler(self._on_press))
        self.app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND & ~filters.VIA_BOT, self._on_message))
        self.app.add_error_handler(self._on_error)
        self._connector = asyncio.create_task(self._connect())
        with contextlib.suppress(asyncio.TimeoutError):
            # Usually connected within milliseconds; never hold up the daemon's start for an outage.
            await asyncio.wait_for(asyncio.shield(self._connector), timeout=3.0)

    async def _connect(self) -> None:
        attempt = 0
        while True:
            try:
                await self.app.initialize()
                await self.app.start()
                await self.app.updater.start_polling(poll_interval=0.0, timeout=10, error_callback=self._on_poll_error,
                                                     drop_pending_updates=False)
                self._started = True
                self._up = True
                log.info("telegram connected as @%s", self.app.bot.username)
                await self._resync()
                return
            except InvalidToken:
                self._up = False
                self.problem = ("telegram rejected the bot token (telegram.token or $SIGNOFF_TELEGRAM_TOKEN): "
                                "the Telegram channel stays down until the daemon is restarted with a valid token")
                log.error("%s", self.problem)
                with contextlib.suppress(Exception):
                    await self.app.shutdown()
                return
            except (NetworkError, TelegramError) as exc:
                self._up = False
                delay = RECONNECT_POLICY.backoff(attempt)
                log.warning("telegram unreachable (%s); retrying in %.1f s", redact(str(exc), self.config), delay)
                with contextlib.suppress(Exception):
                    await self.app.shutdown()
                attempt += 1
                await asyncio.sleep(delay)

    async def stop(self) -> None:
        for task in (self._prober, self._later):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        if self._connector is not None and not self._connector.done():
            self._connector.cancel()
            with contextlib.suppress(BaseException):
                await self._connector
        if self.app is not None and self._started:
            with contextlib.suppress(Exception):
                if self.app.updater.running:
                    await self.app.updater.stop()
            with contextlib.suppress(Exception):
                if self.app.running:
                    await self.app.stop()
            with contextlib.suppress(Exception):
                await self.app.shutdown()
        self._up = False

    def is_up(self) -> bool:
        return self._up

    def _on_poll_error(self, exc: TelegramError) -> None:
        if isinstance(exc, NetworkError):
            if self._up:
                log.warning("telegram polling failed: %s", exc)
            self._up = False
            if self._started and self.broker is not None and (self._prober is None or self._prober.done()):
                self._prober = asyncio.get_running_loop().create_task(self._probe())

    async def _probe(self) -> None:
        """While down, ask getMe now and then (however long it takes); when it answers, mark up, post
        the cards missed meanwhile and bring stale ones up to date."""
        attempt = 0
        while self._started:
            try:
                await self.app.bot.get_me()
            except TelegramError:
                await asyncio.sleep(RECONNECT_POLICY.backoff(attempt))
                attempt += 1
                continue
            self._up = True
            log.info("telegram reachable again")
            await self._resync()
            return

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("telegram handler failed: %r", context.error)

    async def _resync(self) -> None:
        """Post a card for every pending approval that has no Telegram card yet (posted while down),
        and bring up to date the cards that missed an update."""
        if self.broker is None:
            return
        await self.broker.refresh_stale(self)
        for approval in await self.broker.pending():
            if not await self.broker.card_refs(approval.id, self.name, APPROVAL):
                with contextlib.suppress(Exception):
                    await self.post_card(approval)

    def _resync_after(self, exc: BaseException) -> None:
        """A card was not posted for a reason that passes (a long 429, 5xx past the retry budget) while
        the channel is up: post the missed cards again once the wait Telegram asked for is over (at
        least ``REQUEST_POLICY.cap`` seconds). One such resync is pending at a time."""
        delay = retry_later(classify(exc), REQUEST_POLICY)
        if delay is None or (self._later is not None and not self._later.done()):
            return

        async def later() -> None:
            await asyncio.sleep(delay)
            if self._up and self._started:
                await self._resync()

        log.info("telegram: missed cards are posted again in %.1f s", delay)
        self._later = asyncio.get_running_loop().create_task(later())

    # sending ---------------------------------------------------------------------------------

    async def _send(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None):
        """sendMessage, retried as :mod:`core.retry` says (429s waited out, 5xx and resets backed off).

        Raises:
            DeliveryUnknown: it timed out after it was sent (it may be there: a blind retry could post
                a duplicate, so it is never retried).
            TelegramError: a permanent error, or the retries ran out or the channel went down meanwhile.
        """
        msg = await with_retries(
            lambda: self.app.bot.send_message(chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup,
                                              disable_web_page_preview=True),
            classify, REQUEST_POLICY, idempotent=False, give_up=self._gone, what=f"telegram send to {chat_id}")
        self._remember(f"{chat_id}:{msg.message_id}", text, markup)
        return msg

    def _gone(self) -> bool:
        """Stop retrying: the channel is known to be down (its reconnect posts and refreshes in order)."""
        return not self._up or not self._started

    def _remember(self, ref: str, text: str, markup) -> bool:
        """Record what card ``ref`` shows now; False when it already showed exactly that."""
        digest = hash((text, markup.to_json() if markup is not None else None))
        if self._contents.get(ref) == digest:
            return False
        if len(self._contents) >= EDIT_MEMORY:
            self._contents.pop(next(iter(self._contents)))
        self._contents[ref] = digest
        return True

    async def post_card(self, approval: Approval) -> bool:
        """Post the card to every approval chat, unless this channel already shows it.

        Runs under the approval's edit lock (:meth:`Broker.editing`) and renders its current state: a decision that
        lands while the card is being sent waits for its ref to be recorded, then edits it too. While
        the channel is down nothing is sent: the reconnect posts the missed cards, oldest first.

        A send that timed out after it was sent may have arrived (Telegram offers no way to look a
        message up, and no idempotency key): it is not sent again. The uncertainty is recorded
        (``card_uncertain``) and a short notice with a "Show card" button follows, so the card is
        never lost; a press on the card, if it arrived, adopts it (:meth:`Broker.press`).
        """
        if self.app is None or not self._started or not self._up:
            return False
        async with self.broker.editing(approval.id, self.name):
            current = await self.broker.current(approval.id) or approval
            if current.is_final:
                return False
            if any(r.purpose in (APPROVAL, UNCERTAIN) for r in await self.broker.card_refs(approval.id, self.name)):
                return True  # already posted (a resync racing the first post)
            text = render_html(build_card(current))
            shown = False
            for chat_id in self.config.approval_chat_ids:
                try:
                    msg = await self._send(chat_id, text, keyboard(approval.id))
                except DeliveryUnknown as exc:
                    shown |= await self._card_uncertain(current, chat_id, exc)
                    continue
                except TelegramError as exc:
                    log.warning("card %s not posted to chat %s: %s", approval.id, chat_id, redact(str(exc), self.config))
                    self._resync_after(exc)
                    continue
                await self.broker.record_card(approval.id, self.name, f"{chat_id}:{msg.message_id}")
                shown = True
            return shown

    async def _card_uncertain(self, approval: Approval, chat_id: int, exc: DeliveryUnknown) -> bool:
        """The card's send to ``chat_id`` timed out after it was sent: record it, and post a notice that
        offers the card. Returns True (the card or the notice is most likely in front of an approver).
        When the notice is not confirmed either, a resync posts the card again later (a possible
        duplicate beats an approval with nothing to press)."""
        log.warning("card %s to chat %s: no answer from Telegram, it may have arrived; not sent again (%s)",
                    approval.id, chat_id, redact(repr(exc.error), self.config))
        await self.broker.record(approval.id, "card_uncertain", channel=self.name, chat=str(chat_id))
        text = (f"⚠ Telegram did not confirm that the card of approval <code>{approval.id}</code> arrived. "
                "If you cannot see it above, press <b>Show card</b>.")
        try:
            msg = await self._send(chat_id, text, show_keyboard(approval.id))
        except (DeliveryUnknown, TelegramError) as err:
            log.warning("notice for uncertain card %s not posted to chat %s: %r", approval.id, chat_id, err)
            self._resync_after(err.error if isinstance(err, DeliveryUnknown) else err)
            return True
        await self.broker.record_card(approval.id, self.name, f"{chat_id}:{msg.message_id}", UNCERTAIN)
        return True

    async def update_card(self, approval: Approval, change: CardChange) -> bool:
        """Edit every copy to the approval's state as it is now (:meth:`Broker.current`, not as it was when this
        update was asked for): edits of one approval run one at a time, so a slow, retried edit can
        never put back an older state over a newer one. A copy that already shows exactly this is
        not edited again. Returns whether there was a copy to edit."""
        if self.app is None or not self._started:
            raise ChannelDown("telegram is not connected: the card is brought up to date on reconnect")
        async with self.broker.editing(approval.id, self.name):
            current = await self.broker.current(approval.id) or approval
            refs = await self.broker.card_refs(approval.id, self.name)
            card = build_card(current)
            text = render_html(card)
            markup = None if current.is_final else keyboard(current.id)
            for r in refs:
                chat_id, message_id = (int(x) for x in r.ref.split(":"))
                if r.purpose == APPROVAL:
                    await self._edit(chat_id, message_id, text, markup)
                elif r.purpose == UNCERTAIN and current.is_final:  # the notice: its button goes too
                    await self._edit(chat_id, message_id, f"Approval <code>{current.id}</code>: "
                                     f"<b>{html.escape(card.outcome or current.status.value)}</b>", None)
        return any(r.purpose == APPROVAL for r in refs)

    async def _edit(self, chat_id: int, message_id: int, text: str, markup) -> None:
        """editMessageText, retried as :mod:`core.retry` says (an edit is idempotent: timeouts too).
        Skipped when the message already shows exactly this; "message is not modified" is success."""
        ref = f"{chat_id}:{message_id}"
        if not self._remember(ref, text, markup):
            return

        async def edit() -> None:
            try:
                await self.app.bot.edit_message_text(text, chat_id=chat_id, message_id=message_id,
                                                     parse_mode=ParseMode.HTML, reply_markup=markup,
                                                     disable_web_page_preview=True)
            except BadRequest as exc:
                if "not modified" not in str(exc).lower():
                    raise

        try:
            await with_retries(edit, classify, REQUEST_POLICY, idempotent=True, give_up=self._gone,
                               what=f"telegram edit of {ref}")
        except BadRequest as exc:
            log.warning("could not edit card %s: %s", ref, exc)
        except BaseException:
            self._contents.pop(ref, None)  # not shown: the next update tries again
            raise

    async def notify_oncall(self, approval: Approval) -> None:
        if self.app is None or not self._started:
            return
        async with self.broker.editing(approval.id, self.name):  # as post_card: new copies stay in step
            await self._notify_oncall(await self.broker.current(approval.id) or approval)

    async def _notify_oncall(self, approval: Approval) -> None:
        if approval.is_final:  # decided meanwhile: no page, and no live buttons on a closed approval
            return
        existing = {r.place for r in await self.broker.card_refs(approval.id, self.name, APPROVAL)}
        card = build_card(approval)
        for chat_id in self.config.oncall_chat_ids:
            if str(chat_id) in existing:
                text = (f"⬆ <b>Escalated to {approval.tier.name}</b>: approval <code>{approval.id}</code> "
                        f"still needs a decision ({html.escape(card.time_left or '')} left).")
                await self._send(chat_id, text, None)
                continue
            msg = await self._send(chat_id, render_html(card, header="⬆ Escalated: needs a decision"),
                                   keyboard(approval.id))
            await self.broker.record_card(approval.id, self.name, f"{chat_id}:{msg.message_id}")

    async def alert_crisis(self, alert: CrisisAlert, realert: int) -> None:
        if self.app is None or not self._started:
            raise ChannelDown("telegram is not connected")
        # No responders configured: the approvers' chats are alerted rather than nobody.
        targets = list(self.config.crisis_chat_ids or self.config.approval_chat_ids)
        if realert:
            targets += [c for c in self.config.oncall_chat_ids if c not in targets]
        purpose = f"crisis:{realert}"
        done = {r.place for r in await self.broker.card_refs(alert.id, self.name, purpose)}
        text = render_crisis_html(alert, realert)
        markup = None if alert.acknowledged_by else crisis_keyboard(alert.id)
        failed = []
        for chat_id in targets:
            if str(chat_id) in done:
                continue  # reached on an earlier attempt
            try:
                msg = await self._send(chat_id, text, markup)
            except (TelegramError, DeliveryUnknown) as exc:
                # (an uncertain alert is sent again by the desk: a duplicate alert beats a lost one)
                failed.append(f"{chat_id}: {redact(str(exc), self.config)}")
                continue
            await self.broker.record_card(alert.id, self.name, f"{chat_id}:{msg.message_id}", purpose)
            if markup is not None:  # acknowledged while this copy was being sent: show it
                current = await self.broker.crisis.get(alert.id)
                if current is not None and current.acknowledged_by:
                    await self._edit(chat_id, msg.message_id, render_crisis_html(current, realert), None)
        if failed:
            raise ChannelDown(f"crisis alert not delivered to {', '.join(failed)}")

    async def update_crisis(self, alert: CrisisAlert) -> None:
        if self.app is None or not self._started:
            raise ChannelDown("telegram is not connected")
        for r in await self.broker.card_refs(alert.id, self.name):
            if r.purpose.startswith("crisis"):
                chat_id, message_id = (int(x) for x in r.ref.split(":"))
                await self._edit(chat_id, message_id, render_crisis_html(alert, int(r.purpose.split(":")[1] or 0)), None)

    async def _on_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A person writes to the bot (private chat or a group it reads): crisis language gets the
        resources at once in that chat, then the responders are alerted; a message in the model's grey zone
        gets a gentle check-in with the resources and a quiet note to the responders."""
        message = update.effective_message
        if message is None or not message.text or message.chat.id in self.config.crisis_chat_ids:
            return
        user = message.from_user
        if user is not None and user.is_bot:
            return
        self._up = True
        origin = Origin("telegram", chat=str(message.chat.id),
                        user_ref=f"telegram:{user.id}" if user else None,
                        user_name=(f"@{user.username}" if user.username else user.full_name) if user else None)
        await self.broker.crisis.intake(message.text, origin, lambda reply: message.reply_text(reply, do_quote=True))

    # presses ---------------------------------------------------------------------------------

    async def _on_press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        self._up = True
        user = query.from_user
        actor = Actor(id=f"telegram:{user.id}", via=DecidedVia.TELEGRAM,
                      name=f"@{user.username}" if user.username else user.full_name)
        message = query.message
        if query.data and query.data.startswith("k:"):
            await self._on_acknowledge(query, actor)
            return
        if query.data and query.data.startswith("s:"):
            await self._on_show_card(query, actor)
            return
        parsed = parse_data(query.data)
        if parsed is None:
            await self._toast(query, "This button is not a signoff button.")
            return
        approve, approval_id = parsed
        if not _keyboard_has(message, query.data):
            await self.broker.record(approval_id, "forged_press", actor.id, self.name, user_name=actor.name)
            await self._toast(query, "This button does not belong to this card; nothing changed.")
            return
        if user.id not in self._approvers:
            await self.broker.record(approval_id, "unauthorised_press", actor.id, self.name, user_name=actor.name,
                                     decision="approve" if approve else "deny")
            await self._toast(query, "You are not an approver for signoff; nothing changed.")
            return
        ref = f"{message.chat.id}:{message.message_id}"
        decision = asyncio.ensure_future(self._decide(approval_id, approve, actor, ref))
        done, _ = await asyncio.wait({decision}, timeout=ANSWER_WITHIN_S)
        if not done:
            await self._toast(query, "Recorded; updating the card…")
            await decision
            return
        await self._toast(query, decision.result())

    async def _on_show_card(self, query, actor: Actor) -> None:
        """"Show card" on the notice of an uncertain card: an approver asks for the card in this chat."""
        approval_id = query.data[2:]
        message = query.message
        if not _keyboard_has(message, query.data) or message.chat.id not in self.config.approval_chat_ids:
            await self._toast(query, "This button does not belong to this card; nothing changed.")
            return
        if query.from_user.id not in self._approvers:
            await self._toast(query, "You are not an approver for signoff; nothing changed.")
            return
        await self._toast(query, "Posting the card…")
        async with self.broker.editing(approval_id, self.name):
            current = await self.broker.current(approval_id)
            if current is None:
                return
            chat = message.chat.id
            where = "above."
            if not current.is_final and not any(r.place == str(chat) for r in
                                                await self.broker.card_refs(approval_id, self.name, APPROVAL)):
                try:
                    msg = await self._send(chat, render_html(build_card(current)), keyboard(approval_id))
                except (DeliveryUnknown, TelegramError) as exc:
                    log.warning("card %s not posted on request to chat %s: %r", approval_id, chat, exc)
                    return
                await self.broker.record_card(approval_id, self.name, f"{chat}:{msg.message_id}")
                await self.broker.record(approval_id, "card_posted", actor.id, self.name, on_request=True)
                where = "below."
            text = (f"Approval <code>{approval_id}</code>: the card is "
                    + (where if not current.is_final else f"<b>{html.escape(build_card(current).outcome or '')}</b>"))
            with contextlib.suppress(TelegramError):
                await self._edit(chat, message.message_id, text, None)

    async def _on_acknowledge(self, query, actor: Actor) -> None:
        alert_id = query.data[2:]
        message = query.message
        responder_chats = (set(self.config.crisis_chat_ids or self.config.approval_chat_ids)
                           | set(self.config.oncall_chat_ids))
        if not _keyboard_has(message, query.data) or message.chat.id not in responder_chats:
            await self._toast(query, "This button does not belong to this alert; nothing changed.")
            return
        ack = asyncio.ensure_future(self._acknowledge(alert_id, actor))
        done, _ = await asyncio.wait({ack}, timeout=ANSWER_WITHIN_S)
        if not done:
            await self._toast(query, "Recorded; updating the alert…")
            await ack
            return
        await self._toast(query, ack.result())

    async def _acknowledge(self, alert_id: str, actor: Actor) -> str:
        try:
            alert = await self.broker.crisis.acknowledge(alert_id, actor)
        except AlreadyAcknowledged as exc:
            return f"{exc.alert.acknowledged_by_name or exc.alert.acknowledged_by} is already on it. Thank you."
        except UnknownAlert:
            return "This alert is unknown to signoff."
        return f"Thank you, {alert.acknowledged_by_name or 'you'}: you are on it."

    async def _decide(self, approval_id: str, approve: bool, actor: Actor, ref: str) -> str:
        return _clip(await self.broker.press(approval_id, approve, actor, self, ref))

    async def _toast(self, query, text: str) -> None:
        try:
            await query.answer(_clip(text))
        except TelegramError as exc:
            log.info("could not answer callback query: %s", exc)


def _keyboard_has(message, data: str) -> bool:
    markup = getattr(message, "reply_markup", None)
    if markup is None:
        return False
    return any(button.callback_data == data for row in markup.inline_keyboard for button in row)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TOAST_CHARS else text[: MAX_TOAST_CHARS - 1] + "…"


def _seconds(value) -> float:
    return value.total_seconds() if hasattr(value, "total_seconds") else float(value)
