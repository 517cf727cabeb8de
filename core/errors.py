"""The errors of signoff, one root. Each carries the HTTP status the API answers it with
(``http_status``) and its machine-readable ``code``; the API's error middleware does one lookup.

SignoffError                 400 (a subclass says better)
├── NotFound                 404 not_found: no approval with that id
│   └── UnknownAlert         404 not_found: no crisis alert with that id
├── AlreadyDecided           409 already_decided: the approval is final; ``.approval`` carries the true outcome
├── AlreadyAcknowledged      409 already_acknowledged: someone is already on the crisis alert; ``.alert`` says who
├── IdempotencyConflict      409 idempotency_conflict: the key was used for different content
├── NotAllowed               403 forbidden: the caller may not do this
└── ChannelDown              503 channel_down: a platform is not connected (the broker or crisis desk retries)

The API's own refusals (bad JSON, a body too large, …) are ``bot.api.ApiError``, a SignoffError whose status
and code are given per instance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.models import Approval, CrisisAlert


class SignoffError(Exception):
    """Root of signoff's own errors.

    Attributes:
        code: the API's machine-readable error code (``{"error": {"code": …}}``).
        http_status: the HTTP status the API answers with.
    """

    code = "error"
    http_status = 400

    def details(self) -> dict[str, Any]:
        """Extra fields of the API's ``error`` object beside ``code`` and ``message`` (none by default)."""
        return {}


class NotFound(SignoffError):
    code = "not_found"
    http_status = 404


class UnknownAlert(NotFound):
    """No crisis alert with that id (``alert_id``)."""

    def __init__(self, alert_id: str):
        self.alert_id = alert_id
        super().__init__(f"no crisis alert with id {alert_id!r}")


class AlreadyDecided(SignoffError):
    """A decision or cancel lost: the approval was already final. ``approval`` is its current state; the
    API's 409 carries it as ``error.approval`` (the approval object, as ``GET /v1/approvals/{id}`` shows it)."""

    code = "already_decided"
    http_status = 409

    def __init__(self, approval: Approval):
        self.approval = approval
        super().__init__(f"approval {approval.id} is already {approval.status.value}")

    def details(self) -> dict[str, Any]:
        return {"approval": self.approval.to_api()}


class AlreadyAcknowledged(SignoffError):
    """Someone else pressed "I'm on it" first; ``alert`` says who (the API's 409 carries it as ``error.alert``)."""

    code = "already_acknowledged"
    http_status = 409

    def __init__(self, alert: CrisisAlert):
        self.alert = alert
        who = alert.acknowledged_by_name or alert.acknowledged_by
        super().__init__(f"crisis alert {alert.id} is already acknowledged by {who}")

    def details(self) -> dict[str, Any]:
        return {"alert": self.alert.to_api()}


class IdempotencyConflict(SignoffError):
    code = "idempotency_conflict"
    http_status = 409


class NotAllowed(SignoffError):
    code = "forbidden"
    http_status = 403


class ChannelDown(SignoffError):
    """A platform is not connected (yet), or a crisis alert did not reach every target: the caller retries
    (the broker marks the card stale and refreshes it on reconnect; the crisis desk re-delivers)."""

    code = "channel_down"
    http_status = 503


__all__ = ["AlreadyAcknowledged", "AlreadyDecided", "ChannelDown", "IdempotencyConflict", "NotAllowed",
           "NotFound", "SignoffError", "UnknownAlert"]
