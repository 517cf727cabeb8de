"""The network: HTTP clients (``curl``, ``wget``, httpie, ``GET URL``), ``ssh`` (its command and the commands in
its options), ``scp``/``rsync``, ``nc``/``socat``, downloaders, ``ssh-keygen``. What they send (secrets above
all), what they download (code run later) and where they write.

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_network.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.common import show
from core.policy.shell.effects.arguments import argument_facts
from core.policy.shell.effects.decide import fetched
from core.policy.shell.families import handlers
from core.policy.shell.options import first_value, getopts
from core.policy.shell.state import DOWNLOAD, MARK, OTHER, FileInput, TextInput
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


def _secret_var_in_url(prog, args, metas, o, acc) -> None:
    """A variable with a secret name (``$AWS_SECRET_ACCESS_KEY``) in a URL operand sends its value to the server,
    as ``curl -d "$SECRET"`` does: MEDIUM (sends data). Headers (``-H "Authorization: Bearer $TOKEN"``) are not
    URLs and stay as they are."""
    if not o.pos or len(metas) != len(args):
        return
    pos = set(o.pos)
    headers = set(o.vals.get("H", ()))
    h = o.longs.get("--header")
    if isinstance(h, str):
        headers.add(h)
    data = {v for ch in "dF" for v in o.vals.get(ch, ())} | {
        v for nm in ("--data", "--data-raw", "--data-binary", "--data-urlencode", "--json", "--form", "--post-data",
                     "--body-data") if isinstance(v := o.longs.get(nm), str)}
    for a, m in zip(args, metas, strict=True):
        if m is not None and m[1] and (a in pos or a in data):
            acc.add(H, "shell.secret_send", f"{prog} sends the value of a secret variable "
                                            f"{'in the URL' if a in pos else 'as data'}")
            return
        if m is not None and m[1] and a in headers:
            name = a.split(":", 1)[0].lower()
            if not any(w in name for w in T.AUTH_HEADER_WORDS):
                acc.add(H, "shell.secret_send", f"{prog} sends the value of a secret variable in the header "
                                                f"{show(a.split(':', 1)[0])}")
                return


def h_curl(r, prog, args, metas, ctx, acc, stdin):
    """``curl``: sending data MEDIUM (a secret file or variable: HIGH), DELETE HIGH, a download to a file marks it as
    downloaded code; prints the response (DOWNLOAD) otherwise."""
    o = getopts(args, T.CURL_OPTS_WITH_ARG, T.CURL_LONG_WITH_ARG)
    _secret_var_in_url(prog, args, metas, o, acc)
    method = (first_value(o, "X", "--request") or "").upper()
    sends = False
    for ch in ("d", "F", "T"):
        for v in o.vals.get(ch, ()):
            sends = True
            r.sends_secret(prog, v.split("=", 1)[-1] if ch == "F" else v, ctx, acc)
    for nm in T.CURL_SEND_OPTS:
        v = o.longs.get(nm)
        if v is not None:
            sends = True
            if isinstance(v, str):
                r.sends_secret(prog, v.split("=", 1)[-1] if nm in ("--form", "--form-string") else v, ctx, acc)
    if method == "DELETE":
        acc.add(H, "shell.http.delete", "HTTP DELETE request")
    elif method in ("POST", "PUT", "PATCH") or sends:
        acc.add(M, "shell.http.send", f"HTTP {method or 'POST'} request (sends data)")
    out_file = first_value(o, "o", "--output")
    out_dir = o.longs.get("--output-dir") if isinstance(o.longs.get("--output-dir"), str) else None
    if out_file and out_file != "-":
        if out_dir and not out_file.startswith(("/", "~")):
            out_file = f"{out_dir.rstrip('/')}/{out_file}"
        r.write_path(out_file, ctx, acc, "download to")
        ctx.downloaded.add(P.normalize(out_file, ctx.cwd))
        return OTHER
    if "O" in o.flags or "--remote-name" in o.longs or "--remote-name-all" in o.longs:
        for u in o.pos:
            name = u.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            if name:
                ctx.downloaded.add(P.normalize(f"{out_dir.rstrip('/')}/{name}" if out_dir else name, ctx.cwd))
        if out_dir:
            r.write_path(out_dir.rstrip("/") + "/x", ctx, acc, "download into")
        acc.add(L, "shell.http.download", "download to a file")
        return OTHER
    acc.add(S, "shell.http.get", "HTTP request printed to the terminal")
    return DOWNLOAD


def h_wget(r, prog, args, metas, ctx, acc, stdin):
    """``wget``: like curl's reading (``--post-file``, ``--method``, ``-O FILE``, ``-P DIR``)."""
    o = getopts(args, T.WGET_OPTS_WITH_ARG, T.WGET_LONG_WITH_ARG)
    _secret_var_in_url(prog, args, metas, o, acc)
    method = (o.long("--method") or "").upper()
    for nm in ("--post-file", "--body-file"):
        v = o.long(nm)
        if isinstance(v, str):
            r.sends_secret(prog, v, ctx, acc)
    if method == "DELETE":
        acc.add(H, "shell.http.delete", "HTTP DELETE request")
    elif method in ("POST", "PUT", "PATCH") or o.any("--post-data", "--post-file", "--body-data", "--body-file"):
        acc.add(M, "shell.http.send", "HTTP request that sends data")
    out = first_value(o, "O", "--output-document")
    if out == "-":
        acc.add(S, "shell.http.get", "HTTP request printed to the terminal")
        return DOWNLOAD
    if out:
        r.write_path(out, ctx, acc, "download to")
        ctx.downloaded.add(P.normalize(out, ctx.cwd))
    else:
        prefix = first_value(o, "P", "--directory-prefix")
        for u in o.pos:
            name = u.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            if name:
                ctx.downloaded.add(P.normalize(f"{prefix.rstrip('/')}/{name}" if prefix else name, ctx.cwd))
        if prefix:
            r.write_path(prefix.rstrip("/") + "/x", ctx, acc, "download into")
        acc.add(L, "shell.http.download", "download to a file")
    return OTHER


