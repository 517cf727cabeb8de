"""The five risk tiers of ``tiers.md`` and what each one means for an approval."""

from __future__ import annotations

from enum import IntEnum


class Tier(IntEnum):
    """A risk tier; the integer value is the ``tier_level`` of the API (0-4).

    Source: ``shared/spec/tiers.md`` ("The five tiers").
    """

    SAFE = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3
    CRITICAL = 4

    @property
    def needs_human(self) -> bool:
        """True for MEDIUM, HIGH and CRITICAL: a person must decide."""
        return self >= Tier.MEDIUM

    @property
    def escalates_to(self) -> Tier | None:
        """The tier an unanswered approval escalates to on timeout; None means it expires (denied)."""
        if self in (Tier.MEDIUM, Tier.HIGH):
            return Tier(self + 1)
        return None

    @classmethod
    def parse(cls, name: str | int | Tier) -> Tier:
        """Read a tier from its name (any case) or level.

        Raises:
            ValueError: the name or level is not a tier.
        """
        if isinstance(name, Tier):
            return name
        if isinstance(name, int):
            return cls(name)
        try:
            return cls[name.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown tier {name!r}; expected one of SAFE, LOW, MEDIUM, HIGH, CRITICAL") from None


#: Default seconds a human has before an approval of this tier escalates or expires (tiers.md).
DEFAULT_TIMEOUTS: dict[Tier, float] = {Tier.MEDIUM: 60.0, Tier.HIGH: 30.0, Tier.CRITICAL: 10.0}
