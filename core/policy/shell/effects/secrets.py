"""Secrets: files whose contents are secrets read into the agent's context (``read_secret_check``), secret data
flowing through a pipeline or into a network sender (``secret_flow``, ``sends_secret``), programs that print a
secret (:func:`secret_printed`, table SECRET_PRINTERS). :class:`SecretEffects` is a mixin of
:class:`core.policy.shell.walker.ShellReader`: handlers call ``r.read_secret_check(prog, files, ctx, acc)``.

To add a rule: a secret file or directory goes into ``core/policy/tables/paths.py``; a program that sends data
into NETWORK_SENDERS or UPLOADERS, one that prints a secret into SECRET_PRINTERS (``tables/network.py``); a
cloud operation that returns a secret into :data:`CLOUD_SECRET_OPS`.
"""

from __future__ import annotations

import re

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.common import show
from core.policy.shell.state import MARK, SECRET, Acc, Ctx, FileInput, Flow
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


#: operations whose output is a secret or a credential (reading it brings it into the agent's context)
CLOUD_SECRET_OPS = frozenset(("get-secret-value", "decrypt", "get-login-password", "get-session-token",
                               "get-access-token", "print-access-token", "print-identity-token",
                               "get-authorization-token", "assume-role", "get-federation-token",
                               "get-login", "generate-data-key", "get-credentials"))


#: text that may name a secret file or a secret-reading command (a cheap test before the data flow is followed)
SECRET_HINT = re.compile(r"\.(?:" + "|".join(sorted({re.escape(
    f.split("/", 1)[0] if not f.startswith(".config/") else f)[2:] for f in T.SENSITIVE_HOME_FILES} | {
    re.escape(d[1:]) for d in T.SENSITIVE_HOME_DIRS} | {"env"})) + r")|shadow|sudoers|environ|private|secrets|letsencrypt|pki|wireguard|ssh_host|\.key\b|" + "|".join(sorted({
    re.escape(w) for ws in T.SECRET_PRINTERS.values() for w in ws if len(w) > 4})) + "|secret|with-decryption|" + "|".join(
    sorted(map(re.escape, CLOUD_SECRET_OPS))))


def meta_outputs(metas) -> set:
    """What the substitutions in a command's words printed (SECRET when one printed secrets: ``$(env)``)."""
    return {m[0] for m in metas if m is not None and type(m[0]) is Flow}


def _operand_path(a: str) -> str:
    """The path in an operand: ``@file``, ``name=@file``, ``--opt=file``, ``if=file``."""
    if "=" in a:
        a = a.rsplit("=", 1)[1]
    return a[1:] if a.startswith(("@", "<")) else a


def secret_printed(prog: str, args: list) -> str | None:
    """The secret-printing command of table :data:`SECRET_PRINTERS` that ``args`` run (``vault kv get``,
    ``gpg --export-secret-keys``, ``gh auth token``, ``heroku config``), or None."""
    table = T.SECRET_PRINTERS.get(prog)
    if not table:
        return None
    pos = [a for a in args if not a.startswith("-")]
    shorts = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
    for a in args:
        if a.startswith("--") and a.split("=", 1)[0] in table:
            word = a.split("=", 1)[0]
            break
    else:
        word = " ".join(pos[:2]) if " ".join(pos[:2]) in table else pos[0] if pos and pos[0] in table else None
    if word is not None and (not table[word] or any(ch in shorts for ch in table[word])):
        return word
    return None


def secret_read(prog: str, word: str, acc: Acc):
    """``prog word`` prints a secret (MEDIUM: it comes into the agent's context); returns SECRET, what it prints."""
    acc.add(M, "shell.secret_read", f"{prog} {word} prints a secret into the agent's context")
    return SECRET


#: file-transfer clients whose command string (``-c 'put .env'``) names the files they send; other uploaders'
#: arguments with blanks are prose (``gh issue comment --body "…"``)
_COMMAND_STRING_CLIENTS = frozenset(("smbclient", "lftp", "ftp", "sftp", "tftp", "ncftp", "curlftpfs"))


