"""Containers and clusters: ``docker``/``podman`` (and ``docker compose``), ``kubectl`` and the Kubernetes
distributions that bundle it (``microk8s kubectl …``); a command run inside a container is read with the
container's mounts.

To add a rule: add the program's handler here (signature ``(r, prog, args, metas, ctx, acc, stdin)``: ``r`` the
reader, ``args`` the words after the program, ``metas`` what each word's substitutions printed, ``acc`` the
verdict to raise, ``stdin`` the pipeline value it reads; it returns what it prints) and its programs to
``HANDLERS`` at the end, or a row to its table in :mod:`core.policy.tables`; test it in
``tests/core/policy/test_containers.py``. A handler of another family is called through the registry
(``r.call("h_name", …)``), never imported.
"""

from __future__ import annotations

from core.policy import _paths as P
from core.policy import tables as T
from core.policy.shell.common import prod_in, show
from core.policy.shell.families import handlers
from core.policy.shell.options import _global_readings, first_value, getopts
from core.policy.shell.state import MARK, OTHER, SECRET, Acc
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL


def h_docker(r, prog, args, metas, ctx, acc, stdin):
    """``docker``/``podman``/``nerdctl`` (and compose, crictl, ctr): reads SAFE, ``run``/``exec`` MEDIUM with their
    command read inside the container, privileged runs and host mounts HIGH, volume and system prunes HIGH,
    pushes publish (HIGH), ``inspect`` of the environment a secret read."""
    i, n = 0, len(args)
    while i < n and args[i].startswith("-"):
        i += 2 if args[i] in T.DOCKER_GLOBAL_WITH_ARG else 1
    if prog in ("docker-compose", "podman-compose"):
        return _compose(r, args[i:], ctx, acc)
    if i >= n:
        acc.add(L, "shell.docker", prog)
        return OTHER
    sub, rest = args[i], args[i + 1:]
    if sub == "compose":
        # (compose's own options come before its subcommand: every reading of them counts)
        for rd, _ in _global_readings(rest, [None] * len(rest), T.GLOBAL_OPTS["docker-compose"], prog, acc):
            _compose(r, rd, ctx, acc)
        return OTHER
    obj = None
    if sub in ("container", "image", "volume", "network", "system", "builder", "buildx", "context", "plugin",
               "secret", "config", "node", "service", "stack", "swarm", "manifest", "trust"):
        obj = sub
        k = 0
        while k < len(rest) and rest[k].startswith("-"):
            k += 1
        sub, rest = (rest[k], rest[k + 1:]) if k < len(rest) else ("", [])
    if obj == "container" and sub == "ls":
        sub = "ps"
    if sub == "inspect" and any(w in a for a in rest for w in T.DOCKER_ENV_FORMATS):
        acc.add(M, "shell.secret_read", f"{prog} inspect prints a container's environment (secrets) into the "
                                        "agent's context")
        return SECRET
    if sub in T.DOCKER_READ or (obj and sub in ("ls", "inspect", "df", "history", "list")):
        acc.add(S, "shell.docker.read", f"{prog} {obj + ' ' if obj else ''}{sub} (read-only)")
        return OTHER
    if obj == "volume" and sub in ("rm", "remove", "prune"):
        acc.add(H, "shell.docker.volume_rm", f"{prog} volume {sub} (deletes data volumes)")
        return OTHER
    if obj == "system" and sub == "prune":
        acc.add(H, "shell.docker.system_prune", f"{prog} system prune (deletes containers, images, volumes)")
        return OTHER
    if sub == "push" or (obj == "image" and sub == "push"):
        acc.add(H, "shell.publish", f"{prog} push (publishes an image to a registry)")
        return OTHER
    if sub in ("build", "bake") and obj in (None, "buildx", "image", "builder"):
        bo = getopts(rest, frozenset("otfc"), frozenset(("--output", "--tag", "--file", "--set", "--platform")))
        outs = list(bo.vals.get("o", ())) + [v for v in (bo.long("--output"),) if isinstance(v, str)]
        if any(a in T.BUILD_PUSH_OPTIONS for a in rest) or any(
                w in v for v in outs for w in T.BUILD_PUSH_OUTPUTS):
            acc.add(H, "shell.publish", f"{prog} {sub} --push (publishes an image to a registry)")
            return OTHER
        for v in outs:  # --output type=local,dest=DIR (or a bare DIR): the build's files written there
            dest = next((kv[5:] for kv in v.split(",") if kv.startswith("dest=")), None if "=" in v else v)
            if dest and dest != "-":
                r.write_path(dest.rstrip("/") + "/x", ctx, acc, f"{prog} {sub} writes its output into")
    if sub in ("save", "export") and obj in (None, "image", "container"):
        so = getopts(rest, frozenset("o"), frozenset(("--output",)))
        for v in list(so.vals.get("o", ())) + [v for v in (so.long("--output"),) if isinstance(v, str)]:
            r.write_path(v, ctx, acc, f"{prog} {sub} writes")
    if sub == "cp" and obj in (None, "container"):
        cpos = [a for a in rest if a[:1] != "-"]
        if len(cpos) >= 2 and ":" not in cpos[-1].split("/", 1)[0] and cpos[-1] != "-":
            r.write_path(cpos[-1], ctx, acc, f"{prog} cp writes")  # from a container onto the host
            src = cpos[0].split(":", 1)[1] if ":" in cpos[0] else ""
            if src and r.is_secret_path(src, ctx):  # (a container's secrets copied out)
                acc.add(M, "shell.secret_read", f"{prog} cp copies {show(src)} (secrets) out of the container")
        elif len(cpos) >= 2 and ":" not in cpos[0].split("/", 1)[0] and r.is_secret_path(cpos[0], ctx):
            # the host's secrets copied into a container (whoever runs it can read them)
            acc.add(M, "shell.secret_read", f"{prog} cp copies {show(cpos[0])} (secrets) into a container")
    if sub in ("run", "create") and obj in (None, "container"):
        return _docker_run(r, prog, rest, ctx, acc)
    if sub == "exec" and obj in (None, "container"):
        o = getopts(rest, frozenset("euwd"), frozenset(("--env", "--user", "--workdir", "--env-file",
                                                        "--detach-keys")), stop_at_pos=True)
        acc.add(M, "shell.docker.exec", f"{prog} exec (runs a command in a container)")
        if "--privileged" in o.longs:
            acc.add(H, "shell.docker.privileged", f"{prog} exec --privileged")
        if len(o.pos) > 1:
            c = ctx.child(deeper=True)
            c.cwd = None
            r.run_argv(o.pos[1:], [None] * (len(o.pos) - 1), c, acc, stdin)
        return OTHER
    if sub in ("rm", "remove") and obj in (None, "container"):
        o = getopts(rest)
        if "f" in o.flags or "--force" in o.longs:
            acc.add(M, "shell.docker.rm_force", f"{prog} rm -f (stops and removes a running container)")
        else:
            acc.add(L, "shell.docker.rm", f"{prog} rm")
        return OTHER
    if obj == "image" and sub == "prune":
        acc.add(M, "shell.docker.prune", f"{prog} image prune")
        return OTHER
    if sub == "prune":
        acc.add(M, "shell.docker.prune", f"{prog} {obj} prune")
        return OTHER
    t = T.DOCKER_TIERS.get(sub, L)
    if obj in ("volume", "network", "image", "builder", "buildx", "context", "manifest", "trust") and t > L:
        t = L
    if obj in ("secret", "swarm"):
        t = H
    acc.add(t, f"shell.docker.{sub}"[:40], f"{prog} {obj + ' ' if obj else ''}{sub}")
    return OTHER


