"""The generic argument rules (tiers.md v3.2, "What a command can do, read from its arguments"): what any
program's arguments name, whatever the program, as the net under the knowledge table. They only raise a tier.

:func:`argument_facts` reads the arguments: a secret file, a path in a system directory (and whether as the
value of an output-like option), a shell or interpreter started, a network destination, a listening address,
a directory served, a local file besides a destination (what an upload sends). What those facts make of a
command is :mod:`core.policy.shell.effects.decide`'s; which words name a shell, and remote shells made of
pipes, :mod:`core.policy.shell.effects.shells`'; addresses in any spelling,
:mod:`core.policy.shell.effects.addresses`'.

The entry point is :func:`core.policy.shell.effects.knowledge.read_arguments`. A rule for one program belongs
in the knowledge table (``core/policy/data/programs.toml``); a change here changes what every unknown program
is read for (``docs/policy.md`` says where these rules may over-flag).
"""

from __future__ import annotations

import re
from functools import lru_cache

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.effects.addresses import (
    _LOOPBACK,
    LOCAL_TOPS,
    bind_option,
    bind_value,
    destination_with_port,
    host_port_pair,
    listening,
    maybe_destination,
    network_destination,
    numeric_ipv4,
)
from core.policy.shell.effects.shells import (
    SHELL_AS_DATA,
    SHELL_NAME_PATTERN,
    SHELL_NAMES,
    SHELL_SETTING_VARS,
    VERSIONED,
    shell_copies,
    shell_copy,
    shell_named,
    shell_somewhere,
)
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL
MARK = P.UNKNOWN_MARK

#: arguments of one command read by the generic rules (the rest only by the budgeted overflow scan)
MAX_ARGS = 64
#: words (arguments and the words inside them) one command's generic reading looks at
MAX_VALUES = 128

#: programs that only name files (a secret path among their operands is not read): read-only metadata tools
METADATA_READERS = frozenset(T.SECRET_ECHOERS | {
    "md5sum", "md5", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "shasum", "b2sum", "cksum",
    "sum", "lsattr", "namei", "getfacl", "lsof", "fuser", "findmnt", "df", "du", "dust", "duf", "ncdu", "tree",
    "exa", "eza", "lsd", "dir", "vdir", "ll", "la", "type", "whereis", "whatis", "man", "info", "apropos",
    "tldr", "help", "hash", "locate", "mlocate", "plocate", "fd", "fdfind", "find", "ldd", "size", "chgrp",
    "rm", "unlink", "shred", "mv", "setfacl", "restorecon", "chcon", "chattr", "install", "mkfifo", "mknod",
    "cd", "pushd", "popd", "dirs", "z", "zoxide", "j", "autojump",
})
#: programs whose handler reads the command they run (a shell among their words is that command's business)
COMMAND_READERS = frozenset(T.SHELLS | set(T.INTERPRETERS) | set(T.WRAPPERS) | {
    "find", "xargs", "parallel", "ssh", "docker", "podman", "nerdctl", "kubectl", "oc", "tmux", "screen", "script",
    "su", "at", "batch", "watch", "env", "eval", "source", ".", "exec", "git", "make", "crontab", "trap", "alias",
    "ansible", "salt", "pdsh", "pssh", "parallel-ssh", "clush", "mosh", "vim", "vi", "nvim", "ex", "emacs", "gdb",
    "awk", "gawk", "mawk", "nawk", "sed", "gsed", "socat", "nc", "ncat", "netcat", "chsh", "usermod", "useradd",
})
#: option names (without leading dashes, lower case) whose value is a file or directory the program writes
OUTPUT_OPTION_WORDS = ("output", "out", "log", "dest", "destination", "target", "save", "dump", "export", "write",
                       "outfile", "logfile", "outdir", "result", "report", "pid", "pidfile")
OUTPUT_SHORT = frozenset(("-o", "-O", "-w"))
#: option names (lower case, without dashes) whose value is a network destination
HOST_OPTION_WORDS = frozenset(("h", "host", "hostname", "server", "remote", "connect", "url", "uri", "endpoint",
                               "addr", "address", "target-host", "dest-host", "peer", "proxy"))
#: option names whose value is a directory a server serves
SERVE_OPTION_WORDS = frozenset(("directory", "dir", "docroot", "document-root", "root", "webroot", "serve",
                                "public", "static", "t", "d", "h"))
#: options whose value is a local file a program reads to process or send (with a destination: what it sends)
_INPUT_OPTIONS = frozenset(("i", "input", "in", "infile", "input-file", "file", "upload", "upload-file", "attach",
                            "attachment", "data", "post-file", "body-file", "t"))
