"""The policy's data: programs, flags, paths and words (tiers.md), one module per topic. Code in the shell
package and the other policy modules interprets these tables, always through this package's namespace
(``from core.policy import tables as T``; ``T.READ_ONLY``); operators extend some of them through
:class:`core.policy.PolicyTables`.

Modules: ``paths`` (path classes), ``programs`` (read-only programs, wrappers, shells, interpreters),
``system`` (power, disks, services, firewalls, users), ``network`` (senders, secrets printed, HTTP, ssh),
``packages`` (installers, publishers), ``infra`` (containers, terraform, deploys), ``databases``, ``git``,
``options`` (options before a subcommand), ``effects`` (options and variables that write or run), ``actions``
(action names).

To add a table: define it (an upper-case name) in its topic module; this package takes every public name of
every topic module (tests/core/policy/test_tables.py checks that no name is defined in two of them).
"""

from __future__ import annotations

from core.policy.tables.actions import *  # noqa: F403
from core.policy.tables.databases import *  # noqa: F403
from core.policy.tables.effects import *  # noqa: F403
from core.policy.tables.git import *  # noqa: F403
from core.policy.tables.infra import *  # noqa: F403
from core.policy.tables.network import *  # noqa: F403
from core.policy.tables.options import *  # noqa: F403
from core.policy.tables.packages import *  # noqa: F403
from core.policy.tables.paths import *  # noqa: F403
from core.policy.tables.programs import *  # noqa: F403
from core.policy.tables.system import *  # noqa: F403
