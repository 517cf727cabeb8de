"""Infrastructure: infrastructure as code (``terraform``, ``pulumi``, ``cdk``), configuration management and remote
execution (``ansible``, ``salt``, ``pdsh`` …), cloud CLIs (``aws``, ``gcloud``, ``az`` …), deploy tools, storage
tools' deletes.

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_infra.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

from core.policy import tables as T
from core.policy.shell.common import is_secret_name, prod_in, show
from core.policy.shell.effects.publish import publish_command
from core.policy.shell.effects.secrets import CLOUD_SECRET_OPS, secret_printed, secret_read
from core.policy.shell.families import handlers
from core.policy.shell.options import first_value, getopts
from core.policy.shell.state import OTHER, SECRET
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


def h_terraform(r, prog, args, metas, ctx, acc, stdin):
    """``terraform``/``tofu``/``terragrunt``: ``destroy`` (and ``apply -destroy``) CRITICAL, ``apply`` HIGH,
    ``plan`` LOW, other subcommands by table TERRAFORM_TIERS."""
    pos = [a for a in args if not a.startswith("-")]
    sub = pos[0] if pos else ""
    if prog == "terragrunt" and sub in ("run-all", "run") and len(pos) > 1:
        sub = pos[1]
    if sub == "apply" and any(a in ("-destroy", "--destroy") for a in args):
        acc.add(C, "shell.terraform.destroy", f"{prog} apply -destroy (destroys infrastructure)")
        return OTHER
    if sub == "destroy":
        acc.add(C, "shell.terraform.destroy", f"{prog} destroy (destroys infrastructure)")
        return OTHER
    if sub == "plan":
        acc.add(L, "shell.terraform.plan", f"{prog} plan (dry run)")
        return OTHER
    if not sub and any(a in ("-version", "--version", "-help", "--help") for a in args):
        acc.add(S, "shell.help", f"{prog} version")
        return OTHER
    t = T.TERRAFORM_TIERS.get(sub, M)
    acc.add(t, f"shell.terraform.{sub}"[:40], f"{prog} {sub}" + (" (changes infrastructure)" if t == H else ""))
    return OTHER


def h_iac(r, prog, args, metas, ctx, acc, stdin):
    """``pulumi``, ``cdk``: ``destroy`` CRITICAL, ``up``/``deploy`` HIGH, previews LOW."""
    pos = [a for a in args if not a.startswith("-")]
    sub = pos[0] if pos else ""
    if sub == "destroy":
        acc.add(C, "shell.iac.destroy", f"{prog} destroy (destroys infrastructure)")
    elif sub in ("up", "deploy", "update"):
        acc.add(H, "shell.iac.apply", f"{prog} {sub} (changes infrastructure)")
    elif sub in ("preview", "diff", "synth", "plan", "ls", "list", "stack"):
        acc.add(L, "shell.iac.preview", f"{prog} {sub}")
    else:
        acc.add(L, "shell.program", f"{prog} {sub}".strip())
    return OTHER


def h_ansible_playbook(r, prog, args, metas, ctx, acc, stdin):
    """``ansible-playbook``/``ansible-pull``: HIGH (changes hosts); ``--check`` LOW, listings SAFE."""
    if any(a in ("--check", "-C") for a in args):
        acc.add(L, "shell.ansible.check", f"{prog} --check (dry run)")
    elif any(a in ("--syntax-check", "--list-hosts", "--list-tasks", "--list-tags") for a in args):
        acc.add(S, "shell.ansible.list", f"{prog} (lists only)")
    else:
        acc.add(H, "shell.ansible.playbook", f"{prog} (runs a playbook that changes hosts)")
    return OTHER


def h_ansible(r, prog, args, metas, ctx, acc, stdin):
    """Ad-hoc ``ansible HOSTS -m MODULE -a ARGS``: MEDIUM; the shell modules' command is read as a command."""
    o = getopts(args, frozenset("imauefltcMkKTBP"), frozenset(("--inventory", "--module-name", "--args", "--user",
                                                                 "--extra-vars", "--forks", "--limit", "--timeout",
                                                                 "--connection", "--become-user",
                                                                 "--become-method", "--module-path")))
    acc.add(M, "shell.ansible.adhoc", "ad-hoc ansible command on remote hosts")
    module = first_value(o, "m", "--module-name") or "command"
    script = first_value(o, "a", "--args")
    if script and module.rsplit(".", 1)[-1] in ("command", "shell", "raw", "win_shell", "win_command"):
        c = ctx.child()
        c.cwd = None
        c.ws = None
        r.run_text(script, c, acc)
    return OTHER


