"""The shell parser: text in, a script of nodes out (:func:`parse`, :class:`Parser`); see :mod:`.nodes` for the
node types and the shared work budget."""

from core.policy.shell.syntax.nodes import (
    ARITH,
    LIT,
    LOOP_END,
    LOOP_HEAD,
    PARAM,
    SUB,
    VAR,
    WORK_UNITS,
    Budget,
    ForLoop,
    FuncDef,
    Group,
    Redirect,
    Simple,
    Word,
    new_budget,
)
from core.policy.shell.syntax.parser import Parser, parse

__all__ = ["ARITH", "LIT", "LOOP_END", "LOOP_HEAD", "PARAM", "SUB", "VAR", "WORK_UNITS", "Budget", "ForLoop", "FuncDef", "Group",
           "Parser", "Redirect", "Simple", "Word", "new_budget", "parse"]
