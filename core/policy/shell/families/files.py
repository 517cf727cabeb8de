"""Files: deletes (``rm``, ``find -delete``, ``shred``), permissions (``chmod``, ``chown``, ``setfacl``), copies and
moves (``cp``, ``mv``, ``install``, ``ln``), new files (``touch``, ``mkdir``, ``tee``), archives (``tar``,
``unzip``), temporary names (``mktemp``).

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_files.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.common import show
from core.policy.shell.effects.shells import SHELL_NAMES, note_shell_copy
from core.policy.shell.families import handlers
from core.policy.shell.options import first_value, getopts, parse_fx, tar_old_style
from core.policy.shell.state import (
    DOWNLOAD,
    DOWNLOADED_DIR,
    MARK,
    MAX_COMBOS,
    OTHER,
    TextInput,
    is_downloaded,
)
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


def h_mktemp(r, prog, args, metas, ctx, acc, stdin):
    """mktemp prints the name of a new temporary file (or directory, ``-d``): a name the data flow can follow,
    so ``TF=$(mktemp); echo CODE > $TF; prog --script=$TF`` reads CODE (each call gets its own name)."""
    n = sum(1 for f in ctx.flags if f.startswith("mktemp:"))
    ctx.flags.add(f"mktemp:{n}")
    pos = [a for a in args if a[:1] != "-"]
    name = pos[0].replace("X", str(n % 10)) if pos and MARK not in pos[0] else f"/tmp/tmp.signoff{n}"
    acc.add(L, "shell.mktemp", f"{prog} (a new temporary file)")
    return TextInput(name + "\n", False)


def h_rm(r, prog, args, metas, ctx, acc, stdin):
    """``rm`` and its kin: a delete of every operand (recursive with ``-r``, for the always-recursive deleters and
    inside ``find -exec``), judged by the class of the path; ``--no-preserve-root`` CRITICAL."""
    o = getopts(args)
    if "--no-preserve-root" in o.longs:
        acc.add(C, "shell.rm.no_preserve_root", "rm --no-preserve-root (allows deleting /)")
    rec = 1 if (o.flags & {"r", "R"} or "--recursive" in o.longs or prog in T.RECURSIVE_DELETERS) else 0
    if prog in ("unlink", "rmdir"):
        rec = 0
    if not rec and ctx.implied:
        rec = ctx.implied
    if not o.pos:
        acc.add(L, "shell.rm", f"{prog} with no target")
    for t in o.pos:
        r.delete_path(t, rec, ctx, acc)
    return OTHER


_FIND_NONFILTERS = frozenset(("-type", "-maxdepth", "-mindepth", "-xdev", "-mount", "-depth", "-follow", "-print",
                              "-print0", "-d", "-noleaf", "-ignore_readdir_race", "-daystart", "-L", "-H", "-P",
                              "-xtype", "(", ")", "!", "-not", "-a", "-and", "-o", "-or", ","))


_FIND_WITH_ARG = frozenset(("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
                            "-type", "-xtype", "-maxdepth", "-mindepth", "-mtime", "-mmin", "-atime", "-amin",
                            "-ctime", "-cmin", "-newer", "-size", "-user", "-group", "-perm", "-uid", "-gid",
                            "-links", "-inum", "-samefile", "-used", "-fstype", "-lname", "-ilname", "-newermt",
                            "-newerct", "-newerat", "-regextype", "-context", "-printf", "-fprint", "-fprint0",
                            "-fls", "-fprintf"))


def h_find(r, prog, args, metas, ctx, acc, stdin):
    """``find START… EXPR``: ``-delete`` deletes the start trees (filtered by tests: HIGH where the whole tree
    would be CRITICAL), ``-exec CMD`` runs CMD on them (as whole trees), ``-fprint F`` writes F; otherwise SAFE
    (lists)."""
    i, n = 0, len(args)
    while i < n and args[i] in ("-L", "-H", "-P", "-O0", "-O1", "-O2", "-O3"):
        i += 1
    starts = []
    while i < n and not (args[i].startswith("-") or args[i] in ("(", "!", ")")):
        starts.append(args[i])
        i += 1
    if not starts:
        starts = ["."]
    filtered = False
    acted = False
    named = _secret_names_found(r, starts, args[i:], ctx)  # (find ~ -name id_rsa: the secret files it finds)
    while i < n:
        a = args[i]
        if a == "-delete":
            acted = True
            for s in starts:
                r.delete_path(s, 2 if filtered else 1, ctx, acc)
            i += 1
            continue
        if a in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            cmd = []
            while j < n and args[j] not in (";", "+", "\\;"):
                cmd.append(args[j])
                j += 1
            i = j + 1
            if not cmd:
                continue
            acted = True
            for s in (starts[:4] + named[:2]):
                argv = [x.replace("{}", s) if "{}" in x else x for x in cmd]
                if not any("{}" in x for x in cmd) and cmd[0].rsplit("/", 1)[-1] not in SHELL_NAMES:
                    argv = argv + [s]  # (a shell without {} starts with no script: interactive)
                c = ctx.child()
                c.implied = 2 if filtered else 1
                r.run_argv(argv, [None] * len(argv), c, acc, None)
            continue
        if a in ("-fprint", "-fprint0", "-fls", "-fprintf") and i + 1 < n:
            r.write_path(args[i + 1], ctx, acc, "find writes")
            acted = True
        if a not in _FIND_NONFILTERS:
            filtered = True
        i += 2 if a in _FIND_WITH_ARG else 1
    if not acted:
        acc.add(S, "shell.find", "find (lists files)")
    if named:
        return TextInput("\n".join(named[:MAX_COMBOS]), False)  # (their names: `| xargs cat` reads them)
    return OTHER


_FIND_NAME_TESTS = frozenset(("-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename"))


def _secret_names_found(r, starts: list, expr: list, ctx) -> list:
    """The files ``find START… -name PATTERN`` finds, as globs (``/*/shadow``, ``./*/.env``), when they may be
    secret files; [] otherwise (or when the expression has no name test)."""
    out = []
    for k, a in enumerate(expr[:64]):
        if a in _FIND_NAME_TESTS and k + 1 < len(expr):
            pat = expr[k + 1]
            if not pat or MARK in pat or pat in ("*", "*.*"):
                continue
            for s in starts[:4]:
                g = pat if "path" in a or "wholename" in a else f"{s.rstrip('/')}/*/{pat}"
                if r.pclass(g, ctx) in (P.SENSITIVE, P.ENV) or P.is_secret_read(P.normalize(g, ctx.cwd)):
                    out.append(g)
    return out


def _mode_world_writable(mode: str) -> bool:
    if mode.isdigit():
        return len(mode) >= 3 and int(mode[-1]) & 2 == 2
    for clause in mode.split(","):
        k = 0
        while k < len(clause) and clause[k] in "ugoa":
            k += 1
        who = clause[:k]
        rest = clause[k:]
        for op in "+=":
            if op in rest:
                perms = rest.split(op, 1)[1]
                if perms.isdigit() and len(perms) <= 4 and int(perms[-1]) & 2 == 2:
                    return True  # `=777`, `+0666`: an octal mode after the operator
                if "w" in perms and ("o" in who or "a" in who):
                    return True
    return False


def _mode_special_bits(mode: str) -> list:
    """The special bits (``setuid``, ``setgid``) a chmod mode sets: ``4755``, ``u+s``, ``+s``, ``=6755``."""
    bits: list = []
    for clause in mode.split(","):
        k = 0
        while k < len(clause) and clause[k] in "ugoa":
            k += 1
        who, rest = clause[:k], clause[k:]
        if rest.isdigit():
            digits = rest
        else:
            digits = ""
            for op in "+=":
                if op in rest:
                    perms = rest.split(op, 1)[1]
                    if perms.isdigit():
                        digits = perms
                    elif "s" in perms:
                        if not who or "u" in who or "a" in who:
                            bits.append("setuid")
                        if not who or "g" in who or "a" in who:
                            bits.append("setgid")
        if len(digits) >= 4 and digits[-4] in "01234567":
            d = int(digits[-4])
            if d & 4:
                bits.append("setuid")
            if d & 2:
                bits.append("setgid")
    return bits


def h_chmod(r, prog, args, metas, ctx, acc, stdin):
    """``chmod MODE FILE…``: world-writable modes HIGH, setuid/setgid bits (table CHMOD_SPECIAL_BITS), and the
    targets by path class (``-R`` on / or a system root CRITICAL)."""
    o = getopts(args)
    # a symbolic mode like -w or -x is read as flags by getopts: recover it
    pos = list(o.pos)
    rec = bool(o.flags & {"R"}) or "--recursive" in o.longs
    if "--reference" in o.longs:
        mode = ""
        targets = pos
    else:
        if not pos:
            for a in args:
                if a.startswith("-") and set(a[1:]) <= set("rwxXst") and a != "-R":
                    pos.insert(0, a)
                    break
        mode = pos[0] if pos else ""
        targets = pos[1:]
    _mode_effects("chmod", mode, acc)
    _perm_targets(r, prog, rec, targets, ctx, acc)
    return OTHER


def _mode_effects(prog: str, mode: str, acc) -> None:
    """A file mode given to chmod or ``install -m``: writable by everyone (HIGH), setuid/setgid bits."""
    if _mode_world_writable(mode):
        acc.add(H, "shell.chmod.world_writable", f"{prog} {mode} makes files writable by everyone")
    for bit in _mode_special_bits(mode):
        acc.add(T.CHMOD_SPECIAL_BITS[bit], f"shell.chmod.{bit}",
                f"{prog} {mode} sets the {bit} bit (the program runs as its {'owner' if bit == 'setuid' else 'group'})")


def _perm_targets(r, prog, rec, targets, ctx, acc):
    for t in targets:
        cls = r.pclass(t, ctx)
        if rec and cls in (P.ROOT, P.SYSROOT):
            acc.add(C, f"shell.{prog}.recursive.system", f"{prog} -R on {show(t)} ({P.label(cls)})")
        elif cls in (P.SYSTEM, P.SYSROOT, P.ROOT):
            acc.add(H, f"shell.{prog}.system", f"{prog} inside a system directory ({show(t)})")
        elif rec and cls == P.HOME:
            acc.add(H, f"shell.{prog}.recursive.home", f"{prog} -R on a home directory ({show(t)})")
        else:
            acc.add(L, f"shell.{prog}", f"{prog} on {show(t)} ({P.label(cls)})")
    if not targets:
        acc.add(L, f"shell.{prog}", prog)


def h_chown(r, prog, args, metas, ctx, acc, stdin):
    """``chown``/``chgrp OWNER FILE…``: to root HIGH, and the targets by path class like chmod's."""
    o = getopts(args)
    rec = bool(o.flags & {"R"}) or "--recursive" in o.longs
    pos = o.pos
    if "--reference" in o.longs:
        owner, targets = "", pos
    else:
        owner, targets = (pos[0] if pos else ""), pos[1:]
    if prog == "chown":
        user = owner.split(":", 1)[0].split(".", 1)[0]
        if user in ("root", "0"):
            acc.add(H, "shell.chown.root", f"chown to root ({owner})")
    _perm_targets(r, prog, rec, targets, ctx, acc)
    return OTHER


