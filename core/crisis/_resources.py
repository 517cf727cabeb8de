"""Crisis resources shown to a person in crisis."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Resource(BaseModel):
    """One place to get help: ``{"name": str, "contact": str}`` as in the API's ``resources``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    contact: str


#: United States defaults. Source: shared/spec/tiers.md ("Crisis comes first"); 988lifeline.org.
DEFAULT_RESOURCES: tuple[Resource, ...] = (
    Resource(name="988 Suicide & Crisis Lifeline", contact="Call or text 988 (chat at 988lifeline.org)"),
    Resource(name="Crisis Text Line", contact="Text HOME to 741741"),
    Resource(name="Emergency", contact="Call 911 if someone is in immediate danger"),
)