def h_salt(r, prog, args, metas, ctx, acc, stdin):
    """``salt TARGET FUNCTION ARGS``: remote execution like ad-hoc ``ansible`` (MEDIUM); ``cmd.run`` and the like
    run their arguments as a shell command (its tier counts), state functions apply states like
    ``ansible-playbook`` (HIGH)."""
    o = getopts(args, frozenset("tbcsldi"), T.SALT_OPTS_WITH_ARG - {"-t", "-b", "-c", "-s", "-l", "-d", "-i"})
    pos = o.pos
    func = pos[1] if len(pos) > 1 else ""
    acc.add(M, "shell.salt", f"{prog} runs {func or 'a function'} on remote hosts")
    if func in T.SALT_STATE_FUNCS:
        acc.add(H, "shell.salt.state", f"{prog} {func} (applies states that change hosts)")
    elif func in T.SALT_SHELL_FUNCS:
        _remote_command(r, [a for a in pos[2:] if "=" not in a or " " in a][:1] or pos[2:3], ctx, acc, stdin)
    return OTHER


def _remote_command(r, cmd: list, ctx, acc, stdin) -> None:
    """A command run on other hosts, read as shell (its words joined as the remote shell joins them), with no
    working directory or workspace of ours."""
    if not cmd:
        return
    c = ctx.child(deeper=True)
    c.cwd = c.ws = None
    r.run_text(" ".join(cmd), c, acc)


def h_remote_runner(r, prog, args, metas, ctx, acc, stdin):
    """Programs that run one command on other hosts, like ``ssh host CMD`` (table :data:`REMOTE_RUNNERS`):
    ``pdsh -w hosts CMD``, ``pssh -h hosts CMD``, ``mosh host -- CMD``: MEDIUM and the command's tier."""
    with_arg, skip = T.REMOTE_RUNNERS[prog]
    pos: list = []
    i, n = 0, len(args)
    while i < n:
        a = args[i]
        if a == "--":
            pos.extend(args[i + 1:])
            break
        if a.startswith("-") and len(a) > 1 and (not pos or len(pos) < skip):  # (options before the command)
            if a in with_arg:
                i += 1
        else:
            pos.append(a)
            if len(pos) > skip:
                pos.extend(args[i + 1:])
                break
        i += 1
    cmd = pos[skip:]
    if prog != "mosh" and not cmd:
        acc.add(M, "shell.remote", f"{prog}: a remote login to {pos[0] if pos else 'a remote host'}")
        return OTHER
    if prog == "mosh" and not cmd:
        acc.add(M, "shell.remote", f"{prog}: interactive session on {pos[0] if pos else 'a remote host'}")
        return OTHER
    acc.add(M, "shell.remote", f"{prog} runs a command on remote hosts")
    _remote_command(r, cmd, ctx, acc, stdin)
    return OTHER


#: options of cloud CLIs before their command words that take a value (``aws --profile prod …``); aws's own
#: options all take one but these (``aws --debug …``)
_CLOUD_VALUE_OPTS = frozenset(("--project", "--account", "--configuration", "--format", "--zone", "--region",
                               "--verbosity", "--impersonate-service-account", "--billing-project", "--flags-file",
                               "--subscription", "--resource-group", "-g", "--output", "-o", "--query",
                               "--context", "--profile", "--config", "--api-url", "--endpoint"))


_AWS_FLAGS = frozenset(("--debug", "--no-verify-ssl", "--no-paginate", "--no-cli-pager", "--cli-auto-prompt",
                        "--no-cli-auto-prompt", "--no-sign-request"))


#: first words of the operation of a cloud CLI call (``describe-instances``, ``add-iam-policy-binding``):
#: the command words end there, the words after it name resources
_CLOUD_OPS = frozenset("""describe list get show ls create delete update set add remove deploy start stop restart
run ssh scp patch apply import export enable disable attach detach put rm rb cp mv sync destroy terminate access
login logout reset resize move rename grant revoke invoke call exec connect tail read write upload download print
decrypt encrypt assume modify replace purge deregister register tag untag wait""".split())


def _cloud_command(prog: str, args: list[str]) -> list[str]:
    """The command words of a cloud CLI call: ``aws [options] SERVICE OPERATION``; for the others the words
    before the first option, up to the operation (``gcloud compute instances delete``). Values of options
    (``--role-name describe-lambda``) and resource names after the operation are never command words."""
    words: list[str] = []
    n = len(args)
    i = 0
    while i < n and len(words) < (2 if prog == "aws" else 5):
        a = args[i]
        if a.startswith("-"):
            if prog == "aws":
                if "=" not in a and a not in _AWS_FLAGS:
                    i += 1  # (its value)
            elif words:
                break
            elif "=" not in a and a in _CLOUD_VALUE_OPTS:
                i += 1
        else:
            words.append(a)
            if prog != "aws" and a.lower().split("-", 1)[0] in _CLOUD_OPS:
                break
        i += 1
    return words


