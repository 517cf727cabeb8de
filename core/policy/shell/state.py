"""The reader's state while it reads one text, and what flows between commands.

* :class:`Acc`: the highest verdict so far (tier, rule, reason, and the command that decided);
* :class:`Ctx`: the data flow of one script (variables, working directory, downloads, files written …);
* :class:`Budget` (from :mod:`core.policy.shell.syntax.nodes`): the work one classification may spend;
* pipeline values, what a command prints for the next one: ``None`` (nothing known), a :class:`Flow`
  (``DOWNLOAD``, ``DECODED``, ``SECRET``, ``OTHER``), :class:`FileInput`, :class:`TextInput`; and in a word's
  substitution, :class:`ProcOutput` (``<(cmd)``);
* the limits (``MAX_*``) that bound the work.

The pipeline values compare by identity (``stdin is SECRET``, ``type(stdin) is FileInput``): two inputs are
never compared by their contents.

To add state a later command needs (``git add`` of a secret file, then ``git push``): prefer a fact in
``Ctx.flags``; a new ``Ctx`` field must also be copied in :meth:`Ctx.child`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from core.policy import _paths as P
from core.policy.shell.syntax.nodes import new_budget
from core.tiers import Tier

MARK = P.UNKNOWN_MARK
MAX_DEPTH = 8  # nested scripts (sh -c, ssh, eval, python -c …)
MAX_COMBOS = 8  # values tried for loop variables
MAX_NODES = 250  # simple commands looked at one by one in one request (the rest: overflow scan)
MAX_ARGS = 512  # arguments of one command read one by one (past it: options, the first operands, the dangerous-looking)
MAX_STACK = 24  # nested program dispatch (xargs xargs …, find -exec find -exec …)
MAX_VALUE = 4096  # longest variable value kept (longer values are read as unknown)
MAX_FX = 16  # effects (commands, writes) read per command


class Flow(Enum):
    """What a pipeline stage prints when its text is not known at read time (what the next stage reads)."""

    DOWNLOAD = "download"  # data fetched from the network
    DECODED = "decoded"  # data decoded at run time (base64 -d, xxd -r)
    SECRET = "secret"  # contents of a secret file (or text made from them)
    OTHER = "other"  # anything else

    # members are singletons compared by identity: hash them by identity too, in C (Enum's own __hash__ is a
    # Python call, and the dispatch puts these in sets for every command)
    __hash__ = object.__hash__


DOWNLOAD, DECODED, SECRET, OTHER = Flow.DOWNLOAD, Flow.DECODED, Flow.SECRET, Flow.OTHER


@dataclass(frozen=True, slots=True, eq=False)
class FileInput:
    """A file read as the input: ``< FILE``, a loop's ``done < FILE``."""

    path: str


@dataclass(frozen=True, slots=True, eq=False)
class TextInput:
    """Text known at read time: a heredoc or here-string (``heredoc`` True: ``<<EOF``, ``<<< text``) or text a
    command printed (False: ``echo``, ``printf``, ``cat`` of a heredoc)."""

    text: str
    heredoc: bool


@dataclass(frozen=True, slots=True, eq=False)
class ProcOutput:
    """``<(cmd)``: a file name whose contents are ``out``, what cmd printed (a word's substitution, never a
    pipeline's input)."""

    out: object


def held_text(value) -> str:
    """The text a pipeline value holds: a TextInput's text, a FileInput's path (a file input read by ``cat``
    and printed on stands for its name here, as the reader has always read it)."""
    return value.text if type(value) is TextInput else value.path


class Acc:
    """The highest verdict so far: ``tier`` (a Tier level, -1 before any), ``rule`` (``shell.rm.recursive``),
    ``reason`` (phone-readable), ``where`` (the words of the simple command that decided, for the reason's
    quote); ``cur`` is the command being read. Only :meth:`add` changes it, and only upwards."""

    __slots__ = ("tier", "rule", "reason", "cur", "where")

    def __init__(self) -> None:
        self.tier = -1
        self.rule = ""
        self.reason = ""
        self.cur = None  # the simple command being read (its words)
        self.where = None  # the simple command that decided (so the reason can quote that part)

    def add(self, tier: Tier, rule: str, reason: str) -> None:
        """Raise the verdict to ``tier`` with ``rule`` and ``reason`` when it is higher than the verdict so far
        (the first reason of the highest tier stays)."""
        if tier > self.tier:
            self.tier = tier
            self.rule = rule
            self.reason = reason
            self.where = self.cur


