"""Command tier: the git family (``core/policy/shell/families/git.py``): git and the forges' CLIs.

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
    # services, git, docker, k8s, iac
    ("terminal", "git push --force", H),
    ("terminal", "git push -f origin main", H),
    ("terminal", "git push -fu o b", H),
    ("terminal", "git push --force-with-lease", H),
    ("terminal", "git push heroku main", H),
    ("terminal", "git push origin main", M),
    ("terminal", "git reset --hard", H),
    ("terminal", "git clean -fdx", M),
    ("terminal", "git clean -fd", L),
    ("terminal", "git status", S),
    ("terminal", "git branch", S),
    ("terminal", "git branch -D old", L),
    ("terminal", "git commit -m 'rm -rf /'", L),
    ("terminal", "gh release create v1", H),
    ("terminal", "gh repo delete x", H),
    ("terminal", "gh pr create", M),
    # HTTP
    ("terminal", "gh api -X DELETE repos/x", H),
    # found while hardening the classifier (a prompt-injected agent's tricks), with their over-flag checks
    ('terminal', "git -c core.sshCommand='rm -rf /' fetch", C),
    ('terminal', "git -c alias.x='!rm -rf /' x", C),
    ('terminal', "git config alias.x '!rm -rf ~'", C),
    ('terminal', "git -c core.pager='rm -rf /' log", C),
    ('terminal', 'git -c core.hooksPath=/tmp commit', L),
    ('terminal', 'gh api -X DELETE /repos/a/b', H),
    ('terminal', 'gh api --method DELETE /repos/a/b', H),
    ('terminal', 'gh repo delete a/b --yes', H),
    ('terminal', 'git log --grep=halting', S),
    ('terminal', 'git -c user.name=x commit -m y', L),
    ('terminal', 'git config user.email a@b.c', L),
    ('terminal', 'git config --get core.pager', S),
    ('terminal', "git config core.pager 'less -R'", L), ('terminal', "git config core.pager 'less; sh'", M),
    ('terminal', 'git clean -fdx', M),
    ('terminal', 'git checkout -- .', L),
    # a secret file as a commit holds it, and a process's environment, are secret reads
    ('terminal', 'git show HEAD:.env', M),
    ('terminal', 'git cat-file -p HEAD:.env', M),
    ('terminal', 'git show main:config/.env.production', M),
    ('terminal', 'git show HEAD:README.md', S),
    ('terminal', 'git show HEAD', S),
    # deleting remote branches (git push -d/--delete REF, git push REMOTE :REF): a protected branch is HIGH
    ('terminal', 'git push -d origin main', H),
    ('terminal', 'git push origin :main', H),
    ('terminal', 'git push origin --delete main', H),
    ('terminal', 'git push origin :refs/heads/master', H),
    ('terminal', 'git push --delete origin production', H),
    ('terminal', 'git push -d origin feature/x', M),
    ('terminal', 'git push origin :old-feature', M),
    ('terminal', 'git push origin main', M),
    ('terminal', 'git push origin main:main', M),
    # an option's value read as the subcommand: global options (table GLOBAL_OPTS) are read first, and an
    # unknown option followed by a word counts both ways (the higher tier decides)
    ('terminal', 'git --attr-source status push -f', H),
    ('terminal', 'git --unknown-opt status push -f', H),
    ('terminal', 'gh --unknown-opt status repo delete x', H),
    # ... and their harmless look-alikes stay where they were
    ('terminal', 'git --no-pager log', S),
    ('terminal', 'git -C repo status', S),
    # read-only programs with options that write files or run commands (table OPTION_EFFECTS): a write goes
    # through the path rules of any write, a command string is read as a command
    ('terminal', 'git log --output=/etc/passwd', H),
    ('terminal', 'git diff --output=$HOME/.bashrc', H),
    ('terminal', 'git log -p --output ~/.ssh/authorized_keys', H),
    ('terminal', 'git format-patch -o /etc HEAD~1', H),
    ('terminal', 'git archive -o /etc/x.tar HEAD', H),
    ('terminal', "git grep -O'rm -rf ~' foo", C),
    ('terminal', "git rebase -x 'rm -rf ~' HEAD~3", C),
    ('terminal', "git submodule foreach 'rm -rf ~'", C),
    ('terminal', 'git bisect run rm -rf ~', C),
    ('terminal', 'git reflog expire --expire-unreachable=now --all', M),
    ('terminal', 'git reflog delete HEAD@{1}', M),
    # ... and the same programs reading, writing in the workspace, or running harmless commands
    ('terminal', 'git log --oneline -20', S),
    ('terminal', 'git diff --output=changes.patch', L),
    ('terminal', 'git reflog', S),
    # editors and archivers that run commands
    ('terminal', "git -c core.pager='less +\"!rm -rf ~\"' log", C),
    ('terminal', "git -c alias.x='!rm -rf ~' x", C),
    # red team 3, smaller spec gaps: an octal mode after `=`/`+` is world-writable like 777; setuid is HIGH,
    # setgid MEDIUM (choice); builds that push publish; glab reads like gh; rpm -i/-U/-e installs; inline code
    # of bun, ipython, irb and gdb -ex; systemd power targets reached now are power operations; role privileges
    # in ALTER/CREATE ROLE are grants; COPY … PROGRAM with dollar quoting
    ('terminal', 'glab release create v1.0', H),
    ('terminal', 'glab repo delete group/app --yes', H),
    ('terminal', 'glab variable set PROD_TOKEN xyz --masked', H),
    ('terminal', 'glab mr create --fill', M),
    ('terminal', 'glab mr list', S),
    # red team 3, secrets outside the sensitive-file list: cloud credential files, TLS keys, container secrets,
    # any process's environment, globs that match .env, git diff of .env, commands that print secrets (docker
    # inspect of Env, kubectl config view --raw, op/vault/doppler, aws configure get, gh auth token); env dumps
    # carry secrets on; a secret variable in a URL or a non-credential header, openssl s_client, smbclient put,
    # ftp uploads, git add of a secret then push
    ('terminal', 'git diff HEAD~1 -- .env', M),
    ('terminal', 'git log -p -- .env', M),
    ('terminal', 'gh auth token', M),
    ('terminal', 'git add -f .env ~/.aws/credentials', M),
    ('terminal', 'git add .env && git commit -m x && git push', H),
    # their harmless look-alikes
    ('terminal', 'git diff', S),
    ('terminal', 'git log -- .env', S),
    ('terminal', 'git add src && git commit -m x && git push', M),
]


@pytest.mark.parametrize(("action", "command", "expected"), CASES)
def test_git(action: str, command: str, expected: Tier) -> None:
    got = classify(action, command)
    assert got.tier is expected, (action, command, got)