def h_setfacl(r, prog, args, metas, ctx, acc, stdin):
    """setfacl: grants permissions like chmod; ``-R`` on a system directory is CRITICAL like ``chmod -R``."""
    o = getopts(args, frozenset("mxMX"), frozenset(("--modify", "--remove", "--set", "--modify-file",
                                                      "--remove-file", "--set-file")))
    rec = "R" in o.flags or "--recursive" in o.longs
    _perm_targets(r, prog, rec, list(o.pos), ctx, acc)
    return OTHER


def h_write(r, prog, args, metas, ctx, acc, stdin):
    """cp, mv, install, ln: the destination is written; mv also removes its sources."""
    short_arg = {"cp": "tS", "mv": "tS", "install": "mogtSC", "ln": "tS", "ditto": "", "rsync": ""}.get(prog, "")
    o = getopts(args, frozenset(short_arg), frozenset(("--target-directory", "--suffix", "--mode", "--owner",
                                                       "--group", "--backup", "--reflink", "--sparse",
                                                       "--preserve", "--no-preserve")))
    target = first_value(o, "t", "--target-directory")
    pos = o.pos
    if prog == "install" and "d" in o.flags:
        for d in pos:
            r.write_path(d, ctx, acc, "create")
        return OTHER
    if target is not None:
        dests, srcs = [target], pos
    elif prog == "ln" and len(pos) == 1:
        dests, srcs = [pos[0].rstrip("/").rsplit("/", 1)[-1]], pos
    elif len(pos) >= 2:
        dests, srcs = [pos[-1]], pos[:-1]
    else:
        acc.add(L, f"shell.{prog}", prog)
        return OTHER
    verb = {"cp": "copy into", "mv": "move into", "install": "install into", "ln": "link at"}.get(prog, "write")
    for d in dests:
        r.write_path(d, ctx, acc, verb)
    if len(dests) == 1 and srcs and len(srcs) <= 8:
        into = target is not None or len(srcs) > 1 or dests[0][-1:] == "/" or dests[0] in (".", "..", "~")
        for s in srcs:
            note_shell_copy(s, dests[0], into, ctx)  # (cp /bin/sh ./x: ./x is a shell from now on)
    if prog == "ln" and len(srcs) == 1:
        # later paths through the link are its target's (ln -s /etc/cron.d c; … > c/job); a directory given
        # (-t DIR, `.`, `DIR/`) holds a link named as the target
        d = dests[0]
        if target is not None or d in (".", "..") or d.endswith("/"):
            d = d.rstrip("/") + "/" + srcs[0].rstrip("/").rsplit("/", 1)[-1]
        r.note_link(srcs[0], d, ctx)
    if prog == "install" and (first_value(o, "o", "--owner") or "") in ("root", "0"):
        acc.add(M, "shell.install.root", "install -o root")
    mode = first_value(o, "m", "--mode") if prog == "install" else None
    if mode:
        _mode_effects("install", mode, acc)
    if prog in ("cp", "install", "ditto"):
        # a copy reads its sources: a private key or credential file copied out of its place is a secret read
        for s in srcs:
            if r.is_secret_path(s, ctx):
                cls = r.pclass(s, ctx)
                what = P.label(cls) if cls in (P.SENSITIVE, P.ENV) else "secrets"
                acc.add(M, "shell.secret_read", f"{prog} reads {show(s)} ({what}) to copy it")
    if prog == "mv":
        for s in srcs:
            cls = r.pclass(s, ctx)
            if cls in (P.SYSTEM, P.SYSROOT, P.ROOT, P.SENSITIVE, P.HOME):
                acc.add(H, f"shell.mv.{cls}", f"move away {show(s)} ({P.label(cls)})")
            elif cls == P.ENV:
                acc.add(M, "shell.mv.env", f"move {show(s)} (.env file)")
    return OTHER


