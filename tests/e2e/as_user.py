"""Run ``signoff ARGS`` as another OS user: ``python as_user.py UID GID GIDS -- ARGS``.

The tests run as root, whose Python lives under /root (mode 0700), out of other users' reach. So
this loads what signoff needs while still root, then drops to the user (groups first) and runs the
CLI: the process really is that user for every socket, file and peer-credential check.
"""

import concurrent.futures.thread  # noqa: F401
import encodings.ascii  # noqa: F401
import encodings.idna  # noqa: F401
import encodings.latin_1  # noqa: F401
import encodings.utf_8  # noqa: F401
import importlib.metadata  # noqa: F401
import os
import sys

# Everything the CLI and daemon import lazily, loaded before the privileges go.
import aiosqlite  # noqa: F401
import alembic.command  # noqa: F401
import alembic.config  # noqa: F401
import alembic.runtime.migration  # noqa: F401
import alembic.script  # noqa: F401
import platformdirs  # noqa: F401
import sqlalchemy.dialects.sqlite.aiosqlite  # noqa: F401
import sqlalchemy.dialects.sqlite.pysqlite  # noqa: F401

import adapters.terminal  # noqa: F401
import bot.app  # noqa: F401
import bot.cli
import bot.doctor  # noqa: F401
from core.ledger import run_migrations  # noqa: F401

if __name__ == "__main__":
    uid, gid, groups = int(sys.argv[1]), int(sys.argv[2]), [int(g) for g in sys.argv[3].split(",") if g]
    args = sys.argv[sys.argv.index("--") + 1 :]
    import platformdirs.unix  # noqa: F401

    os.setgroups(groups)
    os.setgid(gid)
    os.setuid(uid)
    sys.exit(bot.cli.main(args))
