"""Command tier: actions other than shell commands (``core/policy/_policy.py``, ``_actions.py``): action names read as
words, camelCase and plural names, MCP server parts, paths and HTTP methods in their commands.

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
    ('mcp__fs__delete_directory', '', H),
    ('mcp__fs__wipe_disk', '', C),
    ('mcp__filesystem__delete_directory', '/etc', H),
    ('deleteRepository', '', H),
    ('deleteRepositories', '', H),
    ('DeleteUsers', '', H),
    ('removeUser', '', H),
    ('dropTables', '', H),
    ('purgeQueues', '', H),
    ('destroyCluster', '', C),
    ('nukeEverything', '', C),
    ('deleteFiles', '', L),
    ('wipeCaches', '', L),
    ('mcp__github__delete_repository', '', H),
    ('mcp__aws__terminate_instances', '', H),
    ('revokeTokens', '', H),
    ('rotateKeys', '', H),
    ('updateSecrets', '', H),
    ('grantPermissions', '', H),
    ('setIamPolicy', '', H),
    ('createApiKey', '', H),
    ('sendEmails', '', M),
    ('postMessages', '', M),
    ('transferFunds', '', H),
    ('refundPayments', '', H),
    ('publishPackages', '', H),
    ('rebootServers', '', C),
    ('shutdownInstance', '', C),
    ('shutDownInstance', '', C),
    ('dropDatabase', '', H),
    ('wipeDatabase', '', C),
    ('deleteBuckets', '', H),
    ('delete', '', H),
    ('remove', '', H),
    ('DELETE', '', H),
    ('mcp__db__drop', '', H),
    ('deleteProdBranch', '', H),
    ('deleteAccounts', '', H),
    ('terminate', '', H),
    ('kill', '', H),
    ('killProcess', '', C),
    ('kill_processes', '', C),
    ('deleteUserData', '', H),
    ('delete_all', '', H),
    ('deleteAll', '', H),
    ('bulkDelete', '', H),
    ('massDelete', '', H),
    ('format_disk', '', C),
    ('formatDisk', '', C),
    ('formatDisks', '', C),
    ('rmRf', '', C),
    ('rm-rf', '', C),
    ('rm.rf', '', C),
    ('fetch', 'DELETE https://api.x.com/a', H),
    ('api_call', 'delete https://api/x', H),
    ('api_call', 'DELETE /v1/repos/7', H),
    ('api_call', 'DELETE  https://x', H),
    ('write_file', '/etc/passwd', H),
    ('mcp__filesystem__write_file', '/etc/passwd', H),
    ('writeFile', '/etc/passwd', H),
    ('edit_file', '/etc/passwd', H),
    ('write_file', '~/.ssh/authorized_keys', H),
    ('append_file', '~/.bashrc', H),
    ('write_file', '/etc/./passwd', H),
    ('write_file', '//etc/passwd', H),
    ('write_file', '/home/../etc/passwd', H),
    ('read_file', '~/.ssh/id_rsa', M),
    ('readFile', '~/.ssh/id_rsa', M),
    ('mcp__fs__read_text_file', '~/.ssh/id_rsa', M),
    ('read_file', '/etc/shadow', M),
    ('get_file_content', '~/.aws/credentials', M),
    ('write_file', '{"path": "/etc/passwd"}', H),
    ('write_file', 'path=/etc/passwd', H),
    ('mcp__fs__move_file', '/etc/passwd', H),
    ('delete_directory', '~/.ssh', H),
    ('delete_file', '/', H),
    ('delete_file', '/etc', H),
    ('delete_directory', '~', H),
    ('read_file', '', S),
    ('wipe_cache', '', L),
    ('git_show', '', S),
    ('sendSlackMessage', '', M),
    ('s3_delete_bucket', 'prod-assets', H),
    ('send_message', 'Hello world', M),
    ('send_message', "please don't run rm -rf / on prod again", M),
    ('search_files', 'sudo rm -rf /', S),
    ('notify_oncall', 'reboot of web-3 finished', M),
    ('killSession', '', L),
    ('kill_session', '', L),
    ('delete_branch', '', L),
    ('query', 'SELECT * FROM users', S),
    ('execute_python', "print('hi')", L),
    ('some_tool', 'ls -la', L),
    ('mcp__postgres__list_tables', '', S),
    ('api_call', 'GET https://x', M),
    ('api_call', 'get https://x', M),
    ('send_message', 'Delete https://x.com/a from the doc please', M),
    # paths that climb above the working directory keep what their name says (wherever they land)
    ('read_file', '../.env', M),
    ('read_file', '../../home/u/.env', M),
    ('write_file', './../.env', M),
    ('read_file', '../.ssh/id_rsa', M),
    ('read_file', '../../../../home/u/.ssh/id_rsa', M),
    ('write_file', '../../../../etc/passwd', H),
    ('write_file', '../notes.txt', L),
]


@pytest.mark.parametrize(("action", "command", "expected"), CASES)
def test_actions(action: str, command: str, expected: Tier) -> None:
    got = classify(action, command)
    assert got.tier is expected, (action, command, got)
