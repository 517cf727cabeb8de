"""Command tier: the terminals family (``core/policy/shell/families/terminals.py``): script, tmux, screen, watch, su.

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
    # wrappers and program paths
    ("terminal", "watch -n 5 'rm -rf /etc'", C),
    # found while hardening the classifier (a prompt-injected agent's tricks), with their over-flag checks
    ('terminal', 'watch rm -rf /', C),
    # terminal recorders and multiplexers that run a command string are read like `sh -c`
    ('terminal', "script -c 'rm -rf /'", C),
    ('terminal', "script -qc 'rm -rf /' /dev/null", C),
    ('terminal', "script --command 'reboot' out.log", C),
    ('terminal', "script out.log -c 'rm -rf /'", C),
    ('terminal', 'script -q /dev/null rm -rf ~', C),
    ('terminal', "tmux new -d 'rm -rf ~'", C),
    ('terminal', "tmux new-session -d -s x 'rm -rf /'", C),
    ('terminal', 'tmux new-session -d -s x rm -rf /', C),
    ('terminal', "tmux send-keys 'rm -rf /' Enter", C),
    ('terminal', 'tmux send-keys -t 0 rm Space -rf Space / C-m', C),
    ('terminal', "tmux -L s new -d \\; send-keys 'reboot' Enter", C),
    ('terminal', "tmux split-window -h 'shutdown now'", C),
    ('terminal', "tmux run-shell 'rm -rf /etc'", C),
    ('terminal', "tmux -c 'rm -rf /'", C),
    ('terminal', "screen -dm bash -c 'reboot'", C),
    ('terminal', 'screen -dmS name rm -rf /', C),
    ('terminal', 'screen -S n -d -m reboot', C),
    ('terminal', "screen -S x -X stuff 'rm -rf /\\n'", C),
    ('terminal', "tmux new -d 'sleep 10'", M),
    ('terminal', "tmux send-keys 'ls' Enter", M),
    ('terminal', 'script /etc/session.log', H),
    ('terminal', 'tmux ls', L),
    ('terminal', 'tmux attach -t 0', L),
    ('terminal', 'tmux new -d -s work', L), ('terminal', 'tmux new -s work', M), ('terminal', 'tmux', M),
    ('terminal', 'screen -S work', M), ('terminal', 'screen -ls', L), ('terminal', 'screen -r work', L),
    ('terminal', 'screen -ls', L),
    ('terminal', 'screen -r x', L),
    ('terminal', 'script out.log', L),
]


@pytest.mark.parametrize(("action", "command", "expected"), CASES)
def test_terminals(action: str, command: str, expected: Tier) -> None:
    got = classify(action, command)
    assert got.tier is expected, (action, command, got)