def h_touch(r, prog, args, metas, ctx, acc, stdin):
    """``touch``, ``mkdir``, ``truncate``, ``tee`` (writes of their operands; tee passes its input on and marks a
    file written from a download), ``rmdir`` (deletes)."""
    short = {"touch": "tdrA", "mkdir": "m", "truncate": "sr", "tee": "", "rmdir": ""}.get(prog, "")
    o = getopts(args, frozenset(short), frozenset(("--mode", "--size", "--reference", "--date")))
    if prog == "rmdir":
        for p in o.pos:
            r.delete_path(p, 0, ctx, acc, "remove directory")
        return OTHER
    verb = {"touch": "touch", "mkdir": "create directory", "truncate": "truncate", "tee": "write"}.get(prog, "write")
    for p in o.pos:
        r.write_path(p, ctx, acc, verb)
        if prog == "tee" and stdin == DOWNLOAD and MARK not in p and len(ctx.downloaded) < 64:
            ctx.downloaded.add(P.normalize(p, ctx.cwd))  # curl URL | tee x.sh: x.sh holds downloaded code
    if not o.pos:
        acc.add(S if prog == "tee" else L, f"shell.{prog}", prog)
    if prog == "tee":
        return stdin
    return OTHER


_TAR_MODES = {"--create": "c", "--append": "r", "--update": "u", "--catenate": "A", "--concatenate": "A",
              "--extract": "x", "--get": "x", "--list": "t"}