#: options whose value a program reads or takes as configuration (``-I/usr/include``, ``-cp /usr/share/java/x.jar``,
#: ``--prefix=/usr/local``, ``-DCMAKE_INSTALL_PREFIX=/usr``): a system path there is not one it changes
_READ_OPTION_NAMES = frozenset(("I", "L", "D", "isystem", "iquote", "idirafter", "imacros", "include", "include-path",
                                "libpath", "library-path", "cp", "classpath", "class-path", "module-path",
                                "modulepath", "font", "fontdir", "font-path", "fontpath", "sysroot", "rpath", "prefix",
                                "exec-prefix", "cacert", "capath", "ca-file", "ca-path", "cert", "certfile", "dict",
                                "dictionary", "template", "templates"))
#: options and variables that name the interpreter or compiler a program will use later (``--python=…``,
#: ``-DPython3_EXECUTABLE=…``): an interpreter there is a choice, not one started (a shell still counts)
_INTERPRETER_CHOICE = ("python", "python-executable", "pythonpath", "interpreter", "executable", "discover",
                       "compiler", "cc", "cxx", "p", "node", "ruby", "perl")
#: options whose bare value names a language or dialect (``pygmentize -l bash``, ``shellcheck --shell=bash``)
_LANGUAGE_OPTIONS = frozenset(("l", "lang", "language", "languages", "lexer", "syntax", "ln", "filetype", "ft",
                               "dialect", "shell", "s", "highlight"))
#: programs whose option values are all configuration (a build configured now, installed later)
_CONFIGURATORS = frozenset(("configure", "cmake", "meson", "qmake", "autoreconf", "ccmake", "scons", "waf"))
#: directories of programs: an option's value there names a program to use (``--pdf-engine=/usr/bin/xelatex``)
_BINARY_DIRS = ("/usr/bin/", "/bin/", "/usr/local/bin/", "/usr/sbin/", "/sbin/", "/opt/homebrew/bin/")
#: options whose value is prose for people (a commit message, a title): not read for shells or paths
PROSE_OPTIONS = frozenset(("-m", "--message", "--title", "--body", "--subject", "--description", "--comment",
                           "--notes", "--summary", "--reason", "--msg", "-F", "--text"))

#: cheap test: an argument that may carry any of the generic signals
_HINT = re.compile(r"[/~:=@!|]|^\.|\d\.\d|\.(?:key|p12|pfx|jks|pem)$|^id_|^(?:-[A-Za-z])?(?:" + SHELL_NAME_PATTERN + r")$")
#: words a secret file's path has (before the path rules are asked: most paths have none)
_SECRET_WORDS = re.compile(r"shadow|sudoers|environ|secret|private|ssh_host|keytab|opasswd|passwd|letsencrypt|pki|"
                           r"wireguard|ipsec|\.ssh|krb5|\.(?:key|p12|pfx|jks|keystore|ppk|pem)$|(?:^|/)id_")
#: the same for a program no handler reads: an argument with blanks, quotes or brackets may be code or a command
_HINT_INNER = re.compile(_HINT.pattern + r"""|[\s'"({\\]|\.[A-Za-z0-9]{2,5}$""")
#: the words inside an argument that holds a command or code (``'script import os; os.system("cat /etc/shadow")'``)
_INNER_WORDS = re.compile(r"[^\s'\"(),;\[\]{}<>|&`]+")




class Facts:
    """What the arguments of one command name: each kind's first example (for the reason), or None.

    Attributes: ``secret`` (a secret file), ``system`` (a path in a system directory), ``output`` ((option,
    path): a system path as the value of an output-like option), ``shell`` ((name, command text)), ``net`` (a
    network destination), ``listen`` (a listening address), ``served`` (a directory served), ``sent`` (a local
    file operand besides a destination: what an upload would send), ``unread`` (too many arguments that may
    matter to read them all)."""

    __slots__ = ("secret", "system", "output", "shell", "net", "listen", "served", "sent", "unread")

    def __init__(self) -> None:
        self.secret = self.system = self.output = self.shell = self.net = self.listen = self.served = None
        self.sent = None
        self.unread = False  # more arguments that may matter than one command's reading reads


#: the facts of arguments that name nothing (shared; never changed)
_NO_FACTS = Facts()


def _option_name(a: str) -> str:
    return a.lstrip("-").split("=", 1)[0].lower()


#: an output-like option name: one of the words, alone, first (``output-file``, ``logfile``, ``dest_dir``) or
#: last (``--error-log``)
_OUTPUT_NAME = re.compile(r"(?:%s)(?:[-_].*|file|dir|path)?|.*[-_](?:%s)" % (("|".join(OUTPUT_OPTION_WORDS),) * 2),
                          re.S)


