"""Publishing to a registry or repository (HIGH): :func:`publish_command` reads tables PUBLISHERS and
PUBLISH_TASKS for the packages family (``npm publish``, ``cargo yank``, ``gradle publish``) and the deploy tools
of the infra family (``helm push``).

To add a rule: add the program and its publish subcommands to PUBLISHERS (or its tasks to PUBLISH_TASKS) in
``core/policy/tables/packages.py``.
"""

from __future__ import annotations

from core.policy import tables as T


def publish_command(prog: str, args: list, pos: list):
    """The reason a call publishes (tables :data:`PUBLISHERS`, :data:`PUBLISH_TASKS`), or None."""
    tasks = T.PUBLISH_TASKS.get(prog)
    if tasks is not None:
        remote, local = tasks
        for a in pos:
            task = a.rsplit(":", 1)[-1] if not a.startswith(remote) else a
            if task.startswith(remote) and task not in local:
                return f"{prog} {a} (publishes to a repository)"
        return None
    if prog not in T.PUBLISHERS:
        return None
    pub = T.PUBLISHERS[prog]
    sub = pos[0] if pos else ""
    if pub is None:
        return f"{prog} {sub}".strip() + " (publishes to a registry)"
    for entry in pub:
        words = entry.split()
        if (words[0] if words else "") != sub:
            continue
        more = words[1:]
        if not more or (more[0].startswith("-") and more[0] in args) or pos[1:2] == more[:1]:
            if words[-1:] == ["publish"] or not more and sub in ("push", "upload", "release", ""):
                return f"{prog} {entry}".strip() + " (publishes to a registry)"
            return f"{prog} {entry} (changes a package published on a registry)"
    return None
