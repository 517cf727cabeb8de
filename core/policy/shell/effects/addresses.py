"""Network addresses read as addresses, not by spelling (tiers.md v3.2, "Listeners", "Uploads"):

* :func:`network_destination`: the destination a word names (a URL, an IP, ``HOST:PORT``, ``user@host``,
  ``/dev/tcp/HOST/PORT``, a relay address, ``//host/share``); :func:`host_port_pair` and
  :func:`numeric_ipv4` the forms that need the words around them (``HOST PORT`` in two words, ``3405803783``);
* :func:`listening`: a word that is a listening address on its own (``TCP-LISTEN:…``, ``UDP-RECV:…``, every
  interface in any spelling: ``0.0.0.0``, ``000.0.0.0``, ``::``, ``[::]``, ``::0``, ``0:0:0:0:0:0:0:0``,
  ``:::8000``, ``*:8000``, ``tcp://:2375``); :func:`bind_value` the same for the value of an option that names
  an address to bind (``--host 0``, ``-b :8000``, ``--ip '*'``), where an empty host or ``0`` is every interface;
* :func:`is_loopback`: an address bound to this machine only (``127.0.0.1:8000``, ``socks5://localhost:1080``).
"""

from __future__ import annotations

import re
from functools import lru_cache

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,15}://[^\s/'\"]+")
_IPV4 = re.compile(r"(?<![\w.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\w.]|\.\d)")
#: an IPv6 address (at least three groups, with ``::`` or eight groups), bracketed with a port or bare
_IPV6 = re.compile(r"(?<![\w:])\[?((?:[0-9A-Fa-f]{1,4}:){2,7}:?[0-9A-Fa-f]{0,4}(?:::[0-9A-Fa-f]{1,4})*)\]?(?::\d{1,5})?"
                   r"(?![\w:])")
_HOSTPORT = re.compile(r"(?<![\w.-])(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,24}:\d{1,5}(?!\w)")
_USERHOST = re.compile(r"(?<![\w.-])[A-Za-z0-9._-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,24}(?![\w-])")
_DEVTCP = re.compile(r"/dev/(?:tcp|udp)/([^/\s]+)/(\d+)")
#: relay addresses (socat, ncat --proxy …): a protocol, a colon, a host
_RELAY_CONNECT = re.compile(r"(?i)(?<![\w-])(?:tcp[46]?|udp[46]?|sctp[46]?|openssl|ssl|tcp-connect|udp-connect|"
                            r"tcp4-connect|tcp6-connect|socks4a?|socks5|proxy)(?:-connect)?:([^:,\s]+):(\d+)")
#: relay listeners (socat ``TCP-LISTEN:``, ``UDP-RECV:``, ``UDP-RECVFROM:``, ``IP-RECV:``, ``DCCP-LISTEN:``,
#: ``OPENSSL-LISTEN:``, ``SSL-L:``; websocat ``ws-l:``)
_RELAY_LISTEN = re.compile(r"(?i)(?<![\w-])(?:tcp[46]?|udp[46]?|udplite[46]?|sctp[46]?|dccp[46]?|ip[46]?|openssl|"
                           r"ssl|dtls|unix|abstract|vsock|socket|wss?)-(?:listen|l|recvfrom|recv)(?![\w-])")
_LOOPBACK = ("127.", "localhost", "::1", "[::1]", "0.0.0.0")
#: top-level directories that ``//NAME/…`` names on this machine (POSIX: ``//etc`` is ``/etc``), not a share's host
LOCAL_TOPS = frozenset(("etc", "usr", "bin", "sbin", "lib", "lib32", "lib64", "boot", "proc", "sys", "dev", "root",
                        "var", "tmp", "home", "run"))
#: every IPv4 interface in any zero spelling (0.0.0.0, 000.000.000.000, 0.00.0.0)
_ZERO4 = re.compile(r"0+(?:\.0+){3}")
#: option names (lower case, without dashes) whose value is an address to bind or listen on
BIND_OPTIONS = frozenset(("host", "bind", "bind-addr", "bind-address", "bind-host", "bind-ip", "bind_address",
                          "listen", "listen-addr", "listen-address", "listen-host", "listen-ip", "address", "addr",
                          "ip", "interface", "iface", "http-addr", "http-address", "http-host", "http-listen",
                          "web-addr", "web-listen", "web-host", "b", "laddr", "listen-on", "server-address",
                          "server-host", "server-ip", "server-addr"))
_BIND_SUFFIXES = ("-host", "_host", "-addr", "_addr", "-address", "_address", "-bind", "-listen", ".host", ".address",
                  ".addr", ".bind")