@lru_cache(maxsize=2048)
def _is_output_option(name: str, short: str) -> bool:
    if short in OUTPUT_SHORT and (not name or len(name) <= 1 or name in ("o", "w")):
        return True
    return _OUTPUT_NAME.fullmatch(name) is not None


def _path_class(r, word: str, ctx, bare: bool = False) -> str | None:
    """The path class of a word that names a path, or None. ``bare``: the working directory is a system one
    (:func:`core.policy._paths.system_cwd`), where a bare name is a system file too."""
    if not word or MARK in word or len(word) > 512 or " " in word:
        return None  # (a word with a blank is prose or a command, read through its words)
    c0 = word[0]
    if "://" in word:
        return None  # a URL, not a local path
    if word.startswith("//"):
        top = word[2:].split("/", 1)[0]
        if top not in LOCAL_TOPS:
            return None  # a network share (//host/share); //etc/shadow is /etc/shadow
        word = "/" + word.lstrip("/")
    if c0 not in "/~." and "/" not in word and not word.startswith("id_") and not word.endswith(
            (".key", ".p12", ".pfx", ".jks", ".pem")) and not (bare and c0 != "-" and ":" not in word):
        return None
    return r.pclass(word, ctx)


def _bare_names(r, ctx) -> bool:
    """The working directory is one whose bare names are system or credential files (``cd /etc``, ``cd /``,
    ``cd ~/.aws``): there every operand is read as a path."""
    cwd = ctx.cwd
    if not cwd or MARK in cwd:
        return False
    return P.system_cwd(cwd) or (cwd[0] in "/~" and r.pclass(cwd, ctx) == P.SENSITIVE)


def _named(v: str, ctx, bare: bool) -> str:
    """A path as a reason names it: a bare name in a system working directory with that directory."""
    return P.normalize(v, ctx.cwd) if bare and v[:1] not in "/~" else v


def _values(a: str, inner: bool) -> list:
    """The words an argument may name things with: itself, the value after ``=`` or after an option's ``:``
    (``-javaagent:/x.jar``), ``@file``, the parts of a relay address (``EXEC:…``, ``OPEN:/etc/shadow``), and
    with ``inner``, the words of a command, code or JSON inside it (``{"path":"/etc/shadow"}``)."""
    out = [a]
    if "=" in a:
        v = a.split("=", 1)[1]
        out.append(v[1:] if v[:1] == "@" else v)  # (--extra-opts=@/etc/shadow: a file read)
        if "," in v and ("/" in v or "~" in v):
            for p in v.split(",")[:8]:  # (--files=a.txt,/etc/shadow; --script-args a.url=/s,a.file=/etc/shadow)
                if p:
                    out.append(p)
                    if "=" in p:
                        out.append(p.split("=", 1)[1])
    elif a[:1] == "-" and ":" in a:
        out.append(a.split(":", 1)[1])
    elif a[:1] == "-" and a[1:2].isalpha() and a[2:3] in ("/", "~"):
        out.append(a[2:])  # a short option's attached value (-o/etc/cron.d)
    elif a[:1] == "-" and a[1:2] != "-" and ("/" in a or "~" in a):
        k = min(x for x in (a.find("/"), a.find("~")) if x > 0)
        out.append(a[k:])  # (bundled flags with an attached value: -xf/etc/shadow)
    elif a[:1] == "-" and a[1:2].isalpha() and (a[2:] in SHELL_NAMES or VERSIONED.match(a[2:])):
        out.append(a[2:])  # (an attached value naming a shell: -esh)
    if a[:1] == "@":
        out.append(a[1:])
    if a[:7] == "file://":
        out.append(a[7:] or "/")  # (a file URL names a local file: lynx -dump file:///etc/shadow)
    elif ":" in a and a[:1].isalpha() and "://" not in a:
        head, _, rest = a.partition(":")
        if head.lower() in _ADDRESS_TYPES and rest[:1] != ":":  # (not a path of names: shell::bash)
            parts = rest.split(",")[:4] if rest[:1] != "/" else [rest.split(",", 1)[0]]
            out.extend(p[1:] if p[:1] == "@" else p for p in parts if p)  # (label:@/etc/shadow reads the file)
    if inner and (" " in a or "(" in a or "{" in a or "[" in a or '"' in a) and len(a) < 4096:
        out.extend({w: None for w in _INNER_WORDS.findall(a)[:48] if len(w) > 1})
    return out