_DOCKER_RUN_SHORT_ARG = frozenset("vewpuhlmcaI")


_DOCKER_RUN_LONG_ARG = frozenset((
    "--volume", "--mount", "--env", "--env-file", "--workdir", "--publish", "--name", "--user", "--network",
    "--net", "--entrypoint", "--hostname", "--label", "--platform", "--pid", "--ipc", "--cap-add", "--cap-drop",
    "--device", "--restart", "--memory", "--cpus", "--add-host", "--dns", "--log-driver", "--log-opt",
    "--security-opt", "--tmpfs", "--ulimit", "--shm-size", "--gpus", "--runtime", "--stop-signal", "--health-cmd",
    "--cidfile", "--attach", "--link", "--expose", "--label-file", "--volumes-from", "--group-add", "--userns",
    "--uts", "--cgroupns", "--mac-address", "--ip", "--ip6", "--isolation", "--pull", "--storage-opt",
    "--sysctl", "--stop-timeout", "--health-interval", "--health-retries", "--health-timeout", "--memory-swap",
    "--cpu-shares", "--cpuset-cpus", "--blkio-weight", "--oom-score-adj", "--detach-keys", "--domainname",
    "--cgroup-parent", "--init-path", "--kernel-memory", "--memory-reservation", "--pids-limit", "--publish-all_",
))


