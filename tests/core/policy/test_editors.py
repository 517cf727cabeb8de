"""Command tier: the editors family (``core/policy/shell/families/editors.py``): editors and gdb.

Each row is ``(action, command, tier)``: the tier ``classify(action, command)`` must give. A row lives in
the file of the family whose handler reads the command (its outermost one: ``bash -c 'rm -rf /'`` is
the interpreters family's, ``sudo rm -rf /`` the files family's); rows no handler decides are in
test_walker, test_dispatch, test_options, test_secrets and test_actions.
"""

from __future__ import annotations

import pytest

from core.policy import classify
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

CASES = [
    # found while hardening the classifier (a prompt-injected agent's tricks), with their over-flag checks
    ('terminal', 'EDITOR=vim git commit', L),
    # editors and archivers that run commands
    ('terminal', "ed -s file <<< '!rm -rf ~'", C),
    ('terminal', "ed -s file <<< 'w !rm -rf ~'", C),
    ('terminal', "printf ':!rm -rf ~\\n' | vim", C),
    # ... and their harmless look-alikes
    ('terminal', 'vim file', L),
    ('terminal', 'vim +10 f.py', L),
    ('terminal', "vim -c 'set nu' f", L),
    ('terminal', "vim -c 'wq!' f", L),
    ('terminal', "vim -c '%s/a/b/g' -c wq f", L),
    ('terminal', "ed -s f <<< $'a\\n!hello\\n.\\nw'", L),
    # red team 3, smaller spec gaps: an octal mode after `=`/`+` is world-writable like 777; setuid is HIGH,
    # setgid MEDIUM (choice); builds that push publish; glab reads like gh; rpm -i/-U/-e installs; inline code
    # of bun, ipython, irb and gdb -ex; systemd power targets reached now are power operations; role privileges
    # in ALTER/CREATE ROLE are grants; COPY … PROGRAM with dollar quoting
    ('terminal', 'gdb -batch -ex \'call system("id")\' -p 1', M),
    ('terminal', "gdb -ex 'shell rm -rf /'", C),
    ('terminal', 'gdb ./a.out', L),
]


@pytest.mark.parametrize(("action", "command", "expected"), CASES)
def test_editors(action: str, command: str, expected: Tier) -> None:
    got = classify(action, command)
    assert got.tier is expected, (action, command, got)
