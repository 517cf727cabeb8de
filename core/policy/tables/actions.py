"""Action names read as words (:mod:`core.policy._actions`, :mod:`core.policy._policy`): exact names and
their tiers, words and their tiers, the words that make an action a shell, database, code or path action.

To add a rule: add the exact name to ACTION_EXACT or the word to its tier's line in ACTION_WORDS (operators add
theirs with ``policy.action_tiers``). Test it in ``tests/core/test_policy_actions.py``.
"""

from __future__ import annotations

from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

ACTION_EXACT: dict[str, Tier] = {
    "read_file": S, "search_files": S, "web_search": S, "session_search": S, "list_files": S,
    "get_file_content": S, "memory_search": S, "skills_list": S, "skills_search": S,
    "write_file": L, "create_file": L, "patch_file": L, "delete_file": L, "execute_code": L, "run_script": L,
    "skill_install": L,
    "send_message": M, "web_fetch": M, "browser_navigate": M, "api_call": M, "gitea_create_issue": M,
    "gitea_create_pr": M, "git_push": M, "deploy": M,
    "config_change": H, "env_change": H, "key_rotation": H, "access_grant": H, "permission_change": H,
    "backup_restore": H,
    "kill_process": C, "rm_rf": C, "format_disk": C, "shutdown": C, "crisis_override": C,
}
ACTION_WORDS: dict[str, Tier] = {}
for _t, _ws in (
    (S, "read search list query get show describe inspect view check status log diff count info find"),
    (L, "write edit patch create update move copy mkdir script test lint format_code build comment label"),
    (M, "message send email notify webhook post release commit push pr pull_request merge_request merge install "
        "fetch invite deploy restart start stop scale"),
    (H, "config crypto key secret credential password auth permission grant role admin iam policy firewall dns "
        "database migration migrate systemd payment pay charge refund transfer withdraw billing production prod "
        "publish"),
    (C, "shutdown reboot poweroff destroy wipe nuke self_modify shut_down power_off"),
):
    for _w in _ws.split():
        ACTION_WORDS[_w] = _t
REMOVAL_VERBS: dict[str, Tier] = {"delete": H, "remove": H, "drop": H, "purge": H, "truncate": H, "terminate": H,
                                  "revoke": H, "kill": H, "erase": H, "unlink": H, "rmdir": H, "rm": H, "destroy": C, "wipe": C, "nuke": C}
LIGHT_OBJECTS = frozenset(("file", "dir", "folder", "branch", "tmp", "temp", "cache", "draft", "comment", "label",
                           "tag", "message", "session", "log"))
SHELL_WORDS = frozenset(("terminal", "shell", "bash", "sh", "zsh", "cmd", "command", "exec"))
DATABASE_WORDS = frozenset(("sql", "db", "database", "postgres", "mysql", "sqlite", "bigquery", "snowflake"))
CODE_WORDS = frozenset(("run", "execute", "eval", "script", "code", "deploy"))
#: words that make an action write, move or delete the path in its command
PATH_WRITE_VERBS = frozenset(("write", "create", "patch", "edit", "delete", "remove", "move", "copy", "rename",
                              "append", "overwrite", "save", "replace", "mkdir", "touch", "rm", "mv", "cp", "put",
                              "upload", "str_replace", "insert", "update"))
PATH_READ_VERBS = frozenset(("read", "get", "view", "open", "cat", "show", "load", "head", "tail", "preview", "grep"))
PATH_OBJECTS = frozenset(("file", "dir", "directory", "folder", "path", "content", "text", "notebook", "document",
                          "doc", "contents"))
#: multi-word entries of the word list, matched on consecutive words
WORD_PAIRS = frozenset(("format_code", "self_modify", "pull_request", "merge_request", "shut_down", "power_off",
                        "force_push", "hard_reset", "reset_hard"))
for _w in ("force_push", "hard_reset", "reset_hard"):
    ACTION_WORDS[_w] = H
#: words of an MCP tool that run what the server is about (mcp__postgres__query is a database action,
#: mcp__terminal__run a shell action)
SERVER_RUN_WORDS = frozenset(("query", "run", "execute", "exec", "statement", "sql", "eval", "command", "write",
                              "call"))
#: action words under which a command that starts with a SQL statement keyword is read as SQL
SQL_RUN_WORDS = frozenset(("query", "run", "execute", "exec", "statement", "eval", "code", "script"))
SQL_STATEMENT_WORDS = frozenset(("select", "insert", "update", "delete", "drop", "truncate", "alter", "create",
                                 "grant", "revoke", "merge", "replace", "with", "copy", "rename", "upsert"))
#: programs an action is named after besides its own words (http_request given `curl -X DELETE …`)
_HTTP_PROGRAMS = ("curl", "wget", "http", "https", "xh", "httpie")
ACTION_PROGRAMS: dict[str, tuple] = {
    "http": _HTTP_PROGRAMS, "https": _HTTP_PROGRAMS, "api": _HTTP_PROGRAMS, "request": _HTTP_PROGRAMS,
    "fetch": _HTTP_PROGRAMS, "webhook": _HTTP_PROGRAMS, "rest": _HTTP_PROGRAMS, "url": _HTTP_PROGRAMS,
    "web": _HTTP_PROGRAMS, "curl": _HTTP_PROGRAMS,
}
