"""The terminal channel: the daemon prints each card to its own output, with the commands that decide
it; ``signoff approve`` / ``signoff deny`` decide over the socket as an allowed local user."""

from __future__ import annotations

import sys
from typing import TextIO

from adapters.cards import build_card, plain_text
from core.channel import CardChange
from core.crisis_desk import CrisisAlert
from core.models import Approval
from core.text import one_line


class TerminalChannel:
    """Prints cards and outcomes to ``out`` (the daemon's stdout by default).

    Args:
        out: where to write; each card is written and flushed in one call.
    """

    name = "terminal"
    #: the cards were lines on the old process's output: after a restart the broker posts pending ones again
    cards_survive_restart = False

    def __init__(self, out: TextIO | None = None):
        self._out = out

    @property
    def out(self) -> TextIO:
        return self._out or sys.stdout

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    def is_up(self) -> bool:
        return True

    def _write(self, text: str) -> None:
        try:
            self.out.write(text + "\n")
            self.out.flush()
        except (OSError, ValueError):  # output closed: the ledger and `signoff pending` still have it
            pass

    async def post_card(self, approval: Approval, header: str | None = None) -> bool:
        self._write(
            ("\n" + header if header else "") +
            f"\n{plain_text(build_card(approval))}\n"
            f"  approve: signoff approve {approval.id}\n"
            f"  deny:    signoff deny {approval.id} --note 'why'"
        )
        return True

    async def update_card(self, approval: Approval, change: CardChange) -> None:
        if change is CardChange.ESCALATED:  # the whole card again: it may be the first one on screen
            await self.post_card(approval, header=f"⬆ escalated to {approval.tier.name}: still needs a decision")
        else:
            self._write(f"[{approval.id}] {build_card(approval).outcome}")

    async def notify_oncall(self, approval: Approval) -> None:
        return None  # the escalation line above is the terminal's on-call notice

    async def alert_crisis(self, alert: CrisisAlert, realert: int) -> None:
        again = f" (again, #{realert}: nobody has acknowledged it)" if realert else ""
        who = f" user {one_line(alert.user_ref)}" if alert.user_ref else ""
        said = one_line(alert.text or alert.evidence or "")[:500]
        if alert.is_concern:
            self._write(f"🟡 [{alert.id}] possible crisis language from {one_line(alert.where)}{who}: a check-in with "
                        f"the resources was sent (a quiet note: no re-alerts).\n    said: {said}\n"
                        f"    I'm on it: signoff ack {alert.id}")
            return
        self._write(f"🆘 [{alert.id}] crisis language ({alert.category}) from {one_line(alert.where)}{who}{again}: "
                    f"the resources were given; a person may need help now.\n    said: {said}\n"
                    f"    I'm on it (stops the re-alerts): signoff ack {alert.id}")

    async def update_crisis(self, alert: CrisisAlert) -> None:
        self._write(f"🆘 [{alert.id}] {alert.acknowledged_by_name or alert.acknowledged_by} is on it.")