def h_cloud(r, prog, args, metas, ctx, acc, stdin):
    """Cloud CLIs (aws, gcloud, az, doctl …), read by their command words (:func:`_cloud_command`): deletes
    HIGH, secrets and credentials read MEDIUM (the output carries the secret on), reads SAFE, deploys, access
    and network changes HIGH or MEDIUM, anything else MEDIUM."""
    cmd = _cloud_command(prog, args)
    verbs = " ".join(cmd).lower()
    words = set(verbs.replace("-", " ").split())
    if prog == "aws" and cmd[:1] == ["s3"]:
        v = cmd[1] if len(cmd) > 1 else ""
        if v == "rb" or (v == "rm" and "--recursive" in args):
            acc.add(H, "shell.cloud.delete", f"aws s3 {v} (deletes a bucket or many objects)")
        elif v == "rm":
            acc.add(M, "shell.cloud.delete", "aws s3 rm")
        elif v in ("ls", "presign"):
            acc.add(S, "shell.cloud.read", "aws s3 ls")
        elif v in ("sync", "cp", "mv") and "--delete" in args:
            acc.add(H, "shell.cloud.delete", f"aws s3 {v} --delete")
        else:
            acc.add(L, "shell.cloud", f"aws s3 {v}")
            if v in ("sync", "cp", "mv"):
                _bucket_copy(r, f"aws s3 {v}", args[args.index(v) + 1:] if v in args else [], ctx, acc)
        return OTHER
    op = cmd[-1].lower() if cmd else ""
    if prog == "aws" and cmd[:2] == ["configure", "get"] and any(is_secret_name(a.upper()) for a in args[2:]):
        acc.add(M, "shell.secret_read", "aws configure get prints a credential into the agent's context")
        return SECRET
    if words & {"delete", "destroy", "terminate", "remove", "rm", "rb", "purge", "deregister", "revoke", "wipe"}:
        acc.add(H, "shell.cloud.delete", f"{prog} {verbs} (deletes cloud resources)")
    elif (op in CLOUD_SECRET_OPS or {"secrets", "access"} <= words or ("secret" in words and words & {
            "get", "show", "download"}) or (op.startswith("get-parameter") and "--with-decryption" in args)):
        acc.add(M, "shell.secret_read", f"{prog} {verbs} reads a secret into the agent's context")
        return SECRET
    elif op.split("-", 1)[0] in ("describe", "list", "get", "show", "ls", "tail") or {c.lower() for c in cmd} & {
            "whoami", "version", "help", "info"}:
        acc.add(S, "shell.cloud.read", f"{prog} {verbs} (reads)")
    elif words & {"deploy", "release", "publish"}:
        acc.add(H if prod_in(args) else M, "shell.deploy", f"{prog} {verbs} (deploys)")
    elif words & {"iam", "policy", "role", "firewall", "firewall-rules", "dns", "kms", "secret", "secrets"}:
        acc.add(H, "shell.cloud.iam", f"{prog} {verbs} (access or network change)")
    else:
        acc.add(M, "shell.cloud", f"{prog} {verbs} (changes cloud resources)")
    return OTHER


def h_deploy(r, prog, args, metas, ctx, acc, stdin):
    """Deploy tools (table DEPLOY_TOOLS): publishing and secret printing first, then ``helm`` by subcommand,
    deploys MEDIUM (to production HIGH), other uses LOW."""
    subs = T.DEPLOY_TOOLS.get(prog, ())
    pos = [a for a in args if not a.startswith("-")]
    sub = pos[0] if pos else ""
    pub = publish_command(prog, args, pos)
    if pub is not None:
        acc.add(H, "shell.publish", pub)
        return OTHER
    word = secret_printed(prog, args)
    if word is not None:
        return secret_read(prog, word, acc)
    if prog == "helm":
        if sub in ("uninstall", "delete", "del"):
            acc.add(H, "shell.helm.uninstall", f"helm {sub} (removes a release)")
            return OTHER
        if sub in ("list", "ls", "status", "get", "show", "search", "history", "version", "env", "template", "lint",
                   "verify", "help", "dependency", "repo", "pull", "fetch", "diff", "plugin", "package", "completion"):
            acc.add(S if sub not in ("repo", "pull", "fetch", "dependency", "package", "plugin") else L,
                    "shell.helm.read", f"helm {sub}")
            return OTHER
    if prog in ("pulumi", "cdk"):
        return h_iac(r, prog, args, metas, ctx, acc, stdin)
    deploys = (not subs and (not sub or sub in ("deploy", "--prod", "up", "publish") or True)) or sub in subs or (
        prog == "gcloud" and "deploy" in pos)
    if prog == "vercel" and sub in ("ls", "list", "inspect", "logs", "whoami", "env", "login", "link", "dev",
                                    "pull", "domains", "dns"):
        deploys = False
    if prog == "heroku" and sub not in subs:
        deploys = sub.startswith(("ps:", "config:set", "config:unset", "pg:", "apps:", "releases:"))
    if deploys:
        if prod_in(args) or "--prod" in args or "--production" in args:
            acc.add(H, "shell.deploy.production", f"{prog} {sub} to production".replace("  ", " "))
        else:
            acc.add(M, "shell.deploy", f"{prog} {sub} (deploys)".replace("  ", " "))
    else:
        acc.add(L, "shell.program", f"{prog} {sub}".strip())
    return OTHER


