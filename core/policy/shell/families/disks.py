"""Disks: raw writes (``dd``), file systems (``mkfs``, ``wipefs``), partition tables (``sgdisk``, ``parted``,
``fdisk`` …), discards and secure erases (``blkdiscard``, ``hdparm``, ``nvme format`` …), mounts and volumes.

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_disks.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.common import show
from core.policy.shell.families import handlers
from core.policy.shell.options import getopts
from core.policy.shell.state import MARK, OTHER, SECRET
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


def h_dd(r, prog, args, metas, ctx, acc, stdin):
    """``dd of=TARGET``: onto a block device CRITICAL, else a write of TARGET (no ``of=``: standard output, LOW).
    ``if=`` a block device reads the raw disk, every file on it: a secret read (MEDIUM; its output is secret)."""
    of = None
    raw = None
    for a in args:
        if a.startswith("of="):
            of = a[3:]
        elif a.startswith("if=") and r.pclass(a[3:], ctx) == P.BLOCKDEV:
            raw = a[3:]
    if raw is not None:
        acc.add(M, "shell.dd.raw_read", f"dd reads the raw disk {show(raw)} (every file on it, secrets included)")
    if of is None:
        acc.add(L, "shell.dd", "dd to standard output")
        return SECRET if raw is not None else OTHER
    cls = r.pclass(of, ctx)
    if cls == P.BLOCKDEV:
        acc.add(C, "shell.dd.block_device", f"dd onto the block device {show(of)} (overwrites the disk)")
    elif cls == P.NULLDEV:
        acc.add(L, "shell.dd.null", f"dd to {of}")
    else:
        r.write_path(of, ctx, acc, "dd writes")
    return OTHER


def _pathlike(a: str) -> bool:
    return a.startswith(("/", ".", "~")) or "/" in a or MARK in a or "." in a


def h_mkfs(r, prog, args, metas, ctx, acc, stdin):
    """``mkfs*``, ``mke2fs``, ``mkswap`` …: CRITICAL (erases a disk) unless every target is a regular file."""
    cands = [a for a in args if not a.startswith("-") and _pathlike(a)]
    classes = [r.pclass(a, ctx) for a in cands]
    if cands and all(c in (P.WORKSPACE, P.OTHER, P.HOME) for c in classes) and not any(
            a.startswith("/dev/") for a in cands):
        acc.add(L, "shell.mkfs.file", f"{prog} on a regular file ({show(cands[-1])})")
    else:
        tgt = cands[-1] if cands else "a device"
        acc.add(C, "shell.mkfs", f"{prog} formats {show(tgt)} (erases the disk)")
    return OTHER


def h_wipefs(r, prog, args, metas, ctx, acc, stdin):
    """``wipefs -a``/``-o``: CRITICAL (erases signatures) unless every target is a regular file; listing SAFE."""
    o = getopts(args, frozenset("ot"), frozenset(("--offset", "--types", "--backup")))
    if "a" in o.flags or "--all" in o.longs or "o" in o.flags or "--offset" in o.longs:
        if o.pos and all(r.pclass(a, ctx) in (P.WORKSPACE, P.OTHER) and not a.startswith("/dev/") for a in o.pos):
            acc.add(L, "shell.wipefs.file", "wipefs on a regular file")
        else:
            acc.add(C, "shell.wipefs", "wipefs -a erases file system signatures")
    else:
        acc.add(S, "shell.wipefs.list", "wipefs (lists signatures)")
    return OTHER


def h_sgdisk(r, prog, args, metas, ctx, acc, stdin):
    """``sgdisk``: zapping the table CRITICAL, printing SAFE, other changes HIGH."""
    o = getopts(args)
    if o.flags & {"Z", "z", "o"} or o.any("--zap-all", "--zap", "--clear"):
        acc.add(C, "shell.sgdisk.zap", "sgdisk erases the partition table")
    elif o.flags & {"p", "v", "i"} or o.any("--print", "--verify", "--info"):
        acc.add(S, "shell.sgdisk.print", "sgdisk (prints)")
    else:
        acc.add(H, "shell.partition", "partition table change")
    return OTHER


def _parted_command(word: str):
    """The parted command a word names (exactly, or as a prefix of 3+ letters of one command), else None."""
    w = word.lower()
    if w in T.PARTED_COMMANDS:
        return w
    if len(w) < 3:
        return None
    hits = [c for c in T.PARTED_COMMANDS if c.startswith(w)]
    return hits[0] if len(hits) == 1 else None


def h_parted(r, prog, args, metas, ctx, acc, stdin):
    """parted [OPTIONS] [DEVICE [COMMAND [ARGS]…]]: options (``-s``, ``-a optimal``) never hide the commands;
    the highest command named decides."""
    pos: list = []
    listing = False
    i, n = 0, len(args)
    while i < n:
        a = args[i]
        if a == "--":
            pos.extend(args[i + 1:])
            break
        if a in T.PARTED_OPTS_WITH_ARG:
            i += 2
            continue
        if a in T.PARTED_LIST_OPTS:
            listing = True
        elif not (a.startswith("-") and len(a) > 1 and not a[1].isdigit()):
            pos.append(a)
        i += 1
    best, word = None, ""
    for k, a in enumerate(pos):
        cmd = _parted_command(a)
        if cmd is None or (k == 0 and a.startswith("/")):
            continue
        t = T.PARTED_COMMANDS[cmd]
        if best is None or t > best:
            best, word = t, cmd
    dev = pos[0] if pos and _parted_command(pos[0]) is None else None
    if best is not None and best >= H and dev and not dev.startswith("/dev/") \
            and r.pclass(dev, ctx) in (P.WORKSPACE, P.OTHER):
        acc.add(L, "shell.partition.file", f"parted {word} on a regular file ({show(dev)})")
    elif best is None:
        if listing:
            acc.add(S, "shell.partition.list", f"{prog} (lists partitions)")
        else:
            acc.add(H, "shell.partition", f"{prog}: partition table change")
    elif best >= C:
        acc.add(C, "shell.partition.erase", f"parted {word} erases partitions")
    elif best >= H:
        acc.add(H, "shell.partition", f"parted {word}: partition table change")
    else:
        acc.add(S, "shell.partition.list", f"{prog} (lists partitions)")
    return OTHER


def h_partition(r, prog, args, metas, ctx, acc, stdin):
    """Partitioners (``fdisk``, ``gdisk``, ``sfdisk`` …): listing SAFE, other uses HIGH (partition table change)."""
    if any(a in ("-l", "--list", "-s", "print", "--print") for a in args) or (prog == "parted" and "print" in args):
        acc.add(S, "shell.partition.list", f"{prog} (lists partitions)")
    elif prog == "parted" and any(a in ("mklabel", "rm") for a in args):
        acc.add(C, "shell.partition.erase", "parted erases partitions")
    else:
        acc.add(H, "shell.partition", f"{prog}: partition table change")
    return OTHER


def h_blkdiscard(r, prog, args, metas, ctx, acc, stdin):
    """``blkdiscard``: CRITICAL (discards every block of the device)."""
    acc.add(C, "shell.blkdiscard", "blkdiscard erases the device")
    return OTHER


def h_disk_erase(r, prog, args, metas, ctx, acc, stdin):
    """Disk tools that erase a device with some options or subcommands (table ``DISK_ERASERS``):
    ``hdparm --security-erase``, ``nvme format``, ``badblocks -w``, ``cryptsetup luksFormat`` …"""
    with_arg, uses = T.DISK_ERASERS[prog]
    o = getopts(args, frozenset(with_arg))
    best = None
    for use, tier in uses.items():
        if use == "":
            hit = True
        elif use.startswith("--"):
            hit = use in o.longs
        elif use.startswith("-"):
            hit = use[1] in o.flags
        else:
            hit = bool(o.pos) and o.pos[0] == use
        if hit and (best is None or tier > best[1]):
            best = (use, tier)
    if best is None:
        acc.add(L, "shell.program", f"{prog} (not known to be read-only)")
        return OTHER
    use, tier = best
    what = f"{prog} {use}".rstrip()
    if tier >= C:
        acc.add(tier, "shell.disk_erase", f"{what} erases a disk")
    else:
        acc.add(tier, "shell.disk_erase", f"{what} removes or damages a disk's data or mappings")
    return OTHER


def h_mount(r, prog, args, metas, ctx, acc, stdin):
    """Mounts and volumes (``mount``, ``cryptsetup``, ``mdadm``, ``zfs``, ``lvremove`` …): formats and zeroed
    superblocks CRITICAL, destroyed pools and volumes HIGH, listing SAFE, other changes MEDIUM."""
    if prog in ("zfs", "zpool", "btrfs"):
        pos = [a for a in args if not a.startswith("-")]
        v = pos[0] if pos else ""
        if v in ("list", "status", "get", "iostat", "show", "history", "df", "usage"):
            acc.add(S, "shell.storage.read", f"{prog} {v}")
        elif v in ("destroy", "delete", "labelclear"):
            acc.add(H, "shell.storage.destroy", f"{prog} {v} (destroys data)")
        else:
            acc.add(M, "shell.storage", f"{prog} {v}".strip())
        return OTHER
    if prog == "cryptsetup" and any(a in ("luksFormat", "erase", "luksErase") for a in args):
        acc.add(C, "shell.cryptsetup.format", "cryptsetup luksFormat (erases the device)")
        return OTHER
    if prog == "mdadm" and any(a == "--zero-superblock" for a in args):
        acc.add(C, "shell.mdadm.zero", "mdadm --zero-superblock")
        return OTHER
    if prog in ("lvremove", "vgremove", "pvremove"):
        acc.add(H, "shell.storage.destroy", f"{prog} (removes a volume)")
        return OTHER
    if prog == "mount" and not [a for a in args if not a.startswith("-")]:
        acc.add(S, "shell.mount.list", "mount (lists mounts)")
        return OTHER
    acc.add(M, f"shell.{prog}", f"{prog} (changes mounts or volumes)")
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
HANDLERS = handlers(
    (("dd",), h_dd),
    (("mke2fs", "mkswap", "mkntfs", "mkdosfs", "newfs", "mformat"), h_mkfs),  # (and every mkfs*: dispatch)
    (("wipefs",), h_wipefs),
    (("sgdisk",), h_sgdisk),
    (("parted",), h_parted),
    (T.PARTITIONERS - {"sgdisk", "parted"}, h_partition),
    (("blkdiscard",), h_blkdiscard),
    (T.DISK_ERASERS, h_disk_erase),
    (T.MOUNTERS, h_mount),
)
