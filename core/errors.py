"""The errors of signoff's core, one root. The API maps each to an HTTP status at its boundary.

SignoffError
├── NotFound                 404: no approval with that id
├── AlreadyDecided           409: the approval is final; ``.approval`` carries the true outcome
├── IdempotencyConflict      409: the key was used for different content
└── NotAllowed               403: the caller may not do this
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.models import Approval


class SignoffError(Exception):
    """Root of signoff's own errors; ``code`` is the API's machine-readable error code."""

    code = "error"


class NotFound(SignoffError):
    code = "not_found"


class AlreadyDecided(SignoffError):
    """A decision or cancel lost: the approval was already final. ``approval`` is its current state."""

    code = "already_decided"

    def __init__(self, approval: Approval):
        self.approval = approval
        super().__init__(f"approval {approval.id} is already {approval.status.value}")


class IdempotencyConflict(SignoffError):
    code = "idempotency_conflict"


class NotAllowed(SignoffError):
    code = "forbidden"