#: the address types of relay programs and image tools whose value after the colon names a program, a file or a
#: host (socat EXEC:…, OPEN:/etc/shadow, TCP:HOST:PORT; ImageMagick label:@FILE): not any word with a colon
_ADDRESS_TYPES = frozenset((
    "exec", "system", "shell", "open", "file", "gopen", "create", "pipe", "tcp", "tcp4", "tcp6", "udp", "udp4",
    "udp6", "tcp-connect", "tcp4-connect", "tcp6-connect", "udp-connect", "tcp-listen", "tcp4-listen",
    "tcp6-listen", "udp-listen", "tcp-l", "udp-l", "openssl", "openssl-connect", "openssl-listen", "ssl", "ssl-l",
    "sctp", "sctp-connect", "sctp-listen", "socks", "socks4", "socks4a", "socks5", "proxy", "proxy-connect", "pty",
    "unix", "unix-connect", "unix-listen", "unix-client", "vsock-connect", "vsock-listen", "label", "caption",
    "text", "msl", "ephemeral", "inline", "read", "write", "fd", "stdio", "readline"))


def _maybe_listen(v: str) -> bool:
    """Cheap test before :func:`listening`: a zero address, an IPv6 or empty host, a relay listener."""
    return "0.0" in v or "::" in v or "*:" in v or "0:" in v or "://:" in v or "isten" in v or "ISTEN" in v or (
        "-l:" in v or "-L:" in v or "ecv" in v or "ECV" in v)


def bind_listen(a: str, prev_opt: str | None) -> str | None:
    """The listening address a word gives read with the option it belongs to (the words where the empty host
    and ``0`` bind every interface): ``--host 0``, ``-b :8000``, ``--host=0``, ``-b0.0.0.0``, ``--ip '*'``."""
    if _BIND_HINT.search(a) is None:
        return None  # (every spelling of every interface has a 0, a colon or a star)
    if a[:1] == "-" and len(a) > 2:
        if "=" in a:
            name, _, v = a.partition("=")
            return a if bind_option(name.lstrip("-").lower()) and bind_value(v) else None
        if a[1] != "-" and a[1].isalpha() and a[2] in "0123456789[:*":
            v = a[2:]  # (an attached value: -b0.0.0.0, -b:8000)
            return a if (a[1] == "b" and bind_value(v)) or (_maybe_listen(v) and listening(v)) else None
        return None
    if prev_opt is not None and prev_opt[:1] == "-" and bind_option(prev_opt.lstrip("-").lower()) and bind_value(a):
        return f"{prev_opt} {a}"
    return None


#: cheap test before :func:`bind_listen` and :func:`listen_address`: what any listening address has
_BIND_HINT = re.compile(r"[0:*]|isten|ISTEN|ecv|ECV")


def listen_address(args: list) -> str | None:
    """The first listening address among ``args`` (a server started by an interpreter or runner: ``node
    app.js --host 0``), read with the options the words belong to."""
    if _BIND_HINT.search("\x01".join(args[:MAX_ARGS])) is None:
        return None
    prev = None
    for a in args[:MAX_ARGS]:
        if a:
            got = (bind_listen(a, prev) if a[:1] == "-" or prev is not None else None) or (
                a if _maybe_listen(a) and listening(a) else None)
            if got is not None:
                return got
        prev = a if a[:1] == "-" and "=" not in a else None
    return None



#: argument_facts of recent commands: (args, inner, cwd, workspace, user) -> Facts (agents repeat commands)
_FACTS: dict = {}


def clear_caches() -> None:
    """Forget the memos of this module (benchmarks time never-seen commands)."""
    _FACTS.clear()
    network_destination.cache_clear()
    listening.cache_clear()
    bind_value.cache_clear()
    shell_named.cache_clear()
    _is_output_option.cache_clear()


#: cheap test for a program a handler reads: arguments with none of these name nothing the rules below read
#: for it (a secret, a system path, a listening address, a shell given as an option's value)
_DANGER = (
    r"shadow|sudoers|environ|secret|private|ssh_host|keytab|passwd|credential|token|letsencrypt|pki|wireguard|"
    r"ipsec|krb5|\.env|\.ssh|\.gnupg|\.aws|\.kube|\.docker|\.azure|\.oci|\.netrc|\.pgpass|\.npmrc|\.pypirc|"
    r"\.vault|\.s3cfg|\.boto|\.my\.cnf|\.password-store|keyring|\.config/|\.terraform|rc\b|profile|\.zlogin|"
    r"\.(?:key|p12|pfx|jks|keystore|ppk|pem)\b|id_(?:rsa|dsa|ecdsa|ed25519|xmss)|\.\./|"
    r"(?:^|[\s=:@,\x01])(?:/(?:etc|usr|var|boot|bin|sbin|lib|lib32|lib64|libx32|opt|srv|root|sys|proc|dev|home|"
    r"Users|System|Library|private|run|tmp)\b|~)|0\.0\.0\.0|::|\*:\d|isten|ISTEN|file:|@/|"
    r"(?:^|\x01)(?::\d|0(?:\x01|$))")