def _bucket_copy(r, what: str, args: list, ctx, acc) -> None:
    """A copy between local files and a bucket (``aws s3 cp SRC DST``): local to bucket is an upload (MEDIUM; a
    secret file HIGH), bucket to local a write of the local target."""
    pos = [a for k, a in enumerate(args) if a[:1] != "-" and not (k and args[k - 1].startswith("--") and "=" not in
                                                                    args[k - 1] and args[k - 1] not in _S3_FLAGS)]
    if len(pos) < 2:
        return
    src, dst = pos[0], pos[-1]
    remote = ("s3://", "gs://", "az://", "r2://")
    if dst.startswith(remote) and not src.startswith(remote):
        acc.add(M, "shell.cloud.upload", f"{what} uploads {show(src)} to {show(dst)}")
        r.sends_secret(what, src, ctx, acc)
    elif src.startswith(remote) and not dst.startswith(remote) and dst != "-":
        r.write_path(dst, ctx, acc, f"{what} writes")


#: aws s3 options that take no value
_S3_FLAGS = frozenset(("--recursive", "--dryrun", "--quiet", "--no-progress", "--only-show-errors", "--follow-symlinks",
                       "--no-follow-symlinks", "--exact-timestamps", "--size-only", "--delete", "--no-sign-request",
                       "--no-guess-mime-type", "--force-glacier-transfer", "--ignore-glacier-warnings"))


def h_remote_delete(r, prog, args, metas, ctx, acc, stdin):
    """Deletes of storage tools (table :data:`REMOTE_DELETES`): ``s3cmd del --recursive``, ``mc rm -r``,
    ``hdfs dfs -rm -r``, ``rclone purge`` are recursive deletes (HIGH)."""
    subs = T.REMOTE_DELETES.get(prog, {})
    for j, a in enumerate(args):
        if a.startswith("-"):
            continue
        for key, always in subs.items():
            words = key.split()
            if args[j:j + len(words)] != words:
                continue
            rest = args[j + len(words):]
            recursive = always or any(x in ("--recursive", "-recursive") or (
                # a short flag cluster (-r, -rf, -Rf), not a one-dash word (hdfs -skipTrash)
                x.startswith("-") and not x.startswith("--") and len(x) <= 4 and ("r" in x or "R" in x)) for x in rest)
            if words[-1] in ("rb", "delete-bucket") and any(x in ("--force", "-f") for x in rest):
                recursive = True  # a bucket removed with everything in it
            tgt = next((x for x in rest if not x.startswith("-")), "")
            what = f"{prog} {key}"
            if recursive:
                acc.add(H, "shell.remote_rm.recursive",
                        f"{what}: recursive delete of {show(tgt) or 'a remote path'} (remote storage)")
            else:
                acc.add(M, "shell.remote_rm", f"{what}: delete of {show(tgt) or 'a remote path'} (remote storage)")
            return OTHER
        break
    acc.add(L, "shell.program", f"{prog} (not known to be read-only)")
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
HANDLERS = handlers(
    (T.TERRAFORMS, h_terraform),
    (("ansible-playbook", "ansible-pull"), h_ansible_playbook),
    (("ansible",), h_ansible),
    (("salt", "salt-ssh"), h_salt),
    (T.REMOTE_RUNNERS, h_remote_runner),
    (("aws", "gcloud", "az", "doctl", "hcloud", "linode-cli", "scw", "oci", "ibmcloud", "gsutil"), h_cloud),
)
#: the deploy tools and storage tools of the tables that no family reads with a handler of its own
DEFAULTS = handlers(
    (T.DEPLOY_TOOLS, h_deploy),
    (T.REMOTE_DELETES, h_remote_delete),
)
