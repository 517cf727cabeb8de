"""The narrow seam between the core and a chat platform (Telegram, Discord, the terminal).

The broker calls a channel through :class:`Channel`; a channel calls back only the broker's narrow surface
(never the ledger): ``current(id)`` and ``pending()`` for the state to render, ``card_refs`` / ``record_card``
for the messages it posted (as :class:`CardRef`), ``editing(id, channel)`` (the edit lock under which a channel
re-reads the state and edits its copies), ``press`` and ``record`` for what people did, and ``crisis`` (the
crisis desk: ``intake``, ``acknowledge``, ``get``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, runtime_checkable

from core.models import Approval, CrisisAlert

#: What a card ref is for: the approval card itself, the notice offering a card whose send is uncertain
#: (Telegram), and crisis alerts (``crisis:<realert>``: the first alert is ``crisis:0``).
APPROVAL, UNCERTAIN = "approval", "uncertain"


@dataclass(frozen=True)
class CardRef:
    """One message a channel posted for an approval or a crisis alert, as the broker keeps it.

    Attributes:
        channel: the channel's name (``telegram``, ``discord``).
        ref: the platform's address of the message, opaque to the core (``<chat id>:<message id>``).
        purpose: :data:`APPROVAL`, :data:`UNCERTAIN` or ``crisis:<realert>``.
    """

    channel: str
    ref: str
    purpose: str = APPROVAL

    @property
    def place(self) -> str:
        """The part of ``ref`` before the first ``:`` (the chat or channel id)."""
        return self.ref.split(":", 1)[0]


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
    the platform. Requests to the platform are retried as :mod:`core.retry` says.

    A channel that posts messages it edits later is bound to the broker (``bind(broker)``) and keeps their
    refs there (``record_card``, ``card_refs``), edits under ``broker.editing(id, name)`` and renders
    ``broker.current(id)``, so it holds no state a restart would lose and never reads the ledger itself.
    A channel that cannot reach its platform raises :class:`core.errors.ChannelDown`."""

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
        acknowledged yet: alert the responders and the on-call targets again. Raise (:class:`core.errors.ChannelDown`)
        when a target could not be reached (the desk retries; targets already reached for this ``realert``, as
        ``broker.card_refs(alert.id, name, f"crisis:{realert}")`` records them, are skipped)."""

    async def update_crisis(self, alert: CrisisAlert) -> None:
        """Edit every copy of the alert to show who is on it, and remove its button."""