_HANDLED_HINT = re.compile(_DANGER + "|=")
#: what an argument past the cap is read for (secrets, system paths, listeners, destinations, shells)
#: (``src/`` is not an rc file: ``gcc src/a.c … src/z.c``, many sources, is not held for them)
_PAST_CAP = re.compile(_DANGER.replace(r"rc\b", r"(?<![Ss])rc\b") + r"|://|@|\d\.\d+\.\d|[Rr][Ee][Cc][Vv]|\w:\d|"
                       r"(?:^|[=:!'\"(/,\s])(?:" + SHELL_NAME_PATTERN + r")(?![\w.-])")



def argument_facts(r, args: list, ctx, inner: bool = True, prog: str = "") -> Facts:
    """What ``args`` name (each kind's first example), remembered for the same arguments in the same place
    (the returned Facts is shared: read it, never change it)."""
    if ctx.container is not None:
        return _argument_facts(r, args, ctx, inner, prog)
    key = (tuple(args), inner, ctx.cwd, ctx.ws, ctx.user, prog in _CONFIGURATORS,
           shell_copies(ctx) if ctx.flags else ())  # (every argument: same facts)
    f = _FACTS.get(key)
    if f is None:
        if not inner and not _HANDLED_HINT.search("\x01".join(key[0])) and (
                ctx.cwd is None or r.pclass(ctx.cwd, ctx) not in (P.SYSTEM, P.SYSROOT, P.ROOT, P.SENSITIVE)):
            f = _NO_FACTS
        else:
            f = _argument_facts(r, args, ctx, inner, prog)
        if len(_FACTS) > 4096:
            _FACTS.clear()
        _FACTS[key] = f
    return f


#: arguments read past the cap (the dispatch keeps a few thousand at most, MEDIUM past its own cap)
_MAX_READ = 512


def _may_name_place(a: str) -> bool:
    """Cheap test: ``a`` may name a file outside the working directory or a secret one (an absolute, home or
    climbing path, itself or as an option's value, or a secret's name)."""
    return (a[0] in "/~" or "=/" in a or "=~" in a or (a[0] == "-" and a[2:3] in ("/", "~")) or ".." in a
            or ".env" in a or _SECRET_WORDS.search(a) is not None)


def _past_cap(args: list, hint, bare: bool) -> tuple[list, bool]:
    """The arguments read of a long list (7z a x.7z f0 … f999 /etc/shadow): the first :data:`MAX_ARGS`, those that
    may name something up to twice that, then options (up to :data:`_MAX_READ`) and those that may name a system,
    home or secret file whatever their number (a budget that runs out must not hide the last one); and whether an
    argument left out may have raised a tier (:data:`_PAST_CAP`: a shell, an address, a destination): then the
    command is held as too many to read (fail closed)."""
    out = list(args[:MAX_ARGS])
    unread = False
    for a in args[MAX_ARGS:]:
        if not a:
            continue
        if len(out) < 2 * MAX_ARGS:
            if bare or hint.search(a):
                out.append(a)
        elif (len(out) < _MAX_READ and (bare or a[0] == "-")) or _may_name_place(a):
            out.append(a)
        elif _PAST_CAP.search(a) is not None:
            unread = True  # (a shell, an address, a destination left unread: held, args.too_many)
    return out, unread


def _value_option(a: str, is_opt: bool, prev_opt: str | None) -> str:
    """The name (lower case, no dashes) of the option whose value ``a`` is or carries: ``--out=F`` -> out,
    ``-o F`` -> o, ``-I/usr/include`` -> i, ``-DNAME=V`` -> d; ``NAME=V`` -> name; "" for an operand."""
    if is_opt:
        if a[:2] != "--" and len(a) > 2 and a[1] in "DIL" and (a[2:3] in "/~" or a[1] == "D" and "=" in a):
            return a[1]  # (-I/usr/include, -L/usr/lib, -DCMAKE_INSTALL_PREFIX=/usr: case kept)
        return _option_name(a)
    if prev_opt is not None:
        if prev_opt in ("-I", "-L"):
            return prev_opt[1]  # (-I /usr/include)
        return _option_name(prev_opt)
    if "=" in a and a.split("=", 1)[0].replace("_", "").isalnum():
        return a.split("=", 1)[0].lower()  # (make PREFIX=/usr/local)
    return ""


def _config_name(name: str) -> bool:
    """An option or variable name whose value is read or is configuration: includes, libraries, class paths,
    fonts, install prefixes, ``-D`` defines, ``--with-…`` choices."""
    return name in _READ_OPTION_NAMES or name.startswith("with-") or name.endswith(
        ("prefix", "include", "includedir", "libdir", "_executable", "-executable", "_root_dir", "fontdir"))


