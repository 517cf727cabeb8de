"""Path classes of tiers.md ("Paths"): root, home directories, system directories, sensitive files,
``.env`` files, block devices, null devices and the workspace.

Paths are normalised lexically (no file system access). ``~`` stands for the user's home; ``\\x00`` marks
a part whose value is not known until run time (an unknown variable or command substitution).
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from functools import lru_cache

from core.policy import tables as T

UNKNOWN_MARK = "\x00"

# path classes (strings so reasons can name them)
ROOT = "root"
HOME = "home"
SYSROOT = "sysroot"
SYSTEM = "system"
SENSITIVE = "sensitive"
ENV = "env"
BLOCKDEV = "blockdev"
NULLDEV = "nulldev"
SYSRQ = "sysrq"
WORKSPACE = "workspace"
OTHER = "other"
UNKNOWN = "unknown"
CONTAINER = "container"

#: classes a recursive delete of which is CRITICAL
CRITICAL_TREES = frozenset((ROOT, HOME, SYSROOT))

_LABEL = {
    ROOT: "the root directory",
    HOME: "a home directory",
    SYSROOT: "system directory",
    SYSTEM: "inside a system directory",
    SENSITIVE: "sensitive file",
    ENV: ".env file",
    BLOCKDEV: "block device",
    NULLDEV: "null device",
    SYSRQ: "kernel SysRq trigger",
    WORKSPACE: "workspace",
    OTHER: "outside the workspace",
    UNKNOWN: "target unknown until run time",
    CONTAINER: "inside the container",
}


def label(cls: str) -> str:
    """Words for a path class, for reasons."""
    return _LABEL.get(cls, cls)


def normalize(path: str, cwd: str | None) -> str:
    """Lexically normalise ``path`` against ``cwd`` (``None``: relative paths stay relative)."""
    if not path:
        return path
    if path[0] == "~":
        slash = path.find("/")
        head, rest = (path, "") if slash < 0 else (path[:slash], path[slash + 1:])
        base = head  # "~" or "~user"
        return _join(base, rest)
    if path[0] == "/":
        return _join("/", path[1:])
    if cwd:
        if cwd.endswith("/*"):
            cwd = cwd[:-2]
        if cwd == "/":
            return _join("/", path)
        if cwd[0] == "/":
            return _join("/", cwd[1:] + "/" + path)
        if cwd[0] == "~":
            return normalize(cwd + "/" + path, None)
        return _join("", cwd + "/" + path)
    return _join("", path)


def _join(base: str, rest: str) -> str:
    parts: list[str] = []
    if base and base != "/":
        parts = [p for p in base.split("/") if p and p != "."]
        root = base.startswith("/")
    else:
        root = base == "/"
    # the leading components of rest that are plain names (not empty, "." or "..") are kept as they are:
    # found with str.find, so a long path (hostile cd chains) is not walked component by component
    w = "/" + rest + "/"
    bad = -1
    if "//" in w or "/." in w:
        bad = min((k for k in (w.find("//"), w.find("/./"), w.find("/../")) if k >= 0), default=-1)
    if bad < 0:
        parts.append(rest)  # (one string for them all: only joined again below)
        rest = ""
    elif bad > 0:
        parts.extend(rest[:bad - 1].split("/"))
        rest = rest[bad:]
    for p in rest.split("/"):
        if not p or p == ".":
            continue
        if p == "..":
            if parts and parts[-1] != ".." and not parts[-1].startswith("~"):
                parts.pop()
            elif not root and not (parts and parts[0].startswith("~")):
                parts.append("..")
            continue
        parts.append(p)
    if root:
        return "/" + "/".join(parts)
    return "/".join(parts) if parts else "."


def home_rest(p: str) -> str | None:
    """The part of ``p`` below a home directory (``""`` for the home itself), else None."""
    if p.startswith("~"):
        slash = p.find("/")
        return "" if slash < 0 else p[slash + 1:]
    for prefix in ("/home/", "/Users/"):
        if p.startswith(prefix):
            rest = p[len(prefix):]
            slash = rest.find("/")
            if slash < 0:
                return "" if rest else None
            return rest[slash + 1:]
    if p == "/root":
        return ""
    if p.startswith("/root/"):
        return p[6:]
    return None


@lru_cache(maxsize=256)
def in_system_tree(d: str) -> bool:
    """``d`` (normalized) is a system directory itself (``/etc``, ``/opt``) or inside one no project lives in
    (``/etc/cron.d``, ``/usr/local/bin``: table SYSTEM_TREES)."""
    return d in T.SYSTEM_DIRS or any(d == t or d.startswith(t + "/") for t in T.SYSTEM_TREES)


def system_cwd(cwd: str | None) -> bool:
    """A working directory whose bare names are system files: the root, a system directory itself, or inside
    one of :data:`tables.SYSTEM_TREES` (``cd / && tool etc``, ``cd /etc && tool shadow``)."""
    if not cwd or UNKNOWN_MARK in cwd or cwd[0] != "/":
        return False
    n = normalize(cwd, None)
    return n == "/" or in_system_tree(n)


def _is_env_file(base: str) -> bool:
    return base == ".env" or base.startswith(".env.")


def is_sensitive(p: str) -> bool:
    """A sensitive file of the policy (``~/.ssh/*``, start-up and credential files); not ``.env``."""
    rest = home_rest(p)
    if rest:
        if rest in T.SENSITIVE_HOME_FILES or rest.rstrip("/") in _SENSITIVE_PARENTS:
            return True
        for d in T.SENSITIVE_HOME_DIRS:
            if rest == d or rest.startswith(d + "/"):
                return True
        if rest[0] == "." and _has_glob(rest) and len(rest) < 128:
            # a glob that may match a sensitive file (`~/.aws/*`, `~/.ss?/id_*`); not `~/*` (no dotfiles)
            return _glob_matches_any(rest, T.SENSITIVE_HOME_FILES) or _glob_matches_any(
                rest, [d + "/x" for d in T.SENSITIVE_HOME_DIRS])
    return False


#: directories under the home that hold a sensitive file (``.aws`` holds ``.aws/credentials``): copying, archiving
#: or sending one sends the file
_SENSITIVE_PARENTS = frozenset(f.rsplit("/", k)[0] for f in T.SENSITIVE_HOME_FILES for k in range(1, f.count("/") + 1)
                               if "/" in f) - {".config", ".local", ".local/share", ".cargo", ".gem"}


def _glob_matches_any(pat: str, names) -> bool:
    """A glob (``.env*``, ``.a*/cred*``) that may match one of ``names``."""
    return any(fnmatchcase(nm, pat) for nm in names)


_ENV_NAMES = (".env", ".env.local", ".env.production")


def is_private_key_name(base: str) -> bool:
    """A file named as a private key (tiers.md v3.2): ``*.key``, ``*.p12``, ``*.pfx``, ``*.jks``, ``id_*`` of
    an SSH key type without ``.pub`` (``id_rsa``, ``id_ed25519_work``), ``*key.pem``/``privkey*.pem``."""
    if base.endswith(T.PRIVATE_KEY_SUFFIXES):
        return len(base) > 4
    if base.startswith("id_"):
        return base[3:].split("_", 1)[0].split("-", 1)[0] in T.SSH_KEY_TYPES and "." not in base
    return base.endswith(".pem") and ("privkey" in base or base.endswith("key.pem") or "private" in base)


@lru_cache(maxsize=4096)
def is_secret_read(p: str) -> bool:
    """A file whose contents are secrets outside the sensitive and ``.env`` files (``/etc/shadow``, TLS private
    keys, ``/run/secrets/…``, ``/proc/N/environ``, private keys by name anywhere): table SECRET_READ_FILES,
    SECRET_READ_DIRS, SECRET_READ_GLOBS, PRIVATE_KEY_SUFFIXES."""
    if not p:
        return False
    if is_private_key_name(p.rsplit("/", 1)[-1]):
        return True
    if p.startswith("../"):
        # above the working directory: where it lands is unknown, so what its name says counts
        # (../../../etc/shadow is /etc/shadow wherever the climb starts)
        tail = p
        while tail.startswith("../"):
            tail = tail[3:]
        return bool(tail) and p.count("../") >= 2 and is_secret_read("/" + tail)
    if p[0] != "/":
        base = p.rsplit("/", 1)[-1]
        return _has_glob(base) and len(base) < 64 and _glob_matches_any(base, _KEY_NAMES)
    if p in T.SECRET_READ_FILES:
        return True
    n = normalize(p, None)
    if n.startswith("/private/etc/"):
        n = n[8:]  # (macOS: /etc is /private/etc)
    if n in T.SECRET_READ_FILES:
        return True
    for d in T.SECRET_READ_DIRS:
        if n.startswith(d + "/") or n == d:
            return True
    if any(fnmatchcase(n, g) for g in T.SECRET_READ_GLOBS):
        return True
    return _has_glob(n) and len(n) < 256 and _glob_may_match_secret(n)


def _segments_may_match(pat: list[str], known: list[str]) -> bool:
    """Segment by segment, whether a glob's segments and a known path's (itself possibly a glob) can name
    the same file: a segment matches when either, read as a pattern, matches the other."""
    return all(a == b or fnmatchcase(b, a) or fnmatchcase(a, b) or _globs_overlap(a, b)
               for a, b in zip(pat, known, strict=False))


def _literal_ends(g: str) -> tuple[str, str]:
    """The literal text of a glob before its first and after its last wildcard."""
    i = min((g.find(c) for c in "*?[" if c in g), default=len(g))
    j = max(g.rfind(c) for c in "*?]")
    return g[:i], g[j + 1:]


def _globs_overlap(a: str, b: str) -> bool:
    """Two glob segments that may name the same file, counted only when ``a`` spells out one of ``b``'s
    literal ends (``ssh_host_*`` and ``ssh_host_*_key``, ``*_key`` and it; not ``host*`` and ``*.key``)."""
    if not (_has_glob(a) and _has_glob(b)):
        return False
    (ap, asx), (bp, bsx) = _literal_ends(a), _literal_ends(b)
    if not (ap.startswith(bp) or bp.startswith(ap)) or not (asx.endswith(bsx) or bsx.endswith(asx)):
        return False
    return bool(ap and bp) or bool(asx and bsx)


def _glob_may_match_secret(n: str) -> bool:
    """A glob (``/etc/sh*dow``, ``/etc/ssl/priv*/*``, ``/e*/shadow``, ``/etc/ssh/ssh_host_*``) that may match a
    secret file: the shell expands it before the program runs, so what it may name counts."""
    segs = n.split("/")
    if is_private_key_name(segs[-1]) or (_has_glob(segs[-1]) and _glob_matches_any(segs[-1], _KEY_NAMES)):
        return True
    for f in T.SECRET_READ_FILES:
        known = f.split("/")
        if len(known) == len(segs) and _segments_may_match(segs, known):
            return True
    for d in T.SECRET_READ_DIRS:
        known = d.split("/")
        if len(segs) > len(known) and _segments_may_match(segs, known):
            return True
    for g in T.SECRET_READ_GLOBS:
        known = g.split("/")
        if len(known) == len(segs) and _segments_may_match(segs, known):
            return True
    return False


# names a glob in the last segment may match that are private keys (id_* of every key type, and the like)
_KEY_NAMES = tuple(f"id_{k}" for k in T.SSH_KEY_TYPES)


def is_block_device(p: str) -> bool:
    """``/dev/sd*``, ``/dev/nvme*``, ``/dev/mapper/…`` and the like."""
    if not p.startswith("/dev/"):
        return False
    rest = p[5:]
    return rest.startswith(T.BLOCK_DEVICE_PREFIXES)


_MEMO: dict = {}


def classify_path(p: str, ctx_cwd: str | None, workspace: str | None, user: str | None = None,
                  container=None) -> str:
    """Return the class of the (already expanded) path text ``p`` (pure; memoised when no container)."""
    if container is not None or len(p) > 256:
        return _classify_path(p, ctx_cwd, workspace, user, container)
    key = (p, ctx_cwd, workspace, user)
    hit = _MEMO.get(key)
    if hit is None:
        if len(_MEMO) > 8192:
            _MEMO.clear()
        hit = _classify_path(p, ctx_cwd, workspace, user, None)
        if hit in _CASE_FOLDED and p != p.lower() and "." in p:
            # case-insensitive file systems (macOS, Windows): .ENV is .env, ~/.AWS/CREDENTIALS the credentials
            low = _classify_path(p.lower(), ctx_cwd and ctx_cwd.lower(), workspace and workspace.lower(), user, None)
            if low in (SENSITIVE, ENV):
                hit = low
        _MEMO[key] = hit
    return hit


#: classes a path spelt in capitals may hide a sensitive or .env file behind
_CASE_FOLDED = frozenset(("workspace", "other", "home"))


def _classify_path(p: str, ctx_cwd: str | None, workspace: str | None, user: str | None = None,
                   container=None) -> str:
    if not p:
        return WORKSPACE
    if UNKNOWN_MARK in p:
        return _classify_unknown(p, ctx_cwd)
    if container is not None:
        host = _map_container(p, ctx_cwd, container)
        if host is None:
            return CONTAINER
        p, ctx_cwd = host, None
    n = normalize(p, ctx_cwd)
    if n.startswith(".."):
        return _classify_above(n, user) or (OTHER if workspace or ctx_cwd else WORKSPACE)
    star = False
    if n.endswith("/*") or n == "*":
        star = True
        n = n[:-2] if n.endswith("/*") else "."
        if not n:
            n = "/"
    if n == "/":
        return ROOT
    if n[0] == "/" and _has_glob(n) and len(n) < 512:
        # the shell expands the glob first: the path is whatever known directory it may match (/e*/cron.d/job)
        worst = _glob_class(n, star, ctx_cwd, workspace, user)
        if worst is not None:
            return worst
    rest = home_rest(n)
    if rest is not None:
        if rest == "" or (rest == "*" and not star):
            return HOME
        if rest.count("/") == 0 and _has_glob(rest) and not _has_glob(rest[:1]):
            pass
    if n in T.SYSTEM_DIRS:
        return SYSROOT
    if star:
        # dir/* of an ordinary directory is inside it
        pass
    if n == "/proc/sysrq-trigger":
        return SYSRQ
    if n in T.NULL_DEVICES or n.startswith("/dev/fd/"):
        return NULLDEV
    if is_block_device(n):
        return BLOCKDEV
    base = n.rsplit("/", 1)[-1]
    if _is_env_file(base) or (base[:1] == "." and _has_glob(base) and len(base) < 64 and
                              _glob_matches_any(base, _ENV_NAMES)):
        return ENV  # (a glob that may match a .env file: `.env*`, `.e*`)
    if is_sensitive(n) or (star and is_sensitive(n + "/*")):
        return SENSITIVE
    if workspace and workspace != "/" and (n == workspace or n.startswith(workspace + "/")):
        if not in_system_tree(workspace):
            return WORKSPACE  # (a working directory in /etc/cron.d is no workspace: its files are system files)
    if n[0] == "/":
        if rest is not None:
            # under a home directory: own home is workspace-like, another user's home is system
            if n.startswith("/root"):
                return SYSTEM
            if user is not None:
                name = n.split("/")[2]
                if name != user:
                    return SYSTEM
            return WORKSPACE
        for d in T.SYSTEM_DIRS:
            if n.startswith(d + "/"):
                return SYSTEM
        return OTHER
    if n[0] == "~":
        if n.startswith("~/") or n == "~":
            return WORKSPACE
        return SYSTEM  # another user's home
    return WORKSPACE


#: the entries of directories a glob segment is matched against (``/e*`` may be ``/etc``, ``/dev/[sh]d?`` a
#: disk): the top-level directories, and the places whose entries have classes of their own
_GLOB_TREE = {
    "/": T.TOP_LEVEL_NAMES + ("lib32", "libx32", "tmp", "run"),
    "/private": ("etc", "var", "tmp"),
    "/dev": ("sda", "sda1", "hda", "vda", "xvda", "nvme0n1", "nvme0n1p1", "mmcblk0", "md0", "dm-0", "loop0", "nbd0",
             "disk0", "rdisk0", "sr0", "fd0", "mapper", "disk", "null", "zero", "tty", "stdout"),
    "/proc": ("sysrq-trigger", "self", "1", "thread-self"),
}
#: top-level directories whose whole tree is inside a system directory, nothing more: one stands for all
_PLAIN_TOPS = frozenset(d for d in T.TOP_LEVEL_NAMES if "/" + d in T.SYSTEM_DIRS) - {"home", "Users", "root", "dev",
                                                                                     "proc"}
#: how bad a class is when a glob may name it (the worst match decides)
_SEVERITY = {NULLDEV: 0, WORKSPACE: 1, CONTAINER: 1, UNKNOWN: 2, OTHER: 3, HOME: 4, ENV: 5, SYSTEM: 6, SENSITIVE: 7,
             SYSROOT: 8, ROOT: 8, BLOCKDEV: 9, SYSRQ: 9}


def worse(a: str, b: str) -> str:
    """The worse of two path classes (a path that may be either: a glob's matches, a link and its target)."""
    return b if _SEVERITY.get(b, 3) > _SEVERITY.get(a, 3) else a


def _glob_kind(parent: str, name: str):
    """Entries of one kind classify alike: one of each is read (bounded work for ``/*/*/…``)."""
    if parent == "/" and name in _PLAIN_TOPS:
        return "system"
    if parent == "/dev":
        return "disk" if name.startswith(T.BLOCK_DEVICE_PREFIXES) and name != "mapper" else name
    return name


def _glob_class(n: str, star: bool, ctx_cwd, workspace, user) -> str | None:
    """The worst class of the paths a glob (``/e*/cron.d/job``, ``/u?r/local/bin/x``, ``/h*/u/.ssh/id_rsa``) may
    name: its first glob segment read as each entry of :data:`_GLOB_TREE` it may match (later globs in turn).
    None when that directory's entries are not known (``/etc/host*``: inside /etc whatever it matches) or
    nothing matches. ``star``: ``n`` stood for ``n/*`` ("inside the directory"), and still does."""
    segs = n.split("/")
    for k in range(1, len(segs)):
        if _has_glob(segs[k]):
            parent = "/".join(segs[:k]) or "/"
            names = _GLOB_TREE.get(parent)
            if names is None:
                return None
            worst = None
            kinds = set()
            for name in names:
                if fnmatchcase(name, segs[k]):
                    kind = _glob_kind(parent, name)
                    if kind in kinds:
                        continue
                    kinds.add(kind)
                    tail = segs[k + 1:] + (["*"] if star else [])
                    c = _classify_path("/".join(segs[:k] + [name] + tail), ctx_cwd, workspace, user)
                    if worst is None or _SEVERITY.get(c, 3) > _SEVERITY.get(worst, 3):
                        worst = c
            return worst
    return None


def _classify_above(n: str, user: str | None) -> str | None:
    """The class a path that climbs above the working directory (``../../home/u/.env``) has wherever that
    directory is, or None. Where it lands is unknown, so fail closed on what its name alone says: a ``.env``
    file, a sensitive file under a home (``.ssh/id_rsa``, ``home/u/.bashrc``), or, two levels up or more, a
    file inside a system directory (``../../etc/passwd``)."""
    ups = 0
    tail = n
    while tail == ".." or tail.startswith("../"):
        ups += 1
        tail = tail[3:]
    if not tail:
        return None
    if _is_env_file(tail.rsplit("/", 1)[-1]):
        return ENV
    if is_sensitive("/" + tail) or is_sensitive("~/" + tail):
        return SENSITIVE
    if ups >= 2 and "/" in tail:
        top = "/" + tail
        if any(top.startswith(d + "/") for d in T.SYSTEM_DIRS):
            return SYSTEM
    return None


def _has_glob(s: str) -> bool:
    return "*" in s or "?" in s or "[" in s


def _classify_unknown(p: str, ctx_cwd: str | None) -> str:
    """A path with a part unknown until run time."""
    q = p.replace(UNKNOWN_MARK, "")
    # `/home/$USER`, `/Users/$X`: a home directory whoever the user is
    for prefix in ("/home/", "/Users/"):
        if p.startswith(prefix):
            rest = p[len(prefix):].rstrip("/")
            if rest == UNKNOWN_MARK or rest == UNKNOWN_MARK + "/*":
                return HOME
    if q in ("", "/", "/*") and p.startswith(UNKNOWN_MARK):
        return UNKNOWN
    # a name unknown until run time inside a directory of credentials (`~/.ssh/$f`, `~/.aws/{}`): what it
    # names is one of them
    known = p.split(UNKNOWN_MARK, 1)[0]
    if len(known) > 2 and known.endswith("/") and UNKNOWN_MARK not in known:
        parent = known.rstrip("/")
        if parent and _classify_path(parent, ctx_cwd, None) == SENSITIVE:
            return SENSITIVE
    return UNKNOWN


def _map_container(p: str, ctx_cwd: str | None, container) -> str | None:
    """Map a container path back to the host through bind mounts; None when not mounted."""
    n = normalize(p, ctx_cwd or "/")
    if n[0] != "/":
        return None
    best = None
    for cpath, hpath in container:
        if n == cpath or n.startswith(cpath.rstrip("/") + "/") or cpath == "/":
            if best is None or len(cpath) > len(best[0]):
                best = (cpath, hpath)
    if best is None:
        return None
    cpath, hpath = best
    rest = n[len(cpath):].lstrip("/") if cpath != "/" else n.lstrip("/")
    if hpath == UNKNOWN_MARK:
        return UNKNOWN_MARK + ("/" + rest if rest else "")
    if not rest:
        return hpath
    return hpath.rstrip("/") + "/" + rest
