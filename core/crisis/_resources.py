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


def support_message(resources: tuple[Resource, ...] | list[Resource]) -> str:
    """The reply to a person who may be in crisis: warm, hopeful, with ways to reach help now and no
    detail about means. Follows safe-messaging guidance (988lifeline.org; reportingonsuicide.org):
    express care, say help works and is available, give concrete contacts, do not lecture."""
    return _with_resources(
        ["I'm really glad you said something, and I'm sorry you're going through this.",
         "You don't have to carry it alone: people want to help, and talking to someone can help right now."],
        resources, "If you can, reach out to one of them now, or to someone you trust. You matter.")


def check_in_message(resources: tuple[Resource, ...] | list[Resource]) -> str:
    """The reply when a message *might* show a person in crisis (the grey zone: no alert): a gentle check-in
    that asks rather than assumes, with the same resources. Safe-messaging guidance as for
    :func:`support_message`; asking directly about suicide does not raise the risk (988lifeline.org)."""
    return _with_resources(
        ["I want to check in with you. It sounds like things might be really hard right now.",
         "If you're having thoughts of suicide or of hurting yourself, you don't have to face that alone:"],
        resources, "And if I've read you wrong, that's okay. I'm glad you're here.")


def _with_resources(opening: list[str], resources, closing: str) -> str:
    """The opening lines, a blank line, one bullet per resource, a blank line, the closing line."""
    return "\n".join([*opening, "", *(f"• {r.name}: {r.contact}" for r in resources), "", closing])