def h_http_method(r, prog, args, metas, ctx, acc, stdin):
    """``GET URL``, ``DELETE URL`` …: an HTTP request by its method (table HTTP_METHOD_TIERS)."""
    url = args[0] if args else ""
    t = T.HTTP_METHOD_TIERS.get(prog, M)
    acc.add(t, f"http.{prog.lower()}", f"HTTP {prog} request to {show(url)}")
    return DOWNLOAD


def h_httpie(r, prog, args, metas, ctx, acc, stdin):
    """httpie/xh (``http [METHOD] URL ITEM…``): the method given, or POST when data items are given."""
    pos = [a for a in args if not a.startswith("-")]
    method = pos[0].upper() if pos and pos[0].upper() in T.HTTP_METHODS else None
    if method is None:
        items = pos[1:]
        method = "POST" if any("=" in x or ":=" in x or "@" in x for x in items) else "GET"
    t = T.HTTP_METHOD_TIERS.get(method, M)
    acc.add(t, f"shell.http.{method.lower()}", f"HTTP {method} request")
    return DOWNLOAD


def _is_remote(a: str) -> bool:
    if a.startswith(("/", ".", "~")) or MARK in a.split(":", 1)[0]:
        return False
    if "://" in a:
        return True
    head = a.split(":", 1)
    return len(head) == 2 and "/" not in head[0] and head[0] != ""


def _ssh_option_commands(r, prog, values, ctx, acc):
    """``-o ProxyCommand=…`` (and LocalCommand, KnownHostsCommand, RemoteCommand): commands ssh runs."""
    for v in values:
        key, _, cmd = v.replace("=", " ", 1).partition(" ")
        if key.lower() in T.SSH_COMMAND_OPTIONS and cmd.strip():
            acc.add(M, "shell.ssh.command_option", f"{prog} -o {key} runs a command")
            c = ctx.child()
            if key.lower() == "remotecommand":
                c.cwd = c.ws = c.user = None
            r.run_text(cmd.strip(), c, acc)


def h_ssh(r, prog, args, metas, ctx, acc, stdin):
    """``ssh HOST [CMD]``: MEDIUM, the remote command (or a heredoc fed to it) read with no directory of ours, and the
    commands in ``-o ProxyCommand=…`` options."""
    o = getopts(args, T.SSH_OPTS_WITH_ARG, stop_at_pos=True)
    _ssh_option_commands(r, prog, o.vals.get("o", ()), ctx, acc)
    if not o.pos:
        acc.add(L, "shell.ssh", f"{prog} without a host")
        return OTHER
    host = o.pos[0]
    acc.add(M, "shell.ssh", f"ssh to {host.replace(MARK, '$…')}")
    cmd = o.pos[1:]
    # as OpenSSH does, options may follow the host (`ssh host -l root cmd`) and `--` ends them
    # (`ssh host -- rm -rf /`); unless `--` came before the host
    terminated = "--" in args[:len(args) - len(o.pos)]
    rounds = 0
    while cmd and not terminated and cmd[0].startswith("-") and rounds < 8:
        rounds += 1
        if cmd[0] == "--":
            cmd = cmd[1:]
            break
        o2 = getopts(cmd, T.SSH_OPTS_WITH_ARG, stop_at_pos=True)
        _ssh_option_commands(r, prog, o2.vals.get("o", ()), ctx, acc)
        consumed = cmd[:len(cmd) - len(o2.pos)]
        cmd = o2.pos
        if "--" in consumed:
            break
    if cmd:
        c = ctx.child()
        c.cwd = None
        c.ws = None
        c.user = None
        r.run_text(" ".join(cmd), c, acc)
    elif type(stdin) is TextInput:
        c = ctx.child()
        c.cwd = c.ws = None
        r.run_text(stdin.text, c, acc)
    return OTHER


