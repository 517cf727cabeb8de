"""Run ``signoff ARGS`` as another OS user: ``python as_user.py UID GID GIDS -- ARGS``.

The tests run as root, whose Python lives under /root (mode 0700), out of other users' reach. So
this loads what signoff needs while still root, then drops to the user (groups first) and runs the
CLI: the process really is that user for every socket, file and peer-credential check. The daemon's
commands (``run``, ``doctor``) load the daemon; the client's commands load only the client, which
keeps each of them well under a second.
"""

import asyncio  # noqa: F401
import concurrent.futures.thread  # noqa: F401
import datetime  # noqa: F401
import difflib  # noqa: F401
import encodings.ascii  # noqa: F401
import encodings.idna  # noqa: F401
import encodings.latin_1  # noqa: F401
import encodings.utf_8  # noqa: F401
import importlib
import importlib.metadata  # noqa: F401
import logging  # noqa: F401
import os
import shlex  # noqa: F401
import sys
import tomllib  # noqa: F401

import platformdirs  # noqa: F401
import platformdirs.unix  # noqa: F401

import bot.cli
import bot.config  # noqa: F401
import bot.connection  # noqa: F401
import core.text  # noqa: F401

#: What the daemon's commands import lazily, loaded before the privileges go.
DAEMON_MODULES = (
    "aiosqlite", "alembic.command", "alembic.config", "alembic.runtime.migration", "alembic.script",
    "sqlalchemy.dialects.sqlite.aiosqlite", "sqlalchemy.dialects.sqlite.pysqlite",
    "adapters.terminal", "bot.app", "bot.doctor", "core.ledger",
)

if __name__ == "__main__":
    uid, gid, groups = int(sys.argv[1]), int(sys.argv[2]), [int(g) for g in sys.argv[3].split(",") if g]
    args = sys.argv[sys.argv.index("--") + 1 :]
    if not args or args[0] not in {"request", "approve", "deny", "pending", "wait", "cancel", "status"}:
        for name in DAEMON_MODULES:
            importlib.import_module(name)
    os.setgroups(groups)
    os.setgid(gid)
    os.setuid(uid)
    sys.exit(bot.cli.main(args))
