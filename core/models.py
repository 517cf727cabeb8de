"""Pydantic models of the outside of signoff: the request an agent sends, the approval it gets back.

The API, the CLI and the ledger share these shapes (``shared/spec/interfaces.md``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from core.crisis import DEFAULT_RESOURCES, Resource
from core.tiers import Tier

#: Limits of a request (interfaces.md "The local API"): bytes of UTF-8 for text, characters for names.
MAX_COMMAND_BYTES = 32 * 1024
MAX_DESCRIPTION_BYTES = 4 * 1024
MAX_ACTION_CHARS = 200
MAX_IDEMPOTENCY_KEY_CHARS = 200
#: the category of a grey-zone note (:meth:`core.crisis_desk.CrisisDesk.raise_concern`)
CONCERN = "concern"


def new_id() -> str:
    """A fresh approval or crisis alert id: 12 lowercase hex characters (48 random bits), short enough for
    any platform's button data (Telegram: 64 bytes)."""
    return secrets.token_hex(6)


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def rfc3339(value: datetime | None) -> str | None:
    """Format a datetime as RFC 3339 UTC with a ``Z`` suffix (None stays None)."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def valid_unicode(value: str | None) -> str | None:
    """Refuse text that is not valid Unicode (JSON can carry lone surrogates such as ``\ud800``)."""
    if value is not None:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("contains a lone surrogate: not valid Unicode text") from None
    return value


def _max_bytes(limit: int):
    def check(value: str | None) -> str | None:
        if value is not None and len(value.encode("utf-8", "surrogatepass")) > limit:
            raise ValueError(f"longer than {limit} bytes of UTF-8")
        return value

    return check


class Status(StrEnum):
    """The status of an approval; every status but ``pending`` is final."""

    PENDING = "pending"
    APPROVED = "approved"
    DENIED = "denied"
    EXPIRED = "expired"
    CANCELLED = "cancelled"
    CRISIS = "crisis"

    @property
    def is_final(self) -> bool:
        return self is not Status.PENDING


class DecidedVia(StrEnum):
    """How an approval was decided (the API's ``decided_via``)."""

    AUTO = "auto"
    LLM = "llm"
    TELEGRAM = "telegram"
    DISCORD = "discord"
    CLI = "cli"
    TIMEOUT = "timeout"
    RULE = "rule"


class ApprovalRequest(BaseModel):
    """What an agent asks for: ``POST /v1/approvals`` body.

    Types are strict (a number is not a string) and unknown fields are refused, so a malformed
    request fails with a message naming the field instead of being half-read.
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    action: str = Field(min_length=1, max_length=MAX_ACTION_CHARS)
    command: Annotated[str | None, AfterValidator(_max_bytes(MAX_COMMAND_BYTES))] = None
    description: Annotated[str | None, AfterValidator(_max_bytes(MAX_DESCRIPTION_BYTES))] = None
    cwd: str | None = Field(default=None, max_length=4096)
    agent: str | None = Field(default=None, max_length=200)
    session: str | None = Field(default=None, max_length=200)
    idempotency_key: str | None = Field(default=None, min_length=1, max_length=MAX_IDEMPOTENCY_KEY_CHARS)
    metadata: dict[str, Any] | None = None

    _unicode = field_validator("action", "command", "description", "cwd", "agent", "session",
                               "idempotency_key")(classmethod(lambda cls, v: valid_unicode(v)))

    def content_hash(self) -> str:
        """SHA-256 hex of the fields an idempotency key binds: action, command, description, cwd."""
        blob = json.dumps([self.action, self.command, self.description, self.cwd], ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


class Actor(BaseModel):
    """Who did something: ``id`` such as ``telegram:111`` or ``cli:alice``, an optional display
    ``name`` (``@alice``) and the ``via`` channel."""

    model_config = ConfigDict(frozen=True)

    id: str
    via: DecidedVia
    name: str | None = None


class Approval(BaseModel):
    """An approval as the API returns it (interfaces.md "An approval"); times are UTC.

    ``requester_uid`` / ``requester_pid`` (optional extension of the spec's object) are the uid and pid of
    the process that asked, read from the Unix socket's peer credentials; ``agent`` is only what it said.
    """

    id: str
    status: Status
    tier: Tier
    reason: str
    action: str
    command: str | None = None
    description: str | None = None
    cwd: str | None = None
    agent: str | None = None
    session: str | None = None
    created_at: datetime
    deadline: datetime | None = None
    decided_at: datetime | None = None
    decided_by: str | None = None
    decided_by_name: str | None = None
    decided_via: DecidedVia | None = None
    note: str | None = None
    resources: list[Resource] | None = None
    rule: str | None = None
    escalations: int = 0
    requester_uid: int | None = None  # who asked, from the socket's peer credentials (None: unknown)
    requester_pid: int | None = None

    @property
    def is_final(self) -> bool:
        return self.status.is_final

    def to_api(self) -> dict[str, Any]:
        """The JSON object of the API: tier as its name plus ``tier_level``, RFC 3339 times."""
        out: dict[str, Any] = {
            "id": self.id,
            "status": self.status.value,
            "tier": self.tier.name,
            "tier_level": int(self.tier),
            "reason": self.reason,
            "action": self.action,
            "command": self.command,
            "description": self.description,
            "cwd": self.cwd,
            "agent": self.agent,
            "session": self.session,
            "created_at": rfc3339(self.created_at),
            "deadline": rfc3339(self.deadline),
            "decided_at": rfc3339(self.decided_at),
            "decided_by": self.decided_by,
            "decided_by_name": self.decided_by_name,
            "decided_via": self.decided_via.value if self.decided_via else None,
            "note": self.note,
            "rule": self.rule,
            "escalations": self.escalations,
            "requester_uid": self.requester_uid,
            "requester_pid": self.requester_pid,
        }
        if self.resources is not None:
            out["resources"] = [r.model_dump() for r in self.resources]
        return out


class Event(BaseModel):
    """One ledger event: ``at`` (UTC), ``kind``, ``actor``, ``channel`` and free ``details``."""

    at: datetime
    kind: str
    actor: str | None = None
    channel: str | None = None
    details: dict[str, Any] | None = None

    def to_api(self) -> dict[str, Any]:
        return {
            "at": rfc3339(self.at),
            "kind": self.kind,
            "actor": self.actor,
            "channel": self.channel,
            "details": self.details,
        }


class CrisisAlert(BaseModel):
    """A crisis alert as channels show it. ``text`` is what was said (kept in memory for the alert
    even when the ledger may not store it); ``source`` is ``approval``, ``api``, ``telegram`` or
    ``discord``; ``chat`` and ``user_ref`` say where and who (``telegram:<user id>``)."""

    id: str
    created_at: datetime
    category: str
    evidence: str | None = None
    text: str | None = None
    source: str
    chat: str | None = None
    user_ref: str | None = None
    user_name: str | None = None
    agent: str | None = None
    session: str | None = None
    approval_id: str | None = None
    acknowledged_at: datetime | None = None
    acknowledged_by: str | None = None
    acknowledged_by_name: str | None = None
    realerts: int = 0
    resources: tuple[Resource, ...] = DEFAULT_RESOURCES

    @property
    def is_concern(self) -> bool:
        """A quiet grey-zone note (:meth:`CrisisDesk.raise_concern`), not an alert."""
        return self.category == CONCERN

    @property
    def headline(self) -> str:
        """The first words a responder reads."""
        return "Possible crisis (a quiet note)" if self.is_concern else "Crisis alert"

    @property
    def signal(self) -> str:
        """What raised it and what the person was given."""
        if self.is_concern:
            return ("possible crisis language (below the alert threshold). A gentle check-in with the crisis "
                    "resources (988) was sent; there will be no re-alerts.")
        return f"{self.category}. The crisis resources (988) were given at once."

    @property
    def where(self) -> str:
        """"agent claude (session s1)", "telegram chat -100123", "the API" …"""
        if self.source == "approval" or (self.source == "api" and self.agent):
            who = f"agent {self.agent or 'unknown'}"
            return who + (f" (session {self.session})" if self.session else "")
        if self.chat:
            return f"{self.source} chat {self.chat}"
        return self.source

    def to_api(self) -> dict:
        return {
            "id": self.id, "status": "crisis", "category": self.category, "created_at": rfc3339(self.created_at),
            "acknowledged_by": self.acknowledged_by, "acknowledged_by_name": self.acknowledged_by_name,
            "acknowledged_at": rfc3339(self.acknowledged_at), "realerts": self.realerts,
            "resources": [r.model_dump() for r in self.resources],
        }


@dataclass
class Origin:
    """Where crisis language came from (all optional but ``source``)."""

    source: str
    chat: str | None = None
    user_ref: str | None = None
    user_name: str | None = None
    agent: str | None = None
    session: str | None = None
    approval_id: str | None = None
