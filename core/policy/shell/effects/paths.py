"""Writes and deletes judged by the class of their path (:mod:`core.policy._paths`): ``write_path``,
``delete_path``, ``pclass``. A mixin of :class:`core.policy.shell.walker.ShellReader`: handlers call
``r.write_path(p, ctx, acc, verb)``.

To change how a write into a class of path is judged, change :data:`_WRITE_TIERS` (deletes: ``delete_path``);
to add a class of path, see ``core/policy/_paths.py`` and ``core/policy/tables/paths.py``.
"""

from __future__ import annotations

from core.policy import _paths as P
from core.policy.shell.common import show
from core.policy.shell.state import MARK, Acc, Ctx
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


#: redirect targets that are network connections (bash opens a socket for them: ``/dev/tcp/HOST/PORT``)
NET_DEVICES = ("/dev/tcp/", "/dev/udp/")

_WRITE_TIERS = {
    P.ROOT: H, P.SYSROOT: H, P.SYSTEM: H, P.SENSITIVE: H, P.ENV: M, P.BLOCKDEV: C, P.SYSRQ: C, P.NULLDEV: S,
    P.HOME: L, P.WORKSPACE: L, P.OTHER: L, P.UNKNOWN: L, P.CONTAINER: L,
}


class PathEffects:
    """Path rules: the tier of a write or a delete by the class of its target."""

    def pclass(self, p: str, ctx: Ctx) -> str:
        """The class of path ``p`` (``P.SYSTEM``, ``P.HOME``, ``P.WORKSPACE`` …) where the script stands now; through
        a link made earlier in the text (``ln -s /etc/cron.d c; … > c/job``), the worse of the path and its target."""
        cls = P.classify_path(p, ctx.cwd, ctx.ws, ctx.user, ctx.container)
        if ctx.links:
            q = self.through_links(p, ctx)
            if q is not None:
                # (q is normalized already: relative only to where the text started)
                cls = P.worse(cls, P.classify_path(q, None, ctx.ws, ctx.user, ctx.container))
        return cls

    def through_links(self, p: str, ctx: Ctx) -> str | None:
        """``p`` with the links made earlier in the text followed (``c/job`` after ``ln -s /etc/cron.d c``:
        ``/etc/cron.d/job``), or None when it is not inside one."""
        if not p or MARK in p:
            return None
        n = P.normalize(p, ctx.cwd)
        found = None
        for _ in range(4):  # (a link to a link)
            for link, target in ctx.links.items():
                if n == link or n.startswith(link + "/"):
                    n = found = target + n[len(link):]
                    break
            else:
                break
        return found

    def note_link(self, target: str, link: str, ctx: Ctx) -> None:
        """``ln -s TARGET LINK``: later paths inside LINK are inside TARGET (a relative target is read from the
        link's directory)."""
        if not target or not link or MARK in target or MARK in link or len(ctx.links) >= 32:
            return
        key = P.normalize(link.rstrip("/") or "/", ctx.cwd)
        if key in ("/", "~"):
            return
        base = key.rsplit("/", 1)[0] if "/" in key else (ctx.cwd or "")
        dest = P.normalize(target, base or None) if target[0] not in "/~" else P.normalize(target, None)
        if dest != key:
            ctx.links[key] = dest

    def write_path(self, p: str, ctx: Ctx, acc: Acc, verb: str = "write to", shown: str | None = None) -> str:
        """A write of ``p`` (``verb`` names it in the reason: "redirect output to", "copy into"); returns the
        path's class. ``/dev/tcp/HOST/PORT`` is a network connection (HIGH: what runs here talks to the network).
        A write of a file inside a directory is spelled ``DIR/x``; the reason names the directory."""
        if p.startswith(NET_DEVICES):
            dest = "/".join(p.split("/")[3:5]).replace("/", ":", 1) or p
            acc.add(H, "shell.net_redirect", f"{verb} {show(dest)} through {p[:8]} (a network connection)")
            return P.SYSTEM
        cls = self.pclass(p, ctx)
        t = _WRITE_TIERS.get(cls, L)
        if cls == P.NULLDEV:
            acc.add(S, "shell.write.null", f"{verb} {p} (discarded)")
        else:
            if shown is None:
                shown = (p[:-2] or "/") if p.endswith("/x") and verb.endswith(" into") else p
            acc.add(t, f"shell.write.{cls}", f"{verb} {show(shown)} ({P.label(cls)})")
        return cls

    def write_into(self, d: str, ctx: Ctx, acc: Acc, verb: str = "write into") -> str:
        """Files written inside the directory ``d`` (a destination or output directory): the class of a file
        in it (the root directory itself when ``d`` is ``/``)."""
        if P.normalize(d, ctx.cwd) == "/":
            return self.write_path("/", ctx, acc, verb)
        return self.write_path(d.rstrip("/") + "/x", ctx, acc, verb, shown=d)

    def delete_path(self, p: str, recursive: int, ctx: Ctx, acc: Acc, what: str = "delete") -> None:
        """A delete of ``p``: ``recursive`` 0 (one file), 1 (the whole tree: ``rm -r``), 2 (a filtered tree:
        ``find … -name x -delete``)."""
        if ctx.links and p[-1:] != "/" and P.normalize(p, ctx.cwd) in ctx.links:
            cls = P.classify_path(p, ctx.cwd, ctx.ws, ctx.user, ctx.container)  # (rm LINK removes the link only)
        else:
            cls = self.pclass(p, ctx)
        if recursive:
            if cls in P.CRITICAL_TREES:
                if recursive == 2:
                    acc.add(H, f"shell.{what}.filtered.{cls}", f"filtered recursive {what} under {show(p)} "
                                                             f"({P.label(cls)})")
                else:
                    acc.add(C, f"shell.rm.recursive.{cls}", f"recursive {what} of {show(p)} ({P.label(cls)})")
            elif cls == P.CONTAINER:
                acc.add(L, "shell.rm.container", f"recursive {what} inside the container ({show(p)})")
            elif cls == P.UNKNOWN:
                acc.add(H, "shell.rm.recursive.unknown",
                        f"recursive {what} of a target unknown until run time ({show(p)})")
            else:
                acc.add(H, "shell.rm.recursive", f"recursive {what} of {show(p)} ({P.label(cls)})")
            return
        if cls in (P.SYSTEM, P.SYSROOT, P.ROOT, P.SENSITIVE):
            acc.add(H, f"shell.rm.{cls}", f"{what} of {show(p)} ({P.label(cls)})")
        elif cls == P.BLOCKDEV:
            acc.add(H, "shell.rm.device", f"{what} of device node {show(p)}")
        elif cls == P.ENV:
            acc.add(M, "shell.rm.env", f"{what} of {show(p)} (.env file)")
        elif cls == P.UNKNOWN and p == MARK:
            acc.add(H, "shell.rm.unknown", f"{what} of targets unknown until run time")
        else:
            acc.add(L, "shell.rm", f"{what} of {show(p)} ({P.label(cls)})")