def h_tar(r, prog, args, metas, ctx, acc, stdin):
    """``tar``: listing SAFE; creating writes the archive, ``-C DIR`` with extraction writes into DIR, a downloaded
    archive unpacked marks its files as downloaded code."""
    args = tar_old_style(args)
    spec = T.OPTION_EFFECTS[prog]
    mode: set = set()
    for a in args:
        if a.startswith("--"):
            mode.add(_TAR_MODES.get(a.split("=", 1)[0], ""))
        elif a.startswith("-"):
            for ch in a[1:]:
                if ch in spec[0]:
                    mode.add(ch)
                    break
                mode.add(ch)
    if "t" in mode:
        acc.add(S, "shell.read_only", f"{prog} (lists)")
        return OTHER
    if mode & {"c", "r", "u", "A"}:
        # the archive is written
        for _, opt, val in parse_fx(spec, args)[0]:
            if opt in ("-f", "--file") and val and val != "-":
                r.write_path(val, ctx, acc, f"{prog} writes the archive")
    o = getopts(args, frozenset("fCT"), frozenset(("--directory", "--file")))
    d = first_value(o, "C", "--directory")
    if d and "x" in mode:
        r.write_path((d.rstrip("/") + "/x") if d.strip("/") else "/", ctx, acc, "extract into")
    archive = first_value(o, "f", "--file")
    if "x" in mode and (stdin == DOWNLOAD if archive in (None, "-") else is_downloaded(ctx, P.normalize(archive, ctx.cwd))):
        # a downloaded archive unpacked: whatever is run from where it went is downloaded code
        if len(ctx.downloaded) < 64:
            ctx.downloaded.add(DOWNLOADED_DIR + (P.normalize(d, ctx.cwd).rstrip("/") if d else ""))
    acc.add(L, "shell.program", prog)
    return OTHER