def _docker_run(r, prog, rest, ctx, acc):
    i, n = 0, len(rest)
    mounts = []  # (container path, host path)
    privileged = False
    entry = None
    workdir = None
    while i < n:
        a = rest[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        val = None
        if a.startswith("--"):
            if "=" in a:
                name, val = a.split("=", 1)
            else:
                name = a
                if a in _DOCKER_RUN_LONG_ARG and i + 1 < n:
                    val = rest[i + 1]
                    i += 1
        else:
            name = a[:2]
            last = a[-1]
            if last in _DOCKER_RUN_SHORT_ARG:
                name = "-" + last
                if len(a) > 2 and a[1] == last:
                    val = a[2:]
                elif i + 1 < n:
                    val = rest[i + 1]
                    i += 1
        i += 1
        if name == "--privileged":
            privileged = val not in ("false", "0")
        elif name in ("-v", "--volume") and val:
            parts = val.split(":")
            if len(parts) >= 2 and (parts[0][:1] in ("/", "~", ".", MARK) or MARK in parts[0]):
                mounts.append((parts[1], parts[0]))
        elif name == "--mount" and val:
            kv = dict(x.split("=", 1) for x in val.split(",") if "=" in x)
            src = kv.get("source") or kv.get("src")
            dst = kv.get("target") or kv.get("destination") or kv.get("dst")
            if src and dst and kv.get("type", "volume") == "bind":
                mounts.append((dst, src))
        elif name == "--entrypoint":
            entry = val
        elif name in ("-w", "--workdir"):
            workdir = val
        elif name == "--cap-add" and val and val.upper() in ("ALL", "SYS_ADMIN", "CAP_SYS_ADMIN"):
            privileged = True
        elif name == "--pid" and val == "host":
            acc.add(M, "shell.docker.host_pid", "docker run --pid=host")
    danger = False
    for _cpath, hpath in mounts:
        hn = P.normalize(hpath, ctx.cwd) if MARK not in hpath else hpath
        if hn == "/":
            acc.add(H, "shell.docker.mount_root", f"{prog} run mounts the host's / into the container")
            danger = True
        if "docker.sock" in hn:
            acc.add(H, "shell.docker.socket", f"{prog} run mounts the docker socket (root on the host)")
            danger = True
    if privileged:
        acc.add(H, "shell.docker.privileged", f"{prog} run --privileged (root on the host)")
        danger = True
    acc.add(M, "shell.docker.run", f"{prog} run")
    image_and_cmd = rest[i:]
    cmd = image_and_cmd[1:] if image_and_cmd else []
    if entry:
        cmd = [entry] + cmd
    if cmd:
        c = ctx.child(deeper=True)
        norm_mounts = []
        for cpath, hpath in mounts:
            hp = P.normalize(hpath, ctx.cwd) if MARK not in hpath else MARK
            norm_mounts.append((P.normalize(cpath, "/"), hp))
        c.container = norm_mounts
        c.cwd = workdir or "/"
        c.ws = None
        sub = Acc()
        r.run_argv(cmd, [None] * len(cmd), c, sub, None)
        if sub.tier >= 0:
            t = sub.tier if danger or sub.rule.startswith("shell.write") or sub.rule.startswith("shell.rm") or (
                ".recursive." in sub.rule) else min(sub.tier, M)
            acc.add(t, sub.rule, f"{sub.reason} (in a container)")
    return OTHER


def _compose(r, args, ctx, acc):
    i, n = 0, len(args)
    while i < n and args[i].startswith("-"):
        i += 2 if args[i] in T.DOCKER_GLOBAL_WITH_ARG else 1
    sub = args[i] if i < n else ""
    rest = args[i + 1:]
    if sub in ("ps", "logs", "config", "ls", "top", "images", "version", "port", "events"):
        acc.add(S, "shell.compose.read", f"docker compose {sub} (read-only)")
    elif sub == "down":
        o = getopts(rest)
        if "v" in o.flags or "--volumes" in o.longs:
            acc.add(H, "shell.compose.down_volumes", "docker compose down -v (deletes data volumes)")
        else:
            acc.add(M, "shell.compose.down", "docker compose down")
    elif sub in ("build", "pull", "create", "convert"):
        acc.add(L, "shell.compose", f"docker compose {sub}")
    elif sub == "push":
        acc.add(H, "shell.publish", "docker compose push")
    elif sub == "rm":
        o = getopts(rest)
        acc.add(M if ("f" in o.flags or "s" in o.flags) else L, "shell.compose.rm", "docker compose rm")
        if "v" in o.flags:
            acc.add(H, "shell.compose.down_volumes", "docker compose rm -v (deletes volumes)")
    else:
        acc.add(M, f"shell.compose.{sub}"[:40], f"docker compose {sub}".strip())
    return OTHER


def h_kubectl(r, prog, args, metas, ctx, acc, stdin):
    """``kubectl``/``oc``: the subcommand's tier (table KUBECTL_TIERS; changes in production HIGH), secrets read,
    scale to zero HIGH; ``exec … -- CMD`` reads CMD inside the pod."""
    o = getopts(args, frozenset("nsflcoLp"), T.KUBECTL_GLOBAL_WITH_ARG | {"--replicas", "--selector", "--filename",
                                                                         "--output", "--container", "--image",
                                                                         "--type", "--timeout", "--kustomize"})
    # command after `--` (kubectl exec … -- CMD)
    dd = args.index("--") if "--" in args else -1
    pos = [p for p in o.pos] if dd < 0 else [p for p in getopts(args[:dd], frozenset("nsflcoLp"),
                                                                T.KUBECTL_GLOBAL_WITH_ARG).pos]
    sub = pos[0] if pos else ""
    what = pos[1] if len(pos) > 1 else ""
    where = [first_value(o, "n", "--namespace") or "", o.long("--context") or "", o.long("--cluster") or ""]
    if not sub:
        acc.add(L, "shell.kubectl", "kubectl")
        return OTHER
    if sub == "get" and any(x.split("/")[0] in ("secret", "secrets") or x.startswith("secret/") for x in pos[1:2]):
        acc.add(M, "shell.kubectl.secret", "kubectl get secret (reads secrets)")
        return OTHER
    if sub == "scale":
        reps = o.long("--replicas")
        if reps == "0":
            acc.add(H, "shell.kubectl.scale_zero", "kubectl scale to zero replicas")
            return OTHER
    if sub == "rollout" and what in ("status", "history"):
        acc.add(S, "shell.kubectl.read", f"kubectl rollout {what}")
        return OTHER
    if sub == "config":
        if what == "view" and "--raw" in args:
            acc.add(M, "shell.secret_read", "kubectl config view --raw prints cluster credentials into the agent's "
                                            "context")
            return SECRET
        if what in ("view", "get-contexts", "current-context", "get-clusters", "get-users"):
            acc.add(S, "shell.kubectl.read", f"kubectl config {what}")
        else:
            acc.add(L, "shell.kubectl.config", f"kubectl config {what}")
        return OTHER
    t = T.KUBECTL_TIERS.get(sub, M)
    label = f"kubectl {sub} {what}".strip()
    if t == M and sub in ("apply", "create", "patch", "replace", "rollout", "scale", "set", "edit", "run") and prod_in(
            where):
        acc.add(H, "shell.deploy.production", f"{label} in production")
    acc.add(t, f"shell.kubectl.{sub}"[:40], label if t != S else f"{label} (read-only)")
    if sub in ("exec", "debug", "attach") and dd >= 0 and dd + 1 < len(args):
        cmd = args[dd + 1:]
        c = ctx.child(deeper=True)
        c.cwd = None
        c.ws = None
        r.run_argv(cmd, [None] * len(cmd), c, acc, stdin)
    return OTHER


def h_k8s_bundle(r, prog, args, metas, ctx, acc, stdin):
    """Kubernetes distributions (table :data:`K8S_BUNDLES`): ``microk8s kubectl …``, ``minikube kubectl -- …``
    are read as the bundled tool's command; anything else is a program not known to be read-only."""
    tools = T.K8S_BUNDLES[prog]
    pos = [k for k, a in enumerate(args) if not a.startswith("-")]
    if pos and args[pos[0]] in tools:
        rest = args[pos[0] + 1:]
        if rest[:1] == ["--"]:
            rest = rest[1:]
        return r.run_argv([args[pos[0]], *rest], [None] * (len(rest) + 1), ctx, acc, stdin)
    acc.add(L, "shell.program", f"{prog} (not known to be read-only)")
    return OTHER


#: program -> handler (merged into the reader's map by core.policy.shell.registry)
HANDLERS = handlers(
    (("docker", "podman", "nerdctl", "docker-compose", "podman-compose", "crictl", "ctr"), h_docker),
    (("kubectl", "oc", "k", "microk8s.kubectl", "k3s"), h_kubectl),
    (T.K8S_BUNDLES, h_k8s_bundle),
)