def bind_option(name: str) -> bool:
    """Whether an option (its name in lower case without dashes) names an address to bind: ``--host``,
    ``--bind``, ``-b``, ``--listen-addr``, ``--server.address`` … (not ``--proxy-host``: a client's)."""
    return name in BIND_OPTIONS or (name.endswith(_BIND_SUFFIXES) and not name.startswith(("proxy", "remote",
                                                                                           "upstream", "target")))


def _zero6(host: str) -> bool:
    """An all-zero IPv6 address (``::``, ``::0``, ``0::0``, ``0:0:0:0:0:0:0:0``)."""
    return bool(host) and host.strip("0:") == "" and ":::" not in host and ("::" in host or host.count(":") == 7)


def _every_interface(s: str, loose: bool) -> bool:
    """Whether the address ``s`` (``[SCHEME://]HOST[:PORT][/PATH]``) binds every interface: a zero host in any
    spelling, ``*`` with a port, an empty host with a port after a scheme (``tcp://:2375``); with ``loose``
    (the value of a bind option) also ``0``, ``*`` and an empty host (``:8000``, ``0:8000``)."""
    scheme = "://" in s
    if scheme:
        s = s.split("://", 1)[1]
    if s[:1] != "[" and "/" in s:
        s = s.split("/", 1)[0]
    if "@" in s:
        s = s.rsplit("@", 1)[1]
    if s[:1] == "[":
        end = s.find("]")
        if end < 0:
            return False
        host, rest = s[1:end], s[end + 1:]
        return _zero6(host) and (not rest or (rest[:1] == ":" and rest[1:].isdigit()) or rest[:1] == "/")
    if s.count(":") >= 2:
        if _zero6(s):
            return True
        head, _, port = s.rpartition(":")
        return port.isdigit() and _zero6(head)  # (:::8000)
    host, colon, port = s.partition(":")
    if colon and not port.isdigit():
        return False
    if _ZERO4.fullmatch(host):
        return True
    if host == "*":
        return bool(colon) or loose
    if host == "":
        return bool(colon) and (scheme or loose)
    return host == "0" and (loose or len(port) >= 3)  # (runserver 0:8000; not a time: 0:30)


@lru_cache(maxsize=4096)
def listening(word: str) -> bool:
    """A word that is a listening address on its own: a relay listener (``TCP-LISTEN:8000``, ``UDP-RECV:53``)
    or an address of every interface, as the word, after ``=``, ``@`` or a blank (``--host=0.0.0.0``,
    ``[::]:8000``, ``tcp://0.0.0.0:2375``, ``tcp://:2375``, ``:::8000``)."""
    if _RELAY_LISTEN.search(word) is not None:
        return True
    if len(word) > 256:
        return False
    cut = max(word.rfind("="), word.rfind(" "), word.rfind("\t"))
    s = word[cut + 1:]
    if "@" in s and "://" not in s:
        s = s.rsplit("@", 1)[1]
    return bool(s) and _every_interface(s, False)


@lru_cache(maxsize=2048)
def bind_value(value: str) -> bool:
    """The value of a bind option that binds every interface: ``0``, ``*``, ``:8000``, ``0:8000``, and every
    spelling :func:`listening` knows."""
    if not value or len(value) > 256:
        return False
    return _every_interface(value, True) or listening(value)


def is_loopback(addr: str) -> bool:
    """An address bound to this machine only (``127.0.0.1:8000``, ``localhost``, ``[::1]:80``, ``tcp://127.0.0.1``)."""
    s = addr.split("://", 1)[1] if "://" in addr else addr
    if "@" in s:
        s = s.rsplit("@", 1)[1]
    return s.startswith(("127.", "localhost", "[::1]", "::1"))


@lru_cache(maxsize=4096)
def network_destination(word: str) -> str | None:
    """The network destination a word names (``https://x``, ``203.0.113.7``, ``host.example.net:9001``,
    ``user@host.example.org``, ``/dev/tcp/HOST/PORT``, ``TCP:HOST:PORT``, ``//host/share``), or None; loopback
    and bind-all addresses are not one."""
    m = _DEVTCP.search(word)
    if word.startswith("//") and len(word) > 2 and word[2] not in "/." and word[2:].split("/", 1)[0] not in (
            LOCAL_TOPS):
        dest = word[:60]
    elif m:
        dest = f"{m.group(1)}:{m.group(2)}"
    else:
        m = _RELAY_CONNECT.search(word)
        if m:
            dest = f"{m.group(1)}:{m.group(2)}"
        else:
            m = _URL.search(word) or _HOSTPORT.search(word) or _USERHOST.search(word)
            if m:
                dest = m.group(0)
            elif word.count(":") >= 2 and _IPV6.search(word) and (
                    "::" in _IPV6.search(word).group(1) or _IPV6.search(word).group(1).count(":") >= 6):
                dest = _IPV6.search(word).group(0)
                if dest.strip("[]").startswith(("::1", "fe80")) or dest.strip("[]") in ("::", "") or _zero6(
                        dest.strip("[]")):
                    return None
            else:
                m = _IPV4.search(word)
                if m is None or any(int(x) > 255 for x in m.groups()):
                    return None
                dest = m.group(0)
                tail = word[m.end():m.end() + 6]
                if tail[:1] == ":" and tail[1:2].isdigit():
                    dest += ":" + "".join(ch for ch in tail[1:] if ch.isdigit())
    host = dest.split("://", 1)[-1].split("@")[-1]
    if host.startswith(_LOOPBACK) or host[:1] == ":" or _ZERO4.match(host):
        return None
    return dest[:60]