#: a file name with an extension (build.tgz, report.pdf), not a host name (files.example.net) or a version
_FILE_NAME = re.compile(r"[\w.-]+\.(?:t?gz|tgz|zip|tar|bz2|xz|zst|7z|rar|sql|csv|tsv|json|txt|md|log|pdf|png|"
                        r"jpe?g|gif|mp4|mkv|mp3|wav|bin|img|iso|db|sqlite|bak|dump|key|pem|env|ya?ml|toml|ini|xml|"
                        r"html?|docx?|xlsx?|pptx?|odt|jar|war|whl|deb|rpm|apk|exe|py|sh|js|ts|rb|go|rs|c|h|cpp|"
                        r"java|php|lua|pl|patch|diff|ipynb|conf|cfg|crt|csr|p12|pfx|jks)$")
#: a file's name without an extension (Makefile, Dockerfile, README, LICENSE)
_BARE_FILE = re.compile(r"(?:[A-Z][a-z]+)+file|makefile|GNUmakefile|README|LICEN[CS]E|COPYING|NOTICE|AUTHORS|"
                        r"CHANGELOG|CHANGES|CONTRIBUTING|INSTALL|VERSION|CODEOWNERS|MANIFEST|TODO")
#: option names whose value is a command or code (its words are read, whatever they look like)
_COMMAND_OPTIONS = frozenset(("c", "e", "x", "cmd", "command", "commands", "exec", "execute", "eval", "run",
                              "script", "do", "hook", "shell-command"))


def _code_like(a: str, r, opt_name: str = "") -> bool:
    """An argument with blanks that holds code or a command (``'script import os; …'``, ``'cat /etc/shadow'``),
    not prose for people (``'see /etc/shadow'``): the value of a command option, code punctuation, or a first
    word a handler or table knows."""
    if opt_name in _COMMAND_OPTIONS or any(ch in a for ch in "();|&$={}`<>"):
        return True
    heads = [a]
    if "[" in a:
        heads += a.split("[")[1:4]  # (a command as an item's argument: zabbix_get -k 'system.run[cat /etc/shadow]')
    for head in heads:
        first = head.split(None, 1)[0].rsplit("/", 1)[-1] if head.strip() else ""
        if first in r.handlers or first in r.read_only or first in r.programs or first in ("put", "mput", "send"):
            return True
    return False


def _local_file(v: str, cls) -> bool:
    """A word that names a local file or directory a program may send: a workspace path with a name that has
    an extension or ends in ``/`` (``./build.tgz``, ``dist/``), or a bare name of a file (``build.tgz``,
    ``Makefile``, ``README``); not an ``owner/repo`` slug, a host name or a word."""
    if cls is not None:
        return cls in (P.WORKSPACE, P.OTHER) and ("." in v or v[-1:] == "/")
    return ":" not in v and "@" not in v and "/" not in v and (_FILE_NAME.match(v) is not None or (
        _BARE_FILE.fullmatch(v) is not None and v not in T.HTTP_METHODS))


def _path_list(a: str) -> list | None:
    """The paths of one argument that lists several (``'a.txt /etc/shadow'``): every blank-separated word a
    path or a file name; None for prose (``'see /etc/shadow'``) or a command."""
    words = a.split()
    if not 2 <= len(words) <= 32:
        return None
    for w in words:
        if _PATH_WORD.fullmatch(w) is None or not (w[:1] in "/~" or w[:2] in ("./", "..") or (
                "/" in w and "://" not in w) or _local_file(w, None)):
            return None
    return words


#: a word that may be a path (names of letters, digits and ``._-+@%~``, not ``/`` alone or a pattern)
_PATH_WORD = re.compile(r"[\w.~+@%/-]*[\w~]/?")


