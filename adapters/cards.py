"""The platform-neutral approval card: what every channel shows, before it is rendered natively.

Text is masked (secrets) and cut (long commands) here, once; each adapter only escapes and lays out.
The API and the ledger always keep the full text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from core.models import Approval, Status, utcnow
from core.text import visible
from core.tiers import Tier

#: Colour marks per tier (Telegram shows emoji; Discord uses the RGB colour).
TIER_MARKS: dict[Tier, str] = {Tier.SAFE: "⚪", Tier.LOW: "🟢", Tier.MEDIUM: "🟡", Tier.HIGH: "🟠", Tier.CRITICAL: "🔴"}
TIER_COLOURS: dict[Tier, int] = {Tier.SAFE: 0x95A5A6, Tier.LOW: 0x2ECC71, Tier.MEDIUM: 0xF1C40F,
                                 Tier.HIGH: 0xE67E22, Tier.CRITICAL: 0xE74C3C}
STATUS_MARKS: dict[Status, str] = {Status.APPROVED: "✅", Status.DENIED: "⛔", Status.EXPIRED: "⌛",
                                   Status.CANCELLED: "🚫", Status.CRISIS: "🆘", Status.PENDING: "⏳"}

# Secret shapes on one-line commands, kept as data. Each pattern's group "secret" is masked.
# Every pattern is linear: bounded character classes, no nested quantifiers.
_SECRET_PATTERNS: tuple[str, ...] = (
    r"(?i)\b(?:authorization|x-api-key|api-key|x-auth-token)\s*[:=]\s*(?:bearer\s+|token\s+|basic\s+)?(?P<secret>[^\s'\"]{6,})",
    r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/=-]{8,})",
    r"(?i)(?:^|[\s;&|'\"(])(?:--?|export\s+)?[A-Za-z_]*(?:password|passwd|pwd|secret|token|api_?key|access_?key|private_?key|auth)[A-Za-z_0-9]*\s*[=:]\s*['\"]?(?P<secret>[^\s'\"]{3,})",
    r"(?i)(?:^|\s)(?:-p|--password|--token|--api-key|--secret)\s+['\"]?(?P<secret>[^\s'\"]{3,})",
    r"\b(?P<secret>(?:sk|pk|rk)-(?:proj-|live-|test-|ant-)?[A-Za-z0-9_-]{16,})",
    r"\b(?P<secret>gh[pousr]_[A-Za-z0-9]{20,})",
    r"\b(?P<secret>github_pat_[A-Za-z0-9_]{20,})",
    r"\b(?P<secret>xox[abposr]-[A-Za-z0-9-]{10,})",
    r"\b(?P<secret>(?:AKIA|ASIA)[A-Z0-9]{16})\b",
    r"\b(?P<secret>AIza[0-9A-Za-z_-]{30,})",
    r"\b(?P<secret>eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{5,})",
    r"://[^/\s:@]{1,200}:(?P<secret>[^@\s/]{1,200})@",
    r"(?P<secret>-----BEGIN [A-Z ]*PRIVATE KEY-----)",
    # quoted values of the same names: --password "two words", TOKEN='x y'
    r"(?i)(?:password|passwd|secret|token|api_?key|access_?key|auth)[A-Za-z_0-9]*\s*[=:]?\s*\"(?P<secret>[^\"\n]{3,200})\"",
    r"(?i)(?:password|passwd|secret|token|api_?key|access_?key|auth)[A-Za-z_0-9]*\s*[=:]?\s*'(?P<secret>[^'\n]{3,200})'",
    # user:password given to an option (curl -u, --user, --proxy-user, wget --http-password is above)
    r"(?:^|\s)(?:-u|-U|--user|--proxy-user)\s*['\"]?[^\s:'\"]{1,100}:(?P<secret>[^\s'\"]{1,200})",
    # the MySQL family's attached -pPASSWORD, redis-cli -a PASSWORD, openssl's pass:PASSWORD
    r"\b(?:mysql|mariadb|mysqldump|mysqladmin|mariadb-dump|mysqlimport|mysqlshow)\b[^|;&\n]{0,300}?\s-p(?P<secret>[^\s'\"]{2,200}|'[^'\n]{1,200}'|\"[^\"\n]{1,200}\")",
    r"\b(?:redis-cli|keydb-cli|valkey-cli)\b[^|;&\n]{0,300}?\s(?:-a|--pass|--user\s+\S+\s+--pass)\s+['\"]?(?P<secret>[^\s'\"]{2,200})",
    r"(?:^|[\s'\"])(?:pass|env):(?P<secret>[^\s'\"]{2,200})",
    r"(?i)\bcookie\s*:\s*(?P<secret>[^'\"\n]{6,200})",
)
_SECRETS = [re.compile(p) for p in _SECRET_PATTERNS]
MASK = "••••"


def mask_secrets(text: str) -> str:
    """Replace every secret-looking value in ``text`` with ``••••`` (keeps 2 leading characters of
    long values so an approver can still tell keys apart)."""
    spans: list[tuple[int, int]] = []
    for pattern in _SECRETS:
        for m in pattern.finditer(text):
            spans.append(m.span("secret"))
    if not spans:
        return text
    spans.sort()
    merged: list[list[int]] = []
    for start, end in spans:  # overlapping matches (a quoted value and its first word) mask once
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        elif end > start:
            merged.append([start, end])
    out, pos = [], 0
    for start, end in merged:
        out.append(text[pos:start])
        value = text[start:end]
        out.append((value[:2] if len(value) >= 12 else "") + MASK)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def cut(text: str, limit: int) -> str:
    """``text`` if it fits in ``limit`` characters, else its start and a note such as
    "… 5,904 more characters cut"."""
    if len(text) <= limit:
        return text
    keep = max(limit - 40, 0)
    return f"{text[:keep]}… {len(text) - keep:,} more characters cut"


def time_left(deadline: datetime | None, now: datetime | None = None) -> str | None:
    """``"45 s"``, ``"2 min 5 s"`` or None (no deadline)."""
    if deadline is None:
        return None
    seconds = max(int((deadline - (now or utcnow())).total_seconds() + 0.5), 0)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes} min {seconds} s" if seconds else f"{minutes} min"


@dataclass(frozen=True)
class Card:
    """Everything a channel shows for one approval, already masked and cut.

    ``agent`` is the agent's own name beside the uid and pid that asked ("demo (uid 1001, pid 4242)").

    ``outcome`` is None while pending, else a line such as "Approved by @alice at 12:03:04 UTC".
    """

    approval_id: str
    tier: Tier
    mark: str
    title: str
    agent: str | None
    action: str
    command: str | None
    description: str | None
    reason: str
    time_left: str | None
    escalated: bool
    outcome: str | None
    status: Status

    @property
    def buttons(self) -> bool:
        return self.status is Status.PENDING


def build_card(approval: Approval, max_command: int = 1500, max_description: int = 600,
               now: datetime | None = None) -> Card:
    """The card of ``approval``; ``max_command`` / ``max_description`` are characters kept."""
    return Card(
        approval_id=approval.id,
        tier=approval.tier,
        mark=TIER_MARKS[approval.tier],
        title=f"{approval.tier.name} approval" + (" (escalated)" if approval.escalations else ""),
        agent=_agent(approval),
        action=visible(cut(approval.action, 200)),
        command=visible(cut(mask_secrets(approval.command), max_command)) if approval.command else None,
        description=visible(cut(mask_secrets(approval.description), max_description)) if approval.description else None,
        reason=visible(cut(mask_secrets(approval.reason), 400)),  # reasons quote the command
        time_left=time_left(approval.deadline, now) if approval.status is Status.PENDING else None,
        escalated=approval.escalations > 0,
        outcome=outcome_line(approval),
        status=approval.status,
    )


def requester_text(approval: Approval) -> str | None:
    """"uid 1001, pid 4242": who asked, as the socket's peer credentials say (None when unknown)."""
    parts = [f"{name} {value}" for name, value in (("uid", approval.requester_uid), ("pid", approval.requester_pid))
             if value is not None]
    return ", ".join(parts) or None


