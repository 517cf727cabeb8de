"""The program knowledge table (core/policy/data/programs.toml) and its loader (core/policy/_knowledge.py)."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from core.policy._knowledge import (
    DATA_FILE,
    FLAG_KINDS,
    INPUT_KINDS,
    LANGS,
    OPERAND_KINDS,
    SUBCOMMAND_KINDS,
    VALUE_KINDS,
    KnowledgeError,
    Program,
    load,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "programs_examples.jsonl"


def _raw() -> dict:
    return tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))


def _code_kind(kind: str) -> bool:
    head, _, lang = kind.partition(":")
    return head in ("code", "script") and lang in LANGS


# ------------------------------------------------------------------ the built-in table
def test_every_entry_loads_and_is_valid() -> None:
    raw = _raw()
    table = load()
    for name in raw:
        prog = table[name]
        assert isinstance(prog, Program) and prog.name == name
        for opt, kind in prog.options.items():
            assert opt.startswith(("-", "+")), (name, opt)
            assert kind in VALUE_KINDS | FLAG_KINDS or _code_kind(kind), (name, opt, kind)
        for sub, kind in prog.subcommands.items():
            assert kind in SUBCOMMAND_KINDS or _code_kind(kind), (name, sub, kind)
        assert prog.input is None or prog.input in INPUT_KINDS or _code_kind(prog.input), name
        assert prog.operand is None or prog.operand in OPERAND_KINDS or _code_kind(prog.operand), name
        assert prog.wraps is None or 0 <= prog.wraps <= 4, name


def test_at_least_350_programs() -> None:
    assert len(_raw()) >= 350


def test_also_names_are_distinct() -> None:
    raw = _raw()
    owners = Counter(a for entry in raw.values() for a in entry.get("also", ()))
    twice = sorted(a for a, n in owners.items() if n > 1)
    assert not twice, f"named by more than one entry: {twice}"
    clash = sorted(a for a in owners if a in raw)
    assert not clash, f"also names that are entries of their own: {clash}"
    for name, entry in raw.items():
        assert name not in entry.get("also", ()), name


def test_also_names_map_to_their_entry() -> None:
    raw, table = _raw(), load()
    for name, entry in raw.items():
        for other in entry.get("also", ()):
            assert table[other] is table[name]


def test_a_kind_option_is_not_repeated_in_value_opts() -> None:
    # value_opts is for options without a kind, and for a listen option that names what it binds
    for name, entry in _raw().items():
        vo = set(entry.get("value_opts", ()))
        for opt, kind in (entry.get("options") or {}).items():
            assert kind == "listen" or opt not in vo, (name, opt)


def test_takes_value() -> None:
    table = load()
    assert table["tar"].takes_value("--to-command")
    assert table["tar"].takes_value("-f")                 # in value_opts
    assert not table["tar"].takes_value("-v")
    assert not table["nc"].takes_value("-l")              # listen, a flag
    assert table["ssh"].takes_value("-L")                 # listen, naming what it binds
    assert table["php"].takes_value("-S")
    assert not table["less"].takes_value("-N")


def test_a_few_entries_say_what_the_manuals_say() -> None:
    t = load()
    assert t["taskset"].wraps == 1 and not t["taskset"].takes_value("-c")   # -c is a flag: the list is an operand
    assert t["linux32"].wraps == 0 and t["setarch"].wraps == 1
    assert t["timeout"].wraps == 1 and t["flock"].wraps == 1 and t["nice"].wraps == 0
    assert t["python3"].options["-c"] == "code:python" and t["python3"].input == "code:python"
    assert t["gawk"].operand == "code:awk" and t["mawk"] is t["awk"]
    assert t["vim"].options["-c"] == "code:vim" and t["view"].input == "bang"
    assert t["ncat"].options["-e"] == "program" and t["ncat"].options["--sh-exec"] == "command"
    assert t["curl"].options["-T"] == "upload" and t["wget"].options["--post-file"] == "upload"
    assert t["tcpdump"].options["-w"] == "write" and t["tcpdump"].options["-z"] == "program"
    assert t["openssl"].subcommands["s_server"] == "listen"
    assert t["perf"].subcommands["record"] == "command"
    assert t["rpm"].options["--eval"] == "code:other"
    assert t["ld-linux-x86-64.so.2"].operand == "program"
    assert t["unshare"].input == "shell" and t["bash"].input == "shell"
    assert t["sqlite3"].input == "sql" and t["duckdb"].input == "sql" and t["redis-cli"].input == "redis"


# ------------------------------------------------------------------ the loader's errors
@pytest.mark.parametrize(("text", "names"), [
    ('[frobnicate]\nexcutes = 1\n', ("programs.frobnicate", "excutes")),
    ('[frobnicate]\noptions = { "-x" = "explode" }\n', ("programs.frobnicate.options.-x", "explode")),
    ('[frobnicate]\nsubcommands = { "go" = "write" }\n', ("programs.frobnicate.subcommands.go", "write")),
    ('[frobnicate]\ninput = "code:cobol"\n', ("programs.frobnicate.input", "code:cobol")),
    ('[frobnicate]\noperand = "read"\n', ("programs.frobnicate.operand", "read")),
    ('[frobnicate]\noptions = { "x" = "read" }\n', ("programs.frobnicate.options", "'x'")),
    ('[frobnicate]\nwraps = 5\n', ("programs.frobnicate.wraps", "5")),
    ('[frobnicate]\nwraps = -1\n', ("programs.frobnicate.wraps", "-1")),
    ('[frobnicate]\nwraps = true\n', ("programs.frobnicate.wraps", "True")),
    ('[frobnicate]\nwraps = "1"\n', ("programs.frobnicate.wraps", "'1'")),
    ('[frobnicate]\nalso = "frob"\n', ("programs.frobnicate.also",)),
    ('[frobnicate]\nvalue_opts = [1]\n', ("programs.frobnicate.value_opts",)),
    ('[frobnicate]\nlistens = "yes"\n', ("programs.frobnicate.listens",)),
    ('frobnicate = 3\n', ("programs.frobnicate",)),
])
def test_loader_errors_name_the_program_and_key(text: str, names: tuple) -> None:
    with pytest.raises(KnowledgeError) as err:
        load(text)
    for part in names:
        assert part in str(err.value)


def test_config_extra_merges_into_an_entry() -> None:
    table = load(extra={"tar": {"options": {"--frob": "write"}}, "newtool": {"wraps": 0}})
    assert table["tar"].options["--frob"] == "write"
    assert table["tar"].options["--to-command"] == "command"
    assert table["gtar"].options["--frob"] == "write"
    assert table["newtool"].wraps == 0


def test_config_extra_errors_name_the_program_and_key() -> None:
    with pytest.raises(KnowledgeError, match=r"programs\.tar\.options\.--frob"):
        load(extra={"tar": {"options": {"--frob": "explode"}}})
    with pytest.raises(KnowledgeError, match=r"programs\.newtool"):
        load(extra={"newtool": ["wraps"]})


# ------------------------------------------------------------------ the example commands
def _examples() -> list[dict]:
    return [json.loads(line) for line in EXAMPLES.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_examples_are_well_formed_and_name_known_programs() -> None:
    table, raw = load(), _raw()
    keys = {"wraps", "value_opts", "input", "operand", "listens", "connects", "options", "subcommands"}
    kinds = VALUE_KINDS | FLAG_KINDS | INPUT_KINDS | OPERAND_KINDS | SUBCOMMAND_KINDS | keys
    rows = _examples()
    assert rows
    seen = set()
    for row in rows:
        assert set(row) == {"command", "expect", "program", "capability"}, row
        assert row["expect"] in ("hold", "auto"), row
        assert row["program"] in raw, row
        assert row["command"].strip(), row
        assert row["capability"] in kinds or _code_kind(row["capability"]), row
        assert (row["command"], row["expect"]) not in seen, row
        seen.add((row["command"], row["expect"]))
        prog = table[row["program"]]
        spelled = {prog.name} | {a for a, p in table.items() if p is prog}
        assert any(word.rsplit("/", 1)[-1] in spelled for word in row["command"].replace("\n", " ").split()), row


def test_every_program_has_an_example_that_must_reach_a_human() -> None:
    """Every entry that says what a program can do has an example of it that must reach a person; an entry that
    only names what a program uses without showing it (``uses``: a key to sign with) has an everyday one."""
    rows = _examples()
    held = {row["program"] for row in rows if row["expect"] == "hold"}
    everyday = {row["program"] for row in rows if row["expect"] == "auto"}
    raw = _raw()
    only_uses = {name for name, e in raw.items() if set((e.get("options") or {}).values()) == {"uses"} and set(e) <= {
        "options", "value_opts", "also"}}
    missing = sorted(set(raw) - held - only_uses)
    assert not missing, f"programs without a hold example: {missing}"
    assert only_uses <= everyday, f"programs without an everyday example: {sorted(only_uses - everyday)}"