def h_scp(r, prog, args, metas, ctx, acc, stdin):
    """``scp``/``rsync SRC… DEST``: to or from a remote host MEDIUM (a secret file sent: HIGH), the destination
    written, ``rsync --delete`` a delete in the destination, ``-e CMD`` read as the remote shell."""
    o = getopts(args, T.SCP_OPTS_WITH_ARG if prog == "scp" else T.RSYNC_OPTS_WITH_ARG,
                frozenset(("--exclude", "--include", "--rsh", "--filter", "--files-from", "--exclude-from",
                           "--chmod", "--chown", "--log-file", "--backup-dir", "--suffix", "--rsync-path")))
    _ssh_option_commands(r, prog, o.vals.get("o", ()), ctx, acc)
    rsh = first_value(o, "e", "--rsh") if prog == "rsync" else first_value(o, "S")
    if rsh:
        # the remote shell program rsync/scp starts (`rsync -e 'ssh -o ProxyCommand=…'`)
        r.run_text(rsh + " host", ctx.child(), acc)
    if prog == "rsync" and ("n" in o.flags or "--dry-run" in o.longs):
        acc.add(L, "shell.rsync.dry_run", "rsync -n (dry run)")
        return OTHER
    if len(o.pos) < 2:
        acc.add(L, f"shell.{prog}", prog)
        return OTHER
    srcs, dest = o.pos[:-1], o.pos[-1]
    remote_any = _is_remote(dest) or any(_is_remote(s) for s in srcs)
    if _is_remote(dest):
        acc.add(M, f"shell.{prog}.remote", f"{prog} to a remote host")
        for s in srcs:
            if not _is_remote(s):
                r.sends_secret(prog, s, ctx, acc)
    else:
        if remote_any:
            acc.add(M, f"shell.{prog}.remote", f"{prog} from a remote host")
            fetched([x for x in srcs if _is_remote(x)], dest, ctx)
        r.write_path(dest, ctx, acc, f"{prog} into")
        if prog == "rsync" and any(k.startswith("--delete") for k in o.longs):
            cls = r.pclass(dest, ctx)
            if cls in (P.SYSROOT, P.ROOT, P.HOME):
                # everything in it that the source lacks is deleted: a recursive delete of the directory
                acc.add(C, "shell.rsync.delete", f"rsync --delete in {show(dest)} ({P.label(cls)})")
            elif cls == P.SYSTEM:
                acc.add(H, "shell.rsync.delete", f"rsync --delete in {show(dest)} ({P.label(cls)})")
            else:
                acc.add(L, "shell.rsync.delete", "rsync --delete")
    return OTHER


#: netcat letters that take a value in every netcat (the rest of a bundle after one is its value: -lvnp9001)
_NC_VALUE_LETTERS = frozenset("pswixXqoOgGImMTV")
#: long options of netcats that run a program for the connection (ncat --sh-exec, --lua-exec)
_NC_EXEC = ("--exec", "--sh-exec", "--lua-exec", "-e", "-c")
#: socat address types that run a program (``EXEC:``, ``SYSTEM:``, socat 1.8 ``SHELL:``)
_SOCAT_RUNS = ("exec", "system", "shell")


def _netcat_flags(args: list, socat: bool) -> tuple[bool, bool]:
    """(runs a program, listens) as a netcat reads its options: short bundles letter by letter up to a letter
    that takes a value (``-lvnp9001``, ``-vlp 4444``, ``-e/bin/sh``), long options in both spellings
    (``--exec=/bin/sh``, ``--listen``, ncat's ``--broker``/``--chat``), and socat's addresses (``SHELL:bash``;
    its own short options are logging and timing: ``-lf FILE``, ``-d -d``)."""
    runs = listen = False
    for a in args:
        if a[:2] == "--":
            name = a.split("=", 1)[0]
            runs = runs or name in _NC_EXEC
            listen = listen or name in ("--listen", "--broker", "--chat")
        elif a[:1] == "-" and len(a) > 1 and not socat:
            for ch in a[1:]:
                if ch == "l":
                    listen = True
                elif ch in "ec":
                    runs = True
                    break
                elif ch in _NC_VALUE_LETTERS or not (ch.isalpha() or ch in "46"):
                    break
        elif ":" in a:
            for part in a.split("!!"):
                if part.split(":", 1)[0].split(",", 1)[0].lower() in _SOCAT_RUNS:
                    runs = True
    return runs, listen


