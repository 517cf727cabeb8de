"""git and the forges (gh, glab): read-only subcommands, options before the subcommand, protected branches and
production remotes, config keys whose value is a command, options and subcommands that write or run one.

To add a rule: add the subcommand, option or key to its table. Test it in ``tests/core/policy/test_git.py``.
"""

from __future__ import annotations

from core.policy.tables.effects import FX_RUN, FX_WRITE
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

#: git commands that show file contents (a secret file among their paths is a secret read)
GIT_CONTENT_READS = frozenset(("diff", "blame", "annotate", "grep", "diff-files", "diff-index", "diff-tree"))
PROD_REMOTES = frozenset(("heroku", "production", "prod"))
#: branches whose deletion on a remote (``git push -d origin main``, ``git push origin :main``) is HIGH; other
#: remote branch deletions are MEDIUM like any push
PROTECTED_BRANCHES = frozenset(("main", "master", "production", "prod", "trunk", "release", "stable", "develop",
                                "live", "gh-pages"))
#: gh/glab command groups whose set/delete change CI secrets or variables (HIGH)
FORGE_SECRET_GROUPS = frozenset(("secret", "variable"))
#: git subcommands that only read (listing forms of branch/tag/remote/stash are handled in code)
GIT_READ = frozenset((
    "status", "log", "diff", "show", "blame", "annotate", "grep", "shortlog", "describe", "rev-parse", "rev-list",
    "ls-files", "ls-tree", "ls-remote", "cat-file", "reflog", "whatchanged", "help", "version", "show-ref",
    "show-branch", "for-each-ref", "merge-base", "name-rev", "cherry", "count-objects", "fsck", "verify-commit",
    "verify-tag", "check-ignore", "check-attr", "var", "diff-tree", "diff-files", "diff-index", "range-diff",
    "--version",
))
GIT_GLOBAL_WITH_ARG = frozenset(("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path",
                                 "--super-prefix", "--config-env", "--attr-source", "--list-cmds"))
#: git's options before the subcommand that take no value (another option followed by a word may take it as
#: its value: the command after that word counts too)
GIT_GLOBAL_FLAGS = frozenset(("-p", "--paginate", "-P", "--no-pager", "--no-replace-objects", "--bare",
                              "--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
                              "--no-optional-locks", "--no-lazy-fetch", "--no-advice", "-v", "--version", "-h",
                              "--help", "--html-path", "--man-path", "--info-path", "--exec-path"))
#: git config keys whose value is a shell command (also pager.*, alias.*/credential.* starting with "!")
GIT_COMMAND_KEYS = frozenset(("core.sshcommand", "core.pager", "core.editor", "core.fsmonitor", "core.askpass",
                              "core.gitproxy", "sequence.editor", "diff.external", "gpg.program",
                              "gpg.ssh.program", "gpg.x509.program", "uploadpack.packobjectshook",
                              "web.browser", "instaweb.httpd", "sendemail.smtpserver",
                              "sendemail.tocmd", "sendemail.cccmd"))
GIT_COMMAND_KEY_SUFFIXES = (".textconv", ".command", ".driver", ".cmd", ".clean", ".smudge", ".process",
                            ".uploadpack", ".receivepack")
#: options of git subcommands that write a file or run a command (read-only subcommands included:
#: ``git log --output=/etc/passwd`` is a write into /etc)
_GIT_DIFF_FX = {"--output": FX_WRITE}
GIT_OPTION_EFFECTS: dict[str, dict[str, str]] = {
    "log": _GIT_DIFF_FX, "diff": _GIT_DIFF_FX, "show": _GIT_DIFF_FX, "whatchanged": _GIT_DIFF_FX,
    "diff-tree": _GIT_DIFF_FX, "diff-files": _GIT_DIFF_FX, "diff-index": _GIT_DIFF_FX, "range-diff": _GIT_DIFF_FX,
    "format-patch": {"--output": FX_WRITE, "-o": FX_WRITE, "--output-directory": FX_WRITE},
    "archive": {"--output": FX_WRITE, "-o": FX_WRITE},
    "grep": {"--open-files-in-pager": FX_RUN, "-O": FX_RUN},
    "difftool": {"--extcmd": FX_RUN, "-x": FX_RUN},
    "rebase": {"--exec": FX_RUN, "-x": FX_RUN},
}
#: git subcommands (and their sub-subcommand) that change the repository although the subcommand only reads
#: otherwise: (tier, what)
GIT_SUBCOMMAND_EFFECTS: dict[tuple, tuple] = {
    ("reflog", "expire"): (M, "discards reflog entries (the record that recovers lost commits)"),
    ("reflog", "delete"): (M, "discards reflog entries (the record that recovers lost commits)"),
}
#: git subcommands whose trailing operands are a command they run: (subcommand, word) -> how the command is given
#: ("text": one shell string, "argv": the words are the command)
GIT_RUNS: dict[tuple, str] = {("submodule", "foreach"): "text", ("bisect", "run"): "argv"}
