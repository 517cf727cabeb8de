"""Inline code in any language (``python -c``, ``perl -e``, ``node -e`` …, code actions): what it does and the
tiers of those effects.

Modules:
    ``python``    Python read with ``ast``: the guards, the tree walk and the effects of calls;
    ``pyeval``    its data flow: the candidate values of expressions, names bound;
    ``pyvalues``  the values it gives expressions (modules, paths, sockets, received data …) and their operations;
    ``calls``     the call tables (data);
    ``tiers``     the tiers of the effects (remote shells, listeners, secret reads …): :func:`apply_code_effects`.

The linear reader of every language is :mod:`core.policy._pycode` until it moves here.
"""

from core.policy.code.tiers import apply_code_effects

__all__ = ["apply_code_effects"]