def h_netcat(r, prog, args, metas, ctx, acc, stdin):
    """nc, ncat, socat: a program run for the network (``-e``/``-c``/``--sh-exec``/``--lua-exec``,
    ``EXEC:``/``SYSTEM:``/``SHELL:``) is a remote shell (HIGH); listening (``-l``, ``--listen``,
    ``TCP-LISTEN:``, ``UDP-RECV:``) is MEDIUM; a file fed to it with a destination named is an upload (MEDIUM);
    a secret file among the addresses (``socat FILE:/etc/shadow TCP:…``) is read and, with a destination, sent
    (HIGH). What it prints came from the network (a download: ``nc HOST PORT > x.sh; sh x.sh`` runs it)."""
    facts = argument_facts(r, args, ctx)
    where = f"to {facts.net}" if facts.net else "for whoever connects"
    runs, listen = _netcat_flags(args, prog == "socat")
    listen = listen or facts.listen is not None
    if runs:
        acc.add(H, "shell.netcat.exec", f"starts a remote shell {where} ({prog} runs a program for the connection)")
    elif listen:
        acc.add(M, "shell.netcat.listen", f"{prog} listens on the network")
    else:
        acc.add(L, "shell.program", prog)
    if facts.secret is not None:
        if facts.net is not None:
            acc.add(H, "args.secret_send", f"{prog} sends {show(facts.secret)} (secret) to {facts.net}")
        else:
            acc.add(M, "args.secret_read", f"{prog} reads {show(facts.secret)} (secret)")
    if type(stdin) is FileInput and (facts.net is not None or listen) and stdin.path not in ("/dev/null", "-"):
        acc.add(M, "args.upload", f"{prog} sends {show(stdin.path)} {where}")
    elif stdin is OTHER and (facts.net is not None or listen):  # (tar c . | nc HOST PORT)
        acc.add(M, "args.upload", f"{prog} sends what it is fed (another command's output) {where}")
    return DOWNLOAD


def h_downloader(r, prog, args, metas, ctx, acc, stdin):
    """aria2c, axel, … (table DOWNLOADERS): the file they write is downloaded code if run later."""
    opts = T.DOWNLOADERS[prog]
    for k, a in enumerate(args):
        name = None
        if a in opts and k + 1 < len(args):
            name = args[k + 1]
        elif a.startswith("--") and "=" in a and a.split("=", 1)[0] in opts:
            name = a.split("=", 1)[1]
        if name and len(ctx.downloaded) < 64:
            ctx.downloaded.add(P.normalize(name, ctx.cwd))
    for u in args:
        if "://" in u and len(ctx.downloaded) < 64:
            name = u.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            if name:
                ctx.downloaded.add(P.normalize(name, ctx.cwd))
    pos = [a for a in args if a[:1] != "-" and "://" not in a]
    if opts == () and pos:  # (lwp-download URL FILE: the operand after the URL is the file written)
        r.write_path(pos[-1], ctx, acc, f"{prog} downloads into")
        if len(ctx.downloaded) < 64:
            ctx.downloaded.add(P.normalize(pos[-1], ctx.cwd))
    acc.add(L, "shell.http.download", f"{prog} downloads to a file")
    return OTHER


def h_ssh_keygen(r, prog, args, metas, ctx, acc, stdin):
    """``ssh-keygen``: reading keys SAFE, writing them a write of the key files."""
    o = getopts(args, frozenset("fbtCNnOVZaEIzmrwDGPRYSs"))
    f = first_value(o, "f")
    if o.flags & {"l", "y", "F", "L"} and not o.flags & {"R"}:
        acc.add(S, "shell.read_only", "ssh-keygen (reads)")
        if f and o.flags & {"y"} and not f.endswith(".pub"):
            r.read_secret_check("ssh-keygen -y", [f], ctx, acc)  # (it reads the private key to print its public one)
        return OTHER
    if f:
        r.write_path(f, ctx, acc, "write key")
        r.write_path(f + ".pub", ctx, acc, "write key")
    else:
        acc.add(L, "shell.ssh_keygen", "ssh-keygen writes a key")
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
HANDLERS = handlers(
    (("curl",), h_curl),
    (("wget",), h_wget),
    (("http", "https", "xh", "xhs", "httpie"), h_httpie),  # (and GET URL, DELETE URL …: dispatch)
    (("ssh",), h_ssh),
    (("scp", "rsync"), h_scp),
    (("nc", "ncat", "netcat", "socat", "pwncat", "pwncat-cs", "pwncat-vl"), h_netcat),
    (T.DOWNLOADERS, h_downloader),
    (("ssh-keygen",), h_ssh_keygen),
)