def _argument_facts(r, args: list, ctx, inner: bool = True, prog: str = "") -> Facts:
    """What ``args`` name (each kind's first example). ``inner``: the program is one no handler reads: also
    read the words of commands and code given as one argument, every word for shells, and destinations and
    uploads; without it (a handler read the operands) only an option's value names a shell, and a destination
    is looked for only once a secret is found (it decides whether the secret is sent).

    A long list is cut by :func:`_past_cap`; past the work budget (MAX_VALUES words) each argument is read for
    the path it names only. An argument left unread that may raise a tier (:data:`_PAST_CAP`: a shell, an
    address, a destination) sets ``unread`` (fail closed: held as too many to read)."""
    f = Facts()
    prev_opt = None  # an option that may take the next word as its value
    prev = None
    work = MAX_VALUES
    hint = _HINT_INNER if inner else _HINT
    bare = _bare_names(r, ctx)  # (cd /etc && tool shadow: a bare name is a file there)
    if len(args) > MAX_ARGS:
        args, f.unread = _past_cap(args, hint, bare)
    n = len(args)
    configurator = prog in _CONFIGURATORS or prog.endswith("configure")
    dir_opt = None
    net_at = n  # (where the first destination is: a file named after it is where a download goes, not what is sent)
    for k in range(n):
        a = args[k]
        if f.listen is None and a[:1] == "-" and "isten" in a and not a.lower().startswith((
                "--no-listen", "--disable")):
            if "=" in a:
                v = a.split("=", 1)[1].lower()
            else:
                v = args[k + 1].lower() if k + 1 < n and args[k + 1][:1] != "-" else ""
            if v not in ("false", "no", "0", "off") and not v.startswith(_LOOPBACK):
                f.listen = a  # (--rpc-listen-all=true, --listen ADDR, -listen 1: a server)
        if f.listen is None and (a[:1] == "-" or prev_opt is not None):
            f.listen = bind_listen(a, prev_opt)  # (--host 0, -b :8000, --host=0, -b0.0.0.0: every interface)
        if inner and f.net is None and a and a[:1] != "-":
            # a destination the words around it make (HOST PORT in two words, 3405803783), a host option's name
            d = host_port_pair(args, k) if k + 1 < n and args[k + 1].isdigit() else None
            if d is None and prev_opt is None and numeric_ipv4(a):
                d = a
            if d is None and prev_opt is not None and _option_name(prev_opt) in HOST_OPTION_WORDS and (
                    "." in a or a.isalpha()) and not a.startswith(_LOOPBACK):
                d = a[:60]
            if d is not None:
                f.net, net_at = d, k
        if not a or prev_opt in PROSE_OPTIONS or (hint.search(a) is None and not (bare and a[:1] != "-") and not (
                prev_opt is not None and a[:1] != "-" and _is_output_option(_option_name(prev_opt), prev_opt[:2]))
                and not (inner and f.sent is None and prev_opt is None and _local_file(a, None))):
            prev, prev_opt = a, (a if a[:1] == "-" and "=" not in a else None)
            continue
        cheap = work <= 0  # (past the work budget each argument is still read as itself, for the path it names:
        # a budget that ran out must not hide the /etc/shadow after 200 file names)
        if cheap and not bare and not ctx.links and not _may_name_place(a):
            if _PAST_CAP.search(a) is not None:
                f.unread = True  # (a shell, an address past the budget: not read, so held)
            prev, prev_opt = a, (a if a[:1] == "-" and "=" not in a else None)
            continue
        if a.startswith(SHELL_SETTING_VARS):
            prev, prev_opt = a, None
            continue  # (SHELL=/bin/bash names the shell recipes run with: nothing is started here)
        is_opt = a[:1] == "-" and len(a) > 1
        attached = is_opt and "=" not in a and a[1:2] != "-" and a[2:3] in ("/", "~")  # -o/etc/cron.d
        valued = (is_opt and ("=" in a or attached)) or (not is_opt and prev_opt is not None)
        opt_name = _value_option(a, is_opt, prev_opt) if (valued or "=" in a) else ""
        config = bool(opt_name) and (_config_name(opt_name) or configurator)
        output_opt = bool(opt_name) and _is_output_option(opt_name, a[:2] if is_opt else (prev_opt or "")[:2])
        choice = bool(opt_name) and (opt_name in _INTERPRETER_CHOICE or opt_name.endswith(
            ("_executable", "-executable", "python", "-engine", "_engine")))
        direct = a.split("=", 1)[1] if "=" in a else (a[2:] if attached else a)
        listed = _path_list(a) if inner and not cheap and " " in a and not is_opt and len(a) < 4096 else None
        if listed is not None:
            values = [a, *listed]  # (a quoted list of files is the files)
        else:
            values = _values(a, inner and (" " not in a or _code_like(a, r, opt_name))) if not cheap else [direct]
        work -= len(values)
        for v in values:
            output = output_opt and (v is a or v == direct)  # (an inner word or a file URL is not the file written)
            if not v:
                continue
            operand = (v is a or listed is not None) and not is_opt and not prev_opt
            long_path = cheap  # (past the work budget: only the word's path class is read)
            if len(v) > 256:
                if "/" not in v or " " in v or "\n" in v or MARK in v:
                    continue  # (a long word is read through the words inside it)
                v = P.normalize(v, None)  # (/etc/././…/x, ~/.ssh/a/../…/id_rsa: what it names)
                long_path = long_path or len(v) > 256  # (still long: only its path class is read, and it is)
            if f.shell is None and not long_path and prev not in SHELL_AS_DATA and listed is None and (
                    inner or v is not a or "=" in a or (prev_opt is not None and v[:1] in "/" + MARK)):
                sh = shell_named(v) if v[:1] != MARK else shell_somewhere(v)
                if sh is not None and (config or choice) and sh[0] not in T.SHELLS:
                    sh = None  # (-DPython3_EXECUTABLE=/usr/bin/python3, --python=…: the interpreter to use later)
                if sh is not None and opt_name in _LANGUAGE_OPTIONS and "/" not in v:
                    sh = None  # (pygmentize -l bash, shellcheck --shell=bash: a language named)
                if sh is not None and v is a and sh[1] == a and "/" not in a and " " not in a and not is_opt and not (
                        k + 1 < n and (args[k + 1][:1] == "-" or args[k + 1].endswith(".sh"))) and not (
                        prev_opt is not None and _option_name(prev_opt) in _COMMAND_OPTIONS):
                    sh = None  # (`apt-cache show bash`: a bare name as an operand is a word, unless run like one)
                if sh is None and ctx.flags and "/" in v and MARK not in v and " " not in v:
                    sh = shell_copy(v, ctx)  # (cp /bin/sh ./x; … ./x: a copy of a shell is a shell)
                if sh is not None:
                    f.shell = sh
                    if sh[1] == v:
                        continue  # (a shell's own path is the shell, not a file it changes)
            cls = _path_class(r, v, ctx, bare) if not long_path else r.pclass(v, ctx)
            if cls is None and output and ctx.cwd is not None and v[:1] not in "-" and " " not in v:
                cls = r.pclass(v, ctx)  # (an output option's value is a file, wherever cd went: cd /etc/cron.d; … -o job)
            if cls is not None:
                if output and cls in (P.SENSITIVE, P.ENV):
                    f.output = f.output or (opt_name, v)  # (--output ~/.ssh/authorized_keys writes a sensitive file)
                elif not output and (cls in (P.SENSITIVE, P.ENV) or (
                        (_SECRET_WORDS.search(v) is not None or (("*" in v or "?" in v) and v.count("/") > 1 and (
                            v is a or v == direct)))  # (a glob given as a path: /e?c/sh*dow)
                        and P.is_secret_read(P.normalize(v, ctx.cwd)))):
                    f.secret = f.secret or _named(v, ctx, bare)  # (an output option's file is written: -out x.key)
                elif cls in (P.SYSTEM, P.SYSROOT, P.ROOT, P.BLOCKDEV, P.SYSRQ):
                    if valued and (v is not a or not is_opt):
                        if output:
                            f.output = f.output or (opt_name, v)
                        elif opt_name in ("d", "P", "p") and dir_opt is None:
                            dir_opt = (opt_name, v)  # (-d DIR: a downloader's destination when a URL is named too)
                        if opt_name in SERVE_OPTION_WORDS:
                            f.served = f.served or v
                    if not config and not (valued and v.startswith(_BINARY_DIRS) and not output):
                        f.system = f.system or _named(v, ctx, bare)  # (--pdf-engine=/usr/bin/xelatex: a program)
                elif inner and operand and k < net_at and _local_file(v, cls):
                    f.sent = f.sent or v
                if cls == P.HOME and valued and v is not a and opt_name in SERVE_OPTION_WORDS:
                    f.served = f.served or v
            if long_path:
                continue
            if inner and f.net is None and maybe_destination(v):
                f.net = network_destination(v)
                if f.net is not None:
                    net_at = k
            if f.listen is None and _maybe_listen(v) and listening(v):
                f.listen = v
            elif inner and f.sent is None and valued and (v is not a or not is_opt) and opt_name in _INPUT_OPTIONS and (
                    cls in (P.WORKSPACE, P.OTHER) or cls is None) and _local_file(v, cls):
                f.sent = v  # (ffmpeg -i ./demo.mp4 … udp://HOST, -T build.tgz HOST:443: what it sends)
            elif inner and f.sent is None and cls is None and operand and k < net_at and _local_file(v, None):
                f.sent = v  # (wput build.tgz ftp://…, sometool Makefile URL: a file named in the working directory)
        prev, prev_opt = a, (a if is_opt and "=" not in a else None)
    if not inner and f.secret is not None:
        f.net = destination_with_port([a for a in args if a and maybe_destination(a)][:MAX_ARGS])
    if dir_opt is not None and f.output is None and f.net is not None and f.net.split("://", 1)[0] in (
            "http", "https", "ftp", "ftps", "sftp", "s3", "gs"):
        f.output = dir_opt
    return f

