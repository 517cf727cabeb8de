"""Loopback fakes of the chat platforms, driven by the real client libraries in tests."""

from .telegram_api import Call, FakeMessage, FakeTelegram

__all__ = ["Call", "FakeMessage", "FakeTelegram"]
