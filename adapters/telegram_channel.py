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

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
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

from adapters.cards import Card, CardEditLocks, build_card
from core.channel import CardChange
from core.crisis import assess_crisis
from core.crisis_desk import AlreadyAcknowledged, CrisisAlert, Origin
from core.models import Actor, Approval, DecidedVia, Status, utcnow

if TYPE_CHECKING:
    from bot.config import TelegramConfig
    from core.broker import Broker

log = logging.getLogger("signoff.telegram")

#: Telegram's own limits (Bot API docs).
MAX_MESSAGE_CHARS = 4096
MAX_TOAST_CHARS = 200
#: A press must be answered within seconds; past this we answer "working on it" and finish later.
ANSWER_WITHIN_S = 2.0
RETRY_DELAYS_S = (1, 2, 5, 10, 30, 60)


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


class ChannelDown(Exception):
    """Telegram is not connected (yet): the caller retries."""


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
        self._edit_locks = CardEditLocks()
        self._approvers = set(config.approver_ids)

    def bind(self, broker: Broker) -> None:
        self.broker = broker

    # lifecycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect in the background; an outage leaves the channel down and retrying."""
        builder = ApplicationBuilder().token(self.config.token.get_secret_value()).base_url(self.config.base_url)
        builder = builder.connect_timeout(5).read_timeout(10).write_timeout(10).get_updates_read_timeout(30)
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
                log.error("telegram rejected the bot token (telegram.token or $SIGNOFF_TELEGRAM_TOKEN): "
                          "the Telegram channel stays down until the daemon is restarted with a valid token")
                with contextlib.suppress(Exception):
                    await self.app.shutdown()
                return
            except (NetworkError, TelegramError) as exc:
                self._up = False
                delay = RETRY_DELAYS_S[min(attempt, len(RETRY_DELAYS_S) - 1)]
                log.warning("telegram unreachable (%s); retrying in %s s", redact(str(exc), self.config), delay)
                with contextlib.suppress(Exception):
                    await self.app.shutdown()
                attempt += 1
                await asyncio.sleep(delay)

    async def stop(self) -> None:
        if self._prober is not None and not self._prober.done():
            self._prober.cancel()
            with contextlib.suppress(BaseException):
                await self._prober
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
                await asyncio.sleep(RETRY_DELAYS_S[min(attempt, len(RETRY_DELAYS_S) - 1)])
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
        for approval in await self.broker.ledger.list(status=Status.PENDING):
            if not await self.broker.ledger.cards(approval.id, self.name):
                with contextlib.suppress(Exception):
                    await self.post_card(approval)

    # sending ---------------------------------------------------------------------------------

    async def _send(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None):
        """sendMessage with honest retries: waits out 429s; retries refused connections; never
        retries a timeout (the message may have been delivered: a retry would post a duplicate)."""
        for attempt in range(4):
            try:
                msg = await self.app.bot.send_message(chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup,
                                                      disable_web_page_preview=True)
                self._up = True
                return msg
            except RetryAfter as exc:
                await asyncio.sleep(_seconds(exc.retry_after))
            except TimedOut:
                raise
            except (BadRequest, Forbidden):
                raise
            except NetworkError:
                self._up = False
                if attempt == 3:
                    raise
                await asyncio.sleep(RETRY_DELAYS_S[attempt])
        raise NetworkError("telegram kept asking to retry later")

    async def post_card(self, approval: Approval) -> bool:
        """Post the card to every approval chat, unless this channel already shows it.

        Runs under the approval's edit lock and renders the state the ledger has now: a decision that
        lands while the card is being sent waits for its ref to be recorded, then edits it too.
        """
        if self.app is None or not self._started:
            return False
        async with self._edit_locks.hold(approval.id):
            current = await self.broker.ledger.get(approval.id) or approval
            if current.is_final:
                return False
            if await self.broker.ledger.cards(approval.id, self.name):
                return True  # already posted (a resync racing the first post)
            text = render_html(build_card(current))
            shown = False
            for chat_id in self.config.approval_chat_ids:
                try:
                    msg = await self._send(chat_id, text, keyboard(approval.id))
                except TelegramError as exc:
                    log.warning("card %s not posted to chat %s: %s", approval.id, chat_id, exc)
                    continue
                await self.broker.ledger.add_card(approval.id, self.name, f"{chat_id}:{msg.message_id}", _now())
                shown = True
            return shown

    async def update_card(self, approval: Approval, change: CardChange) -> bool:
        """Edit every copy to the approval's state as the ledger has it now (not as it was when this
        update was asked for): edits of one approval run one at a time, so a slow, retried edit can
        never put back an older state over a newer one. Returns whether there was a copy to edit."""
        if self.app is None or not self._started:
            raise ChannelDown("telegram is not connected: the card is brought up to date on reconnect")
        async with self._edit_locks.hold(approval.id):
            current = await self.broker.ledger.get(approval.id) or approval
            refs = await self.broker.ledger.cards(approval.id, self.name)
            text = render_html(build_card(current))
            markup = None if current.is_final else keyboard(current.id)
            for ref in refs:
                chat_id, message_id = (int(x) for x in ref.split(":"))
                await self._edit(chat_id, message_id, text, markup)
        return bool(refs)

    async def _edit(self, chat_id: int, message_id: int, text: str, markup) -> None:
        for attempt in range(4):
            try:
                await self.app.bot.edit_message_text(text, chat_id=chat_id, message_id=message_id,
                                                     parse_mode=ParseMode.HTML, reply_markup=markup,
                                                     disable_web_page_preview=True)
                return
            except RetryAfter as exc:
                await asyncio.sleep(_seconds(exc.retry_after))
            except BadRequest as exc:
                if "not modified" not in str(exc).lower():
                    log.warning("could not edit card %s:%s: %s", chat_id, message_id, exc)
                return
            except NetworkError:
                if attempt == 3:
                    raise
                await asyncio.sleep(RETRY_DELAYS_S[attempt])  # an edit is idempotent: safe to retry

    async def notify_oncall(self, approval: Approval) -> None:
        if self.app is None or not self._started:
            return
        async with self._edit_locks.hold(approval.id):  # as post_card: new copies stay in step
            await self._notify_oncall(await self.broker.ledger.get(approval.id) or approval)

    async def _notify_oncall(self, approval: Approval) -> None:
        if approval.is_final:  # decided meanwhile: no page, and no live buttons on a closed approval
            return
        existing = {ref.split(":")[0] for ref in await self.broker.ledger.cards(approval.id, self.name)}
        card = build_card(approval)
        for chat_id in self.config.oncall_chat_ids:
            if str(chat_id) in existing:
                text = (f"⬆ <b>Escalated to {approval.tier.name}</b>: approval <code>{approval.id}</code> "
                        f"still needs a decision ({html.escape(card.time_left or '')} left).")
                await self._send(chat_id, text, None)
                continue
            msg = await self._send(chat_id, render_html(card, header="⬆ Escalated: needs a decision"),
                                   keyboard(approval.id))
            await self.broker.ledger.add_card(approval.id, self.name, f"{chat_id}:{msg.message_id}", _now())

    async def alert_crisis(self, alert: CrisisAlert, realert: int) -> None:
        if self.app is None or not self._started:
            raise ChannelDown("telegram is not connected")
        # No responders configured: the approvers' chats are alerted rather than nobody.
        targets = list(self.config.crisis_chat_ids or self.config.approval_chat_ids)
        if realert:
            targets += [c for c in self.config.oncall_chat_ids if c not in targets]
        purpose = f"crisis:{realert}"
        done = {ref.split(":")[0] for ref, p in await self.broker.ledger.card_refs(alert.id, self.name) if p == purpose}
        text = render_crisis_html(alert, realert)
        markup = None if alert.acknowledged_by else crisis_keyboard(alert.id)
        failed = []
        for chat_id in targets:
            if str(chat_id) in done:
                continue  # reached on an earlier attempt
            try:
                msg = await self._send(chat_id, text, markup)
            except TelegramError as exc:
                failed.append(f"{chat_id}: {exc}")
                continue
            await self.broker.ledger.add_card(alert.id, self.name, f"{chat_id}:{msg.message_id}", _now(), purpose=purpose)
            if markup is not None:  # acknowledged while this copy was being sent: show it
                current = await self.broker.crisis.get(alert.id)
                if current is not None and current.acknowledged_by:
                    await self._edit(chat_id, msg.message_id, render_crisis_html(current, realert), None)
        if failed:
            raise ChannelDown(f"crisis alert not delivered to {', '.join(failed)}")

    async def update_crisis(self, alert: CrisisAlert) -> None:
        if self.app is None or not self._started:
            raise ChannelDown("telegram is not connected")
        for ref, purpose in await self.broker.ledger.card_refs(alert.id, self.name):
            if purpose.startswith("crisis"):
                chat_id, message_id = (int(x) for x in ref.split(":"))
                await self._edit(chat_id, message_id, render_crisis_html(alert, int(purpose.split(":")[1] or 0)), None)

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
        text = message.text
        verdict = await asyncio.to_thread(assess_crisis, text) if len(text) > 4096 else assess_crisis(text)
        desk = self.broker.crisis
        reply = desk.reply_to(verdict)
        if reply is None:
            return
        try:  # the person first: the reply goes out before anything else is attempted
            await message.reply_text(reply, do_quote=True)
        except TelegramError as exc:
            log.error("could not answer a crisis message in chat %s: %s", message.chat.id, exc)
        origin = Origin("telegram", chat=str(message.chat.id),
                        user_ref=f"telegram:{user.id}" if user else None,
                        user_name=(f"@{user.username}" if user.username else user.full_name) if user else None)
        desk.raise_for(text, origin, verdict)

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
        except KeyError:
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


def _now():
    return utcnow()
