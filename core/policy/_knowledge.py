"""What programs can do, as data (``core/policy/data/programs.toml``, extended by ``policy.programs`` in the
config): which options run a command or code, read, write or send a file, load a library, listen or connect,
which programs run their operands as a command, and what a program reads when started with nothing to do.

The file's header documents every key. :func:`load` reads and validates it (a wrong key or kind is an error
naming the program and the key); :data:`PROGRAMS` is the built-in table.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

DATA_FILE = Path(__file__).resolve().parent / "data" / "programs.toml"

#: languages a ``code:``/``script:`` kind may name
LANGS = frozenset((
    "sh", "python", "perl", "ruby", "node", "php", "lua", "tcl", "awk", "r", "julia", "java", "groovy", "gdb",
    "vim", "elisp", "sql", "scheme", "lisp", "haskell", "ocaml", "erlang", "elixir", "scala", "kotlin", "swift",
    "go", "rust", "c", "powershell", "other",
))
#: option kinds that take a value
VALUE_KINDS = frozenset(("command", "program", "read", "write", "writedir", "upload", "library", "host",
                         "servedir", "uses"))
#: option kinds that are flags (no value)
FLAG_KINDS = frozenset(("listen", "bang", "inplace", "attach", "argv", "shellargs"))
INPUT_KINDS = frozenset(("shell", "bang", "sql", "redis"))
OPERAND_KINDS = frozenset(("command", "program", "uses", "servedir"))
SUBCOMMAND_KINDS = frozenset(("listen", "upload", "bang", "command", "sql"))
_KEYS = frozenset(("also", "wraps", "value_opts", "input", "operand", "listens", "connects", "options",
                   "subcommands"))


class KnowledgeError(ValueError):
    """A program entry that does not follow the format (the message names the program and the key)."""


@dataclass(frozen=True, slots=True)
class Program:
    """One program's entry.

    Attributes:
        name: the program as typed (without its directory).
        wraps: operands skipped before the command it runs (``chroot DIR CMD``: 1), or None (not a wrapper).
        value_opts: its options that take a value.
        input: what it reads when started with nothing to do: ``shell``, ``bang``, ``sql``, ``code:LANG``.
        operand: what its first operand is: ``command``, ``program``, ``code:LANG``, ``script:LANG``.
        listens: it serves on the network whenever it runs.
        connects: it connects to a network destination named in its arguments.
        options: option as typed -> kind (see the data file's header).
        subcommands: first operand -> kind.
    """

    name: str
    wraps: int | None = None
    value_opts: frozenset = frozenset()
    input: str | None = None
    operand: str | None = None
    listens: bool = False
    connects: bool = False
    options: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    subcommands: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def uses(self) -> bool:
        """Whether some option's value (or the operand) is a file it uses without showing (a key to sign with)."""
        return self.operand == "uses" or "uses" in self.options.values()

    @property
    def plus_options(self) -> bool:
        """Whether it has options written with ``+`` (``vim +CMD``); otherwise ``+1d`` is an operand."""
        return any(o[:1] == "+" for o in self.options) or any(o[:1] == "+" for o in self.value_opts)

    def takes_value(self, opt: str) -> bool:
        """Whether ``opt`` (as typed) takes a value: a value kind, or listed in ``value_opts`` (a ``listen``
        option that names the address it binds, ``ssh -L SPEC``, ``php -S ADDR``, is in both)."""
        kind = self.options.get(opt)
        if kind is not None and kind not in FLAG_KINDS:
            return True
        return opt in self.value_opts


def _is_code_kind(kind: str) -> bool:
    head, _, lang = kind.partition(":")
    return head in ("code", "script") and lang in LANGS


def _check_kind(name: str, key: str, kind, allowed: frozenset) -> str:
    if isinstance(kind, str) and kind.partition(":")[0] in ("code", "script") and kind not in allowed and (
            not _is_code_kind(kind)):
        raise KnowledgeError(f"programs.{name}.{key}: {kind!r} names no language known here (LANG is one of "
                             f"{', '.join(sorted(LANGS))})")
    if not isinstance(kind, str) or not (kind in allowed or _is_code_kind(kind)):
        raise KnowledgeError(f"programs.{name}.{key}: {kind!r} is not a known kind "
                             f"(one of {', '.join(sorted(allowed))}, code:LANG, script:LANG)")
    return kind


def _entry(name: str, raw) -> Program:
    if not name or "/" in name or name != name.strip():
        base = name.strip().rsplit("/", 1)[-1]
        raise KnowledgeError(f"programs.{name}: a program is named as the shell runs it, without a directory"
                             + (f" ({base!r}: /usr/bin/{base} and ./bin/{base} are both {base})" if base else ""))
    if not isinstance(raw, Mapping):
        raise KnowledgeError(f"programs.{name}: expected a table of keys, got {type(raw).__name__}")
    unknown = set(raw) - _KEYS
    if unknown:
        raise KnowledgeError(f"programs.{name}: unknown key(s) {', '.join(sorted(unknown))} "
                             f"(known: {', '.join(sorted(_KEYS))})")
    wraps = raw.get("wraps")
    if wraps is not None and (isinstance(wraps, bool) or not isinstance(wraps, int) or not 0 <= wraps <= 4):
        raise KnowledgeError(f"programs.{name}.wraps: expected a number of operands from 0 to 4, got {wraps!r}")
    for key in ("also", "value_opts"):
        v = raw.get(key, [])
        if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
            raise KnowledgeError(f"programs.{name}.{key}: expected a list of names")
    for key in ("listens", "connects"):
        if not isinstance(raw.get(key, False), bool):
            raise KnowledgeError(f"programs.{name}.{key}: expected true or false")
    inp = raw.get("input")
    if inp is not None:
        _check_kind(name, "input", inp, INPUT_KINDS)
    operand = raw.get("operand")
    if operand is not None:
        _check_kind(name, "operand", operand, OPERAND_KINDS)
    options = {}
    for opt, kind in (raw.get("options") or {}).items():
        if not opt.startswith("-") and not opt.startswith("+"):
            raise KnowledgeError(f"programs.{name}.options: {opt!r} is not an option (it starts with - or +)")
        options[opt] = _check_kind(name, f"options.{opt}", kind, VALUE_KINDS | FLAG_KINDS)
    subs = {}
    for sub, kind in (raw.get("subcommands") or {}).items():
        subs[sub] = _check_kind(name, f"subcommands.{sub}", kind, SUBCOMMAND_KINDS)
    return Program(name=name, wraps=wraps, value_opts=frozenset(raw.get("value_opts", ())), input=inp,
                   operand=operand, listens=raw.get("listens", False), connects=raw.get("connects", False),
                   options=MappingProxyType(options), subcommands=MappingProxyType(subs))


def load(text: str | None = None, extra: Mapping | None = None) -> dict[str, Program]:
    """Read the program table: ``text`` (TOML; default: the built-in data file), then ``extra`` (config
    ``policy.programs``: the same keys; an entry for a listed program adds to it, options and subcommands
    merged). Returns ``{name: Program}`` with every ``also`` name mapped too.

    Raises:
        KnowledgeError: a key, kind or value that does not follow the format (the message names it).
    """
    raw = tomllib.loads(DATA_FILE.read_text(encoding="utf-8") if text is None else text)
    if extra:
        raw = dict(raw)
        for name, add in extra.items():
            if not isinstance(add, Mapping):
                raise KnowledgeError(f"programs.{name}: expected a table of keys, got {type(add).__name__}")
            base = dict(raw.get(name, {}))
            for k, v in add.items():
                if k in ("options", "subcommands") and isinstance(v, Mapping):
                    base[k] = {**base.get(k, {}), **v}
                elif k in ("also", "value_opts") and isinstance(v, list):
                    base[k] = list(base.get(k, [])) + v
                else:
                    base[k] = v
            raw[name] = base
    table: dict[str, Program] = {}
    for name, entry in raw.items():
        prog = _entry(name, entry)
        table[name] = prog
    for prog in list(table.values()):
        for other in (raw[prog.name].get("also") or ()):
            table.setdefault(other, prog)
    return table


PROGRAMS: dict[str, Program] = load()