def h_unzip(r, prog, args, metas, ctx, acc, stdin):
    """``unzip [-d DIR]``: an extraction into DIR (a write there); LOW."""
    o = getopts(args, frozenset("dx"))
    d = first_value(o, "d")
    if d:
        r.write_path((d.rstrip("/") + "/x") if d.strip("/") else "/", ctx, acc, "extract into")
    acc.add(L, "shell.program", prog)
    return OTHER


def h_shred(r, prog, args, metas, ctx, acc, stdin):
    """``shred FILE…``: a block device CRITICAL, else a delete of each file."""
    o = getopts(args, frozenset("ns"), frozenset(("--iterations", "--size", "--random-source")))
    for t in o.pos:
        cls = r.pclass(t, ctx)
        if cls == P.BLOCKDEV:
            acc.add(C, "shell.shred.device", f"shred overwrites the block device {show(t)}")
        else:
            r.delete_path(t, 0, ctx, acc, "shred")
    if not o.pos:
        acc.add(L, "shell.shred", "shred")
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
HANDLERS = handlers(
    (("rm", "unlink", "srm", "trash", "trash-put", *T.RECURSIVE_DELETERS), h_rm),
    (("rmdir", "touch", "mkdir", "truncate", "tee"), h_touch),
    (("find",), h_find),
    (("mktemp",), h_mktemp),
    (("chmod",), h_chmod),
    (("chown", "chgrp"), h_chown),
    (("setfacl",), h_setfacl),
    (("cp", "mv", "install", "ln", "ditto"), h_write),
    (("tar", "bsdtar", "gtar"), h_tar),
    (("unzip",), h_unzip),
    (("shred",), h_shred),
)