#: a host name (two labels or more, a top-level domain of letters)
_HOSTNAME = re.compile(r"(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,24}")
#: last parts of file names that are also top-level domains, or look like one (app.py, run.sh, notes.md, a.tgz)
_FILE_SUFFIXES = frozenset((
    "py", "sh", "md", "rs", "pl", "js", "ts", "go", "rb", "so", "am", "in", "ac", "mk", "cc", "hh", "cs", "fs", "kt",
    "ml", "hs", "lua", "php", "txt", "log", "json", "yaml", "yml", "toml", "ini", "cfg", "conf", "csv", "tsv", "xml",
    "html", "htm", "css", "scss", "lock", "tgz", "gz", "zip", "tar", "bz2", "xz", "zst", "sql", "db", "bin", "img",
    "iso", "pdf", "png", "jpg", "jpeg", "gif", "svg", "mp4", "mp3", "wav", "key", "pem", "crt", "csr", "env", "bak",
    "dump", "out", "exe", "dll", "jar", "war", "whl", "deb", "rpm", "apk", "dmg", "pkg", "patch", "diff", "java",
    "swift", "tf", "hcl", "proto", "vue", "jsx", "tsx", "mjs", "cjs", "dart", "ex", "exs", "erl", "clj", "scala",
    "groovy", "gradle", "asm", "zig", "nim", "jl", "ipynb", "rst", "tex", "doc", "docx", "xls", "xlsx", "ppt",
    "pptx", "odt", "service", "socket", "timer", "desktop", "plist", "lst", "list", "md5", "sha256", "sig", "asc",
    "gpg", "cache", "tmp", "old", "orig", "new", "config", "local", "example", "sample", "test", "spec", "map",
))


def host_name(word: str) -> bool:
    """A word that names a host (``files.example.net``), not a file (``build.tgz``, ``app.py``)."""
    return (len(word) < 254 and _HOSTNAME.fullmatch(word) is not None
            and word.rsplit(".", 1)[-1].lower() not in _FILE_SUFFIXES)


def port_word(word: str) -> bool:
    return word.isdigit() and 0 < int(word) < 65536 and len(word) <= 5


def host_port_pair(words: list, k: int) -> str | None:
    """A host name and a port as two words (``nc files.example.net 9001``): ``HOST:PORT`` when ``words[k]`` is
    a host name (or a numeric IPv4) and the next word a port, else None."""
    if k + 1 < len(words) and port_word(words[k + 1]) and (host_name(words[k]) or numeric_ipv4(words[k])):
        return f"{words[k]}:{words[k + 1]}"
    return None


def numeric_ipv4(word: str) -> bool:
    """An IPv4 address written as one number (``3405803783``, ``0xcb007107``), as resolvers accept it; only
    numbers from 1.0.0.0 up count (smaller ones are counts and sizes)."""
    if word[:2] in ("0x", "0X") and 7 <= len(word) - 2 <= 8:
        try:
            n = int(word, 16)
        except ValueError:
            return False
    elif word.isdigit() and 8 <= len(word) <= 10 and word[0] != "0":
        n = int(word)
    else:
        return False
    # (a host's address: not 127.*, nor ending in .0 or .255 as round numbers do: 1073741824, 1700000000)
    return 1 << 24 <= n < 1 << 32 and n >> 24 != 127 and 0 < n & 255 < 255


def destination_with_port(words: list) -> str | None:
    """The first network destination among ``words``, with the port that follows it (``nc HOST PORT``), a host
    name followed by a port (``nc files.example.net 9001``)."""
    for k, x in enumerate(words):
        d = network_destination(x)
        if d is not None:
            if ":" not in d and k + 1 < len(words) and words[k + 1].isdigit():
                d += ":" + words[k + 1]
            return d
        if x[:1] != "-":
            d = host_port_pair(words, k)
            if d is not None:
                return d
    return None


def maybe_destination(v: str) -> bool:
    """Cheap test before :func:`network_destination`: a colon, an at sign or a dotted quad."""
    return ":" in v or "@" in v or v.count(".") >= 3 or v[:2] == "//"
