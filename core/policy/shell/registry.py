"""Which handler reads each program: every family's ``HANDLERS`` merged into one map (program -> handler),
then the families' ``DEFAULTS`` for programs no family reads with a handler of its own, then the handlers of
the programs of table GLOBAL_OPTS wrapped to read the options before their subcommand first
(:func:`core.policy.shell.options._globals_first`).

Only :mod:`core.policy.shell.dispatch` looks a program up here. It also names the handlers dispatch uses for
programs with no entry (:data:`READ_ONLY_HANDLER`, :data:`HTTP_METHOD_HANDLER`, :data:`MKFS_HANDLER`,
:data:`INIT_SCRIPT_HANDLER`), the inline-code scanner (:data:`CODE_SCANNER`) and every handler by its name
(:data:`NAMED`, for the calls of one family's handler from another: ``r.call("h_pkg", …)``).

To add a family: import its module and add it to :data:`FAMILIES`. A program in the ``HANDLERS`` of two
families is an error unless :data:`SHARED` says which family reads it (and why).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import ModuleType

from core.policy import tables as T
from core.policy.shell.families import (
    builtins,
    containers,
    databases,
    disks,
    editors,
    files,
    git,
    infra,
    interpreters,
    network,
    packages,
    system,
    terminals,
    text,
)
from core.policy.shell.options import _globals_first

#: a handler: ``(reader, prog, args, metas, ctx, acc, stdin) -> what the command prints``
Handler = Callable[..., object]

FAMILIES: tuple[ModuleType, ...] = (builtins, files, disks, system, git, containers, infra, network, interpreters,
                                    text, editors, databases, terminals, packages)
#: programs two families list on purpose: program -> the family (module name) whose handler reads it
SHARED: dict[str, str] = {}
#: the families whose DEFAULTS apply, first first: a program in the default tables of several gets the handler of
#: the first (a deploy tool such as helm or heroku also publishes and prints secrets: h_deploy asks those tables
#: itself)
DEFAULT_ORDER: tuple[str, ...] = ("infra", "packages")

#: every read-only program without a handler of its own (READ_ONLY and the operator's additions)
READ_ONLY_HANDLER: Handler = builtins.h_read_only
#: an HTTP method word as the program (``GET URL``, ``DELETE URL``)
HTTP_METHOD_HANDLER: Handler = network.h_http_method
#: every ``mkfs*`` program (``mkfs.ext4``, ``mkfs.xfs`` …) without an entry of its own
MKFS_HANDLER: Handler = disks.h_mkfs
#: ``/etc/init.d/NAME ACTION``, ``/etc/rc.d/NAME ACTION``: read as ``service NAME ACTION``
INIT_SCRIPT_HANDLER: Handler = system.h_service
#: inline code (``python -c``, vim ``:py``, gdb): ``(reader, code, ctx, acc, lang)``
CODE_SCANNER: Callable[..., None] = interpreters._scan_code


def _family(mod: ModuleType) -> str:
    return mod.__name__.rsplit(".", 1)[-1]


def build_handlers(families: Iterable[ModuleType] = FAMILIES, shared: dict[str, str] | None = None,
                   default_order: Iterable[str] = DEFAULT_ORDER) -> dict[str, Handler]:
    """The reader's map program -> handler (a new dict: one per reader)."""
    families = tuple(families)
    shared = SHARED if shared is None else shared
    table: dict[str, Handler] = {}
    owner: dict[str, str] = {}
    for mod in families:
        fam = _family(mod)
        for prog, handler in mod.HANDLERS.items():
            if prog in table:
                if shared.get(prog) not in (owner[prog], fam):
                    raise ValueError(f"{prog} has a handler in both the {owner[prog]} and the {fam} family "
                                     f"(say which reads it in registry.SHARED)")
                if shared[prog] == owner[prog]:
                    continue
            table[prog] = handler
            owner[prog] = fam
    by_name = {_family(mod): mod for mod in families}
    order = tuple(default_order)
    missing = [fam for fam, mod in by_name.items() if getattr(mod, "DEFAULTS", None) and fam not in order]
    if missing:
        raise ValueError(f"families with DEFAULTS missing from DEFAULT_ORDER: {missing}")
    for fam in order:
        for prog, handler in by_name[fam].DEFAULTS.items():
            table.setdefault(prog, handler)
    for prog, opts in T.GLOBAL_OPTS.items():
        if prog in table:
            table[prog] = _globals_first(table[prog], opts)
    return table


def _named() -> dict[str, Handler]:
    named: dict[str, Handler] = {}
    for h in (READ_ONLY_HANDLER, HTTP_METHOD_HANDLER, MKFS_HANDLER, INIT_SCRIPT_HANDLER, *(
            h for mod in FAMILIES for h in (*mod.HANDLERS.values(), *getattr(mod, "DEFAULTS", {}).values()))):
        if named.setdefault(h.__name__, h) is not h:
            raise ValueError(f"two handlers are named {h.__name__}")
    return named


#: every handler by its name (``h_pkg``), for the calls of one family's handler from another
NAMED: dict[str, Handler] = _named()
