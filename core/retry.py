"""One retry policy for every call signoff makes to something that can fail (a chat platform, an LLM).

The policy knows nothing of any platform. Each caller maps its library's exceptions to a
:class:`Fault` in one function (its *classifier*), and :func:`call` decides what is retried and how:

========================  ====================================================================
``RETRY_AFTER(seconds)``  the service asked us to wait: wait at least that long (never sooner),
                          then try again; counts against the budget.
``TRANSIENT``             a 5xx answer, a refused or reset connection, a connect timeout: the
                          request was not carried out; back off (exponential, jittered, capped)
                          and try again.
``DELIVERED_UNKNOWN``     a timeout after the request was sent: it may have been carried out.
                          Retried only when the operation is idempotent (an edit, a send with
                          an idempotency key); otherwise :class:`DeliveryUnknown` is raised at
                          once so the caller can look the result up or record the uncertainty.
``PERMANENT``             a bad request, a refused token, a missing chat: retrying cannot help;
                          the error is raised at once.
========================  ====================================================================

Every retry stays within ``budget`` seconds from the first attempt (waits included) and
``max_attempts`` attempts; past either, the last error is raised. ``give_up()`` (e.g. "the channel
is known to be down") stops retrying early, leaving the work to whoever reconciles later.

    fault = classify(exc)                       # the caller's one mapping function
    result = await call(lambda: send(...), classify, SEND_POLICY, idempotent=False)

The delays are ``first * factor**n`` capped at ``cap`` seconds, each stretched by up to ``jitter``
(a fraction, added, never subtracted: a rate limit's wait is a minimum).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

log = logging.getLogger("signoff.retry")

T = TypeVar("T")


class FaultKind(StrEnum):
    """How a failure is treated (see the module docstring)."""

    RETRY_AFTER = "retry_after"
    TRANSIENT = "transient"
    DELIVERED_UNKNOWN = "delivered_unknown"
    PERMANENT = "permanent"


@dataclass(frozen=True)
class Fault:
    """A classified failure.

    Args:
        kind: how it is treated.
        retry_after: seconds the service asked to wait (``RETRY_AFTER`` only; 0 otherwise).
        reason: a short human description for logs (``"429 retry after 3 s"``).
    """

    kind: FaultKind
    retry_after: float = 0.0
    reason: str = ""

    @classmethod
    def wait(cls, seconds: float, reason: str = "") -> Fault:
        """A ``RETRY_AFTER`` fault; negative or missing waits count as 0 seconds."""
        return cls(FaultKind.RETRY_AFTER, max(float(seconds or 0.0), 0.0), reason)

    @classmethod
    def transient(cls, reason: str = "") -> Fault:
        return cls(FaultKind.TRANSIENT, 0.0, reason)

    @classmethod
    def unknown(cls, reason: str = "") -> Fault:
        return cls(FaultKind.DELIVERED_UNKNOWN, 0.0, reason)

    @classmethod
    def permanent(cls, reason: str = "") -> Fault:
        return cls(FaultKind.PERMANENT, 0.0, reason)


class DeliveryUnknown(Exception):
    """A non-idempotent request timed out after it was sent: it may or may not have been carried out.

    Attributes:
        error: the library's exception (also ``__cause__``).
    """

    def __init__(self, error: BaseException):
        super().__init__(f"the request may have been carried out (no answer): {error!r}")
        self.error = error


@dataclass(frozen=True)
class RetryPolicy:
    """How long and how often to retry.

    Args:
        first: the first back-off delay, seconds (default 0.5).
        factor: each further delay is this many times the previous one (default 2).
        cap: no single back-off delay is longer, seconds (default 10). A service's own
            ``retry_after`` is not capped: it is a minimum, honoured or the call gives up.
        budget: seconds from the first attempt within which every retry must start (default 30);
            ``None``: no limit (reconnect loops).
        max_attempts: attempts in all, the first included (default 6); ``None``: no limit.
        jitter: each delay is stretched by a random fraction in ``[0, jitter]`` (default 0.1), so
            many callers failing together do not retry together.
    """

    first: float = 0.5
    factor: float = 2.0
    cap: float = 10.0
    budget: float | None = 30.0
    max_attempts: int | None = 6
    jitter: float = 0.1

    def backoff(self, retry: int, rng: Callable[[], float] = random.random) -> float:
        """The delay in seconds before retry number ``retry`` (0 for the first retry), jittered."""
        base = min(self.first * self.factor ** max(retry, 0), self.cap)
        return base * (1.0 + self.jitter * rng())

    def delays(self, rng: Callable[[], float] = random.random) -> Iterator[float]:
        """The back-off delays one after the other (endless: the budget and attempts stop a call)."""
        retry = 0
        while True:
            yield self.backoff(retry, rng)
            retry += 1


#: Requests to chat platforms: a few retries within 30 s (a card late by more is better found by a resync).
SEND_POLICY = RetryPolicy()
#: Reconnecting a channel that is down: 1, 2, 4 … 60 s between attempts (jittered), for as long as it takes.
RECONNECT_POLICY = RetryPolicy(first=1.0, cap=60.0, budget=None, max_attempts=None)


async def call(op: Callable[[], Awaitable[T]], classify: Callable[[BaseException], Fault | None],
               policy: RetryPolicy = SEND_POLICY, *, idempotent: bool = False,
               give_up: Callable[[], bool] | None = None, what: str = "request",
               sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
               clock: Callable[[], float] | None = None) -> T:
    """Run ``op()`` until it succeeds, retrying as ``policy`` and ``classify`` say.

    Args:
        op: makes one attempt (a fresh coroutine each call).
        classify: maps an exception ``op`` raised to a :class:`Fault`; None means "not a fault of
            the service" (a bug): raised at once.
        policy: delays, budget and attempts.
        idempotent: whether repeating a request that may have been carried out is harmless (an
            edit, a send with an idempotency key). If False a ``DELIVERED_UNKNOWN`` fault raises
            :class:`DeliveryUnknown` at once.
        give_up: checked before each retry; True stops retrying (the last error is raised).
        what: names the request in log lines.
        sleep: waits that many seconds (tests may pass their own).
        clock: monotonic seconds (default: the running loop's clock).

    Returns:
        What ``op()`` returned.

    Raises:
        DeliveryUnknown: a non-idempotent request may have been carried out.
        Exception: the last error of ``op`` when it is permanent, unclassified, or the budget,
            the attempts or ``give_up`` ended the retries.
    """
    now = clock or asyncio.get_running_loop().time
    start = now()
    delays = policy.delays()
    attempt = 0
    while True:
        attempt += 1
        try:
            return await op()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            fault = classify(exc)
            if fault is None or fault.kind is FaultKind.PERMANENT:
                raise
            if fault.kind is FaultKind.DELIVERED_UNKNOWN and not idempotent:
                raise DeliveryUnknown(exc) from exc
            wait = fault.retry_after * (1.0 + policy.jitter * random.random()) \
                if fault.kind is FaultKind.RETRY_AFTER else next(delays)
            out_of_attempts = policy.max_attempts is not None and attempt >= policy.max_attempts
            out_of_budget = policy.budget is not None and now() - start + wait > policy.budget
            if out_of_attempts or out_of_budget or (give_up is not None and give_up()):
                log.warning("%s failed (%s: %s); not retried (%s)", what, fault.kind.value, fault.reason or repr(exc),
                            "attempts" if out_of_attempts else "budget" if out_of_budget else "gave up")
                raise
            log.info("%s failed (%s: %s); retry %d in %.2f s", what, fault.kind.value, fault.reason or repr(exc),
                     attempt, wait)
        await sleep(wait)


def retry_later(fault: Fault | None, policy: RetryPolicy = SEND_POLICY) -> float | None:
    """After :func:`call` gave up on ``fault``: seconds to wait before the work is tried again (the wait
    the service asked for, at least ``policy.cap``); None when trying again cannot help (a permanent
    fault, or not a fault of the service)."""
    if fault is None or fault.kind is FaultKind.PERMANENT:
        return None
    return max(fault.retry_after, policy.cap)


__all__ = ["RECONNECT_POLICY", "SEND_POLICY", "DeliveryUnknown", "Fault", "FaultKind", "RetryPolicy", "call", "retry_later"]
