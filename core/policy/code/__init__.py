"""Inline code in any language (``python -c``, ``perl -e``, ``node -e`` …, code actions): what it does and the
tiers of those effects.

Modules:
    ``tiers``  the tiers of the effects (remote shells, listeners, secret reads …): :func:`apply_code_effects`.

The readers of the code are :mod:`core.policy._pycode` (every language) and :mod:`core.policy._pyast` (Python
read with ``ast``) until they move here.
"""

from core.policy.code.tiers import apply_code_effects

__all__ = ["apply_code_effects"]