#: options whose value is prose for people (a title, a message, a body): never a file read or sent
_PROSE_OPTIONS = frozenset(("-m", "--message", "--title", "--body", "--subject", "--description", "--comment",
                            "--notes", "-t", "-b", "--msg"))


class SecretEffects:
    """Secret reads and secret data flows (needs ``pclass`` of :class:`.paths.PathEffects`)."""

    def read_secret_check(self, prog: str, files, ctx: Ctx, acc: Acc) -> None:
        """``prog`` shows the contents of ``files``: a sensitive, .env or secret file among them is a secret
        read (MEDIUM); options (``-x``) are skipped."""
        for f in files:
            if not f or f[0] == "-" and len(f) > 1:
                continue
            cls = self.pclass(f, ctx)
            if cls in (P.SENSITIVE, P.ENV):
                acc.add(M, "shell.secret_read", f"{prog} reads {show(f)} ({P.label(cls)}) into the agent's context")
            elif P.is_secret_read(f) or (MARK not in f and P.is_secret_read(P.normalize(f, ctx.cwd))):
                acc.add(M, "shell.secret_read", f"{prog} reads {show(f)} (secrets) into the agent's context")

    def secret_flow(self, prog, args, metas, stdin, ctx, acc, out):
        """Secret file contents flowing through a command: into a network sender it is HIGH; otherwise
        the command's output carries them on (``base64 ~/.ssh/id_rsa | curl -d @- …``). Returns the command's
        output: ``out``, or SECRET when it now carries a secret."""
        how = None
        if stdin is SECRET or stdin == SECRET:
            how = "piped"
        elif type(stdin) is FileInput and self.is_secret_path(stdin.path, ctx):
            how = "piped"
        else:
            for m in metas:
                if m is not None and m[0] == SECRET:
                    how = "in its arguments"
                    break
            if how is None and prog not in T.SECRET_ECHOERS and args and SECRET_HINT.search("\x01".join(args)):
                for k, a in enumerate(args):
                    if k and args[k - 1] in _PROSE_OPTIONS:
                        continue  # (gh pr comment --body 'uses ~/.ssh/id_rsa': prose, not a file)
                    if SECRET_HINT.search(a) and (" " not in a and self.is_secret_path(_operand_path(a), ctx) or (
                            prog in _COMMAND_STRING_CLIENTS and " " in a and any(  # smbclient -c 'put .env'
                                self.is_secret_path(w, ctx) for w in a.split()[:16]))):
                        how = "read"
                        break
        if how is None:
            return out
        if prog in T.NETWORK_SENDERS and how != "read":
            acc.add(H, "shell.secret_send", f"{prog} sends secret file contents ({how}) over the network")
            return out
        if prog in T.UPLOADERS:
            acc.add(H, "shell.secret_send", f"{prog} uploads (or overwrites) a secret file")
            return out
        if prog in T.NETWORK_SENDERS:
            return out  # operands of senders are their own handler's business (ssh -i ~/.ssh/key)
        return SECRET if out is not None else out

    def is_secret_path(self, f: str, ctx: Ctx) -> bool:
        """Whether ``f`` is a sensitive, .env or secret file (False for a path unknown until run time)."""
        if not f or MARK in f:
            return False
        cls = self.pclass(f, ctx)
        if cls in (P.SENSITIVE, P.ENV) or P.is_secret_read(f) or P.is_secret_read(P.normalize(f, ctx.cwd)):
            return True
        if ctx.links:  # (ln -s /etc/shadow s; cat s)
            q = self.through_links(f, ctx)
            return q is not None and P.is_secret_read(q)
        return False

    def sends_secret(self, prog: str, f: str, ctx: Ctx, acc: Acc) -> None:
        """``prog`` sends the file ``f`` (``@f`` as curl spells it) over the network: HIGH when it is a secret."""
        if f.startswith("@"):
            f = f[1:]
        if not f:
            return
        cls = self.pclass(f, ctx)
        if cls in (P.SENSITIVE, P.ENV) or P.is_secret_read(f):
            acc.add(H, "shell.secret_send", f"{prog} sends a secret file ({show(f)}) over the network")
