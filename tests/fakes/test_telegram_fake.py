"""The Telegram fake, driven by the real python-telegram-bot (HTTP, parsing, polling, handlers)."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import AsyncIterator

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest, EndPointNotFound, InvalidToken, NetworkError, RetryAfter
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from .telegram_api import FakeTelegram

CHAT = 4242
KEYBOARD = InlineKeyboardMarkup([[InlineKeyboardButton("Approve", callback_data="ok:1"),
                                  InlineKeyboardButton("Deny", callback_data="no:1")]])


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
async def app(tg: FakeTelegram) -> AsyncIterator[Application]:
    application = (
        ApplicationBuilder().token(tg.token).base_url(tg.base_url)
        .connect_timeout(2).read_timeout(2).write_timeout(2).pool_timeout(2)
        .get_updates_connect_timeout(2).get_updates_read_timeout(2).get_updates_pool_timeout(2)
        .build()
    )
    seen: list[Update] = []
    application.bot_data["seen"] = seen

    async def on_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        seen.append(update)
        query = update.callback_query
        assert query is not None
        await query.answer(f"Recorded {query.data}")
        await query.edit_message_text(f"<b>Decided</b> {query.data} by @{query.from_user.username}",
                                      parse_mode="HTML")

    async def on_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        seen.append(update)
        assert update.effective_message is not None
        await update.effective_message.reply_text(f"echo: {update.effective_message.text}")

    application.add_handler(CallbackQueryHandler(on_press))
    application.add_handler(MessageHandler(filters.TEXT, on_text))
    await application.initialize()
    await application.start()
    assert application.updater is not None
    await application.updater.start_polling(poll_interval=0, timeout=1)
    try:
        yield application
    finally:
        tg.down = False
        await application.updater.stop()
        await application.stop()
        await application.shutdown()


async def test_start_calls_and_param_decoding(app: Application, tg: FakeTelegram) -> None:
    await tg.wait_for_call("getUpdates")
    assert [c.method for c in tg.calls[:2]] == ["getMe", "deleteWebhook"]
    await app.bot.send_message(CHAT, "hi", reply_markup=KEYBOARD)
    params = tg.calls_to("sendMessage")[0].params
    assert params["chat_id"] == CHAT and params["text"] == "hi"
    assert params["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "ok:1"


async def test_press_answer_and_edit(app: Application, tg: FakeTelegram) -> None:
    sent = await app.bot.send_message(CHAT, "Run <code>rm -rf /tmp/x</code>?", parse_mode="HTML",
                                      reply_markup=KEYBOARD)
    [card] = tg.sent(CHAT)
    assert card.text == "Run rm -rf /tmp/x?" and card.entities[0]["type"] == "code"
    qid = tg.press(CHAT, sent.message_id, "ok:1", user_id=42)
    await tg.wait_for_call("editMessageText")
    assert tg.answers == [{"callback_query_id": qid, "text": "Recorded ok:1"}]
    card = tg.messages[(CHAT, sent.message_id)]
    assert card.text == "Decided ok:1 by @alice" and card.reply_markup is None
    assert card.history[0]["raw_text"] == "Run <code>rm -rf /tmp/x</code>?"
    [update] = app.bot_data["seen"]
    query = update.callback_query
    assert query.from_user.id == 42 and query.message.message_id == sent.message_id
    assert query.message.reply_markup == KEYBOARD  # the pressed message carries its keyboard
    with pytest.raises(AssertionError, match="no button"):
        tg.press(CHAT, sent.message_id, "ok:1", user_id=42)  # the keyboard is gone now


async def test_forged_press_and_user_message(app: Application, tg: FakeTelegram) -> None:
    sent = await app.bot.send_message(CHAT, "card", reply_markup=KEYBOARD)
    tg.press_forged(CHAT, sent.message_id, "ok:999", user_id=7)
    tg.send_user_message(CHAT, "stop everything", user_id=7)
    await tg.wait_for(lambda: any(m.text == "echo: stop everything" for m in tg.sent(CHAT)))
    forged = app.bot_data["seen"][0].callback_query
    assert forged.data == "ok:999" and "ok:999" not in [b.callback_data for b in forged.message.reply_markup.inline_keyboard[0]]


async def test_answering_twice_is_refused(app: Application, tg: FakeTelegram) -> None:
    sent = await app.bot.send_message(CHAT, "card", reply_markup=KEYBOARD)
    qid = tg.press(CHAT, sent.message_id, "no:1", user_id=42)
    await tg.wait_for_call("answerCallbackQuery")
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await app.bot.answer_callback_query(qid)
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await app.bot.answer_callback_query("nonsense")


@pytest.mark.parametrize("text", ["a < b", "<b>bold", "<x>?</x>", "<b><i>x</b></i>", "Tom & Jerry",
                                  "</b>", '<span class="big">x</span>'])
async def test_bad_html_is_refused(app: Application, tg: FakeTelegram, text: str) -> None:
    with pytest.raises(BadRequest, match="parse entities"):
        await app.bot.send_message(CHAT, text, parse_mode="HTML")
    await app.bot.send_message(CHAT, text)  # without parse_mode it is plain text


async def test_html_escapes_and_length(app: Application, tg: FakeTelegram) -> None:
    await app.bot.send_message(CHAT, '&lt;a&gt; &amp; &quot; &#128512; <a href="https://x.y/?a=1&amp;b=2">l</a>',
                               parse_mode="HTML")
    assert tg.sent()[-1].text == '<a> & " \U0001f600 l'
    assert tg.sent()[-1].entities == [{"type": "text_link", "offset": 11, "length": 1,
                                       "url": "https://x.y/?a=1&b=2"}]
    await app.bot.send_message(CHAT, "<b>" + "x" * 4096 + "</b>", parse_mode="HTML")
    with pytest.raises(BadRequest, match="too long"):
        await app.bot.send_message(CHAT, "x" * 4097)
    with pytest.raises(BadRequest, match="empty"):
        await app.bot.send_message(CHAT, "<b> </b>", parse_mode="HTML")


async def test_callback_data_is_limited_in_bytes(app: Application, tg: FakeTelegram) -> None:
    ok = InlineKeyboardMarkup([[InlineKeyboardButton("a", callback_data="é" * 32)]])  # 64 bytes
    await app.bot.send_message(CHAT, "fits", reply_markup=ok)
    too_long = InlineKeyboardMarkup([[InlineKeyboardButton("a", callback_data="é" * 33)]])  # 66 bytes
    with pytest.raises(BadRequest, match="(?i)button_data_invalid"):
        await app.bot.send_message(CHAT, "does not fit", reply_markup=too_long)


async def test_not_modified_and_missing_messages(app: Application, tg: FakeTelegram) -> None:
    sent = await app.bot.send_message(CHAT, "<b>same</b>", parse_mode="HTML", reply_markup=KEYBOARD)
    with pytest.raises(BadRequest, match="(?i)message is not modified"):
        await app.bot.edit_message_text("<strong>same</strong>", CHAT, sent.message_id,
                                        parse_mode="HTML", reply_markup=KEYBOARD)
    await app.bot.edit_message_reply_markup(CHAT, sent.message_id, reply_markup=None)
    assert tg.messages[(CHAT, sent.message_id)].reply_markup is None
    with pytest.raises(BadRequest, match="(?i)message is not modified"):
        await app.bot.edit_message_reply_markup(CHAT, sent.message_id, reply_markup=None)
    assert await app.bot.delete_message(CHAT, sent.message_id)
    with pytest.raises(BadRequest, match="(?i)message to edit not found"):
        await app.bot.edit_message_text("x", CHAT, sent.message_id)
    with pytest.raises(BadRequest, match="(?i)message to delete not found"):
        await app.bot.delete_message(CHAT, sent.message_id)


async def test_fail_next_429_gives_retry_after(
    app: Application, tg: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without PTB_TIMEDELTA, PTB 22 warns (PTBDeprecationWarning) each time it builds a RetryAfter.
    monkeypatch.setenv("PTB_TIMEDELTA", "1")
    tg.fail_next("sendMessage", status=429, retry_after=3)
    with pytest.raises(RetryAfter) as exc:
        await app.bot.send_message(CHAT, "flood")
    assert exc.value.retry_after == dt.timedelta(seconds=3)
    await app.bot.send_message(CHAT, "fine now")
    assert [c.status for c in tg.calls_to("sendMessage")] == [429, 200]
    tg.fail_next("sendMessage", status=400, description="Bad Request: chat not found")
    with pytest.raises(BadRequest, match="(?i)chat not found"):
        await app.bot.send_message(CHAT, "x")


async def test_down_gives_network_error(app: Application, tg: FakeTelegram) -> None:
    tg.down = True
    with pytest.raises(NetworkError, match="Bad Gateway"):
        await app.bot.send_message(CHAT, "lost")
    tg.down = False
    await app.bot.send_message(CHAT, "back")
    assert [m.text for m in tg.sent()] == ["back"]


async def test_other_methods_and_errors(app: Application, tg: FakeTelegram) -> None:
    await app.bot.set_my_commands([("pending", "List pending requests")])
    assert tg.commands == [{"command": "pending", "description": "List pending requests"}]
    assert (await app.bot.get_chat(-100)).type == "supergroup"
    with pytest.raises(EndPointNotFound):
        await app.bot.do_api_request("noSuchMethod")


async def test_wrong_token_is_rejected(tg: FakeTelegram) -> None:
    with pytest.raises(InvalidToken):
        async with Bot("321:WRONG", base_url=tg.base_url):
            pass
    assert tg.calls[-1].status == 401


async def test_wait_for_explains_timeouts(tg: FakeTelegram) -> None:
    with pytest.raises(AssertionError, match="1 call"):
        await tg.wait_for_call("sendMessage", timeout=0.05)


async def test_stop_releases_a_pending_long_poll() -> None:
    fake = FakeTelegram()
    await fake.start()
    bot = Bot(fake.token, base_url=fake.base_url)
    await bot.initialize()
    poll = asyncio.create_task(bot.get_updates(timeout=30, read_timeout=40))
    await fake.wait_for_call("getMe")
    await fake.wait_for(lambda: bool(fake.calls_to("getUpdates")))
    started = time.monotonic()
    await fake.stop()
    assert await poll == ()
    assert time.monotonic() - started < 1
    await bot.shutdown()