def _agent(approval: Approval) -> str | None:
    """The card's agent line: the name the agent gave (its own claim) beside the uid and pid that asked,
    e.g. "deploy-bot (uid 1001, pid 4242)"; each platform renders this one field."""
    name = visible(cut(approval.agent, 200)) if approval.agent else None
    who = requester_text(approval)
    if name and who:
        return f"{name} ({who})"
    return name or who


def outcome_line(approval: Approval) -> str | None:
    """"Approved by @alice at 12:03:04 UTC", "Expired: nobody decided in time", … or None if pending."""
    if approval.status is Status.PENDING:
        return None
    when = approval.decided_at.strftime("%H:%M:%S UTC") if approval.decided_at else ""
    who = approval.decided_by_name or approval.decided_by or "unknown"
    mark = STATUS_MARKS[approval.status]
    match approval.status:
        case Status.APPROVED:
            line = f"{mark} Approved by {who} at {when}"
        case Status.DENIED:
            line = f"{mark} Denied by {who} at {when}"
        case Status.EXPIRED:
            return f"{mark} Expired at {when}: nobody decided in time, so it was denied"
        case Status.CANCELLED:
            return f"{mark} Cancelled by the agent at {when}"
        case _:
            return f"{mark} {approval.status.value}"
    if approval.note:
        line += f" — note: {cut(approval.note, 300)}"
    return line


def plain_text(card: Card) -> str:
    """The card as plain text (the terminal channel and fallbacks). Continuation lines of a field are
    indented, so a multi-line command cannot pass for another field of the card."""

    def field(name: str, value: str) -> str:
        return f"{name}: " + value.replace("\r", "\\r").replace("\n", "\n    | ")

    lines = [f"{card.mark} {card.title} [{card.approval_id}]"]
    if card.agent:
        lines.append(field("Agent", card.agent))
    lines.append(field("Action", card.action))
    if card.command:
        lines.append(field("Command", card.command))
    if card.description:
        lines.append(field("Description", card.description))
    lines.append(field("Why", card.reason))
    if card.outcome:
        lines.append(card.outcome)
    elif card.time_left:
        lines.append(f"Time left: {card.time_left}")
    return "\n".join(lines)
