"""The narrow seam between the core and a chat platform (Telegram, Discord, the terminal)."""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol, runtime_checkable

from core.models import Approval, CrisisAlert


class CardChange(StrEnum):
    """Why a card is being updated."""

    ESCALATED = "escalated"
    DECIDED = "decided"  # approved or denied by a person (or a rule)
    EXPIRED = "expired"
    CANCELLED = "cancelled"


@runtime_checkable
class Channel(Protocol):
    """What the broker needs from a platform adapter. Every method may raise; the broker logs the
    error, records it in the ledger and carries on (a channel down never decides an approval).

    Optional (not part of the protocol check): ``problem: str | None``, why the channel is down for good
    (a refused token), naming the channel and the setting to fix; None while it works or only waits for
    the platform. Requests to the platform are retried as :mod:`core.retry` says."""

    #: ``terminal``, ``telegram`` or ``discord``: the name in ``/v1/health`` and in ledger events.
    name: str

    async def start(self) -> None:
        """Connect. Must not raise on a platform outage: stay down and retry in the background."""

    async def stop(self) -> None:
        """Disconnect and release everything."""

    def is_up(self) -> bool:
        """Whether the platform is reachable right now (``/v1/health``)."""

    async def post_card(self, approval: Approval) -> bool:
        """Post the approval card to every approval chat.

        Returns:
            True when at least one approver can now see it (starts the tier's clock).
        """

    async def update_card(self, approval: Approval, change: CardChange) -> None:
        """Edit every copy of the card to show ``approval``'s current state; final states lose buttons."""

    async def notify_oncall(self, approval: Approval) -> None:
        """Tell the on-call targets that ``approval`` escalated and still waits for a decision."""

    async def alert_crisis(self, alert: CrisisAlert, realert: int) -> None:
        """Alert the crisis responders (with an "I'm on it" button); ``realert`` > 0 means nobody
        acknowledged yet: alert the responders and the on-call targets again. Raise when a target could
        not be reached (the desk retries; targets already reached for this ``realert`` are skipped)."""

    async def update_crisis(self, alert: CrisisAlert) -> None:
        """Edit every copy of the alert to show who is on it, and remove its button."""
