"""Crisis detection: messages that show a person thinking of suicide or self-harm.

Public names: :func:`detect_crisis`, :class:`CrisisMatch`, :data:`DEFAULT_RESOURCES`, :class:`Resource`, :func:`support_message`.
"""

from core.crisis._detect import CrisisMatch, detect_crisis
from core.crisis._resources import DEFAULT_RESOURCES, Resource, support_message

__all__ = ["CrisisMatch", "DEFAULT_RESOURCES", "Resource", "detect_crisis", "support_message"]