class Ctx:
    """Data flow state while reading one script: variables (``env``; a list for a loop variable's values),
    working directory (``cwd``; MARK when unknown), workspace and user, nesting ``depth``, files downloaded or
    written with known text, links made (``links``: ``ln -s /etc/cron.d c``), the container's mounts (``container``), shell functions and aliases defined,
    variables holding secrets (``tainted``), facts for later commands (``flags``) and the shared ``budget``.

    :meth:`child` is the state of a nested script (``sh -c``, a subshell): its own variables and directory,
    the rest shared."""

    __slots__ = ("env", "cwd", "ws", "user", "depth", "downloaded", "container", "funcs", "implied", "budget",
                 "written", "tainted", "secretish", "aliases", "flags", "links")

    def __init__(self, cwd: str | None, ws: str | None, user: str | None):
        self.env: dict = {}
        self.cwd = cwd
        self.ws = ws
        self.user = user
        self.depth = 0
        self.downloaded: set = set()
        self.container = None
        self.funcs: set = set()
        self.implied = 0  # 1: targets are whole trees (find -exec), 2: filtered trees
        self.budget = new_budget(nodes=MAX_NODES)
        self.written: dict = {}  # files written in this text with literal content (echo … > f)
        self.tainted: set = set()  # variables holding secret file contents (K=$(cat ~/.ssh/id_rsa))
        self.secretish = True  # False: the text cannot name a secret file (no secret-flow reading needed)
        self.aliases: dict = {}  # alias name -> its value (`alias x=rm; x -rf /`)
        self.flags: set = set()  # facts for later commands ("staged_secret": git add of a secret file)
        self.links: dict = {}  # links made in this text: the link's path -> what it points to (normalized)

    def child(self, deeper: bool = False) -> Ctx:
        """A copy for a nested script: ``env`` copied, the sets and dicts of facts shared (``deeper``: one more
        level of nesting, bounded by MAX_DEPTH)."""
        c = Ctx.__new__(Ctx)
        c.env = dict(self.env)
        c.cwd = self.cwd
        c.ws = self.ws
        c.user = self.user
        c.depth = self.depth + (1 if deeper else 0)
        c.downloaded = self.downloaded
        c.container = self.container
        c.funcs = self.funcs
        c.implied = self.implied
        c.budget = self.budget
        c.written = self.written
        c.tainted = self.tainted
        c.secretish = self.secretish
        c.aliases = self.aliases
        c.flags = self.flags
        c.links = self.links
        return c


#: prefix of a fact in Ctx.flags: the variable after it refers to a secret variable (``declare -n r=API_KEY``)
SECRET_REF = "secret_ref:"
#: prefix of a fact in Ctx.flags: the variable after it holds decoded data (``x=$(echo … | base64 -d)``)
DECODED_VAR = "decoded:"
#: prefix of a fact in Ctx.flags: text decoded at read time (``$(echo … | base64 -d)``); run, it is decoded data
DECODED_TEXT = "decoded_text:"

def bounded(val: str, acc: Acc) -> str:
    """``val`` as a value kept for later words: at most MAX_VALUE characters. A longer path (``/etc/././…/shadow``)
    is kept normalized; a path-like word still too long is unknown and MEDIUM (it may name any file: the reader
    fails closed); longer text with blanks (prose, a command: read where it was built) is unknown."""
    if len(val) <= MAX_VALUE:
        return val
    if MARK in val or " " in val or "\n" in val or "\t" in val:
        return MARK
    if "/" not in val:
        return MARK  # (not a path outside the working directory)
    n = P.normalize(val, None)
    if len(n) <= MAX_VALUE:
        return n
    acc.add(Tier.MEDIUM, "shell.too_long", "a value too long to read (it may name any file)")
    return MARK


#: marks a directory in Ctx.downloaded whose files all came from a download (an unpacked archive); with no
#: directory after it, the working directory
DOWNLOADED_DIR = "\x00dir:"


def is_downloaded(ctx: Ctx, key: str) -> bool:
    """Whether the file ``key`` (normalized) is downloaded code: downloaded itself, or inside a directory a
    downloaded archive was unpacked into."""
    if key in ctx.downloaded:
        return True
    for d in ctx.downloaded:
        if d.startswith(DOWNLOADED_DIR):
            base = d[len(DOWNLOADED_DIR):]
            if (not base and not key.startswith(("/", "~"))) or (base and key.startswith(base + "/")):
                return True
    return False
