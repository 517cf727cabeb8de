"""Infrastructure tools: containers (docker, kubectl and bundled Kubernetes distributions), infrastructure as
code (terraform), deploy tools, storage tools' deletes, production words.

To add a rule: add the subcommand and its tier to the tool's table (DOCKER_TIERS, KUBECTL_TIERS,
TERRAFORM_TIERS, DEPLOY_TOOLS …). Test it in ``tests/core/policy/test_containers.py`` or ``test_infra.py``.
"""

from __future__ import annotations

from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

#: storage tools' delete subcommands (words after the program; True: always a recursive delete, else only with
#: -r/-R/--recursive, or --force for a bucket removal): recursive is HIGH, a single delete MEDIUM
REMOTE_DELETES: dict = {
    "s3cmd": {"del": False, "rm": False, "delete": False, "rb": False},
    "mc": {"rm": False, "rb": False},
    "hdfs": {"dfs -rm": False, "dfs -rmr": True, "dfs -rmdir": False},
    "hadoop": {"fs -rm": False, "fs -rmr": True, "dfs -rm": False, "dfs -rmr": True},
    "rclone": {"purge": True, "delete": True, "rmdirs": True, "deletefile": False, "rmdir": False},
    "azcopy": {"remove": False, "rm": False},
    "b2": {"rm": False, "delete-bucket": False},
}
#: Kubernetes distributions whose subcommand runs a bundled tool (``microk8s kubectl delete ns prod``)
K8S_BUNDLES = {"microk8s": frozenset(("kubectl", "helm", "helm3", "ctr")), "minikube": frozenset(("kubectl",)),
               "k0s": frozenset(("kubectl", "ctr")), "kind": frozenset()}
#: docker inspect --format templates that print a container's environment
DOCKER_ENV_FORMATS = (".Config.Env", ".Env")
PROD_WORDS = frozenset(("prod", "production", "prd", "live"))
DEPLOY_TOOLS = {
    # program: subcommands that deploy (empty tuple: the program itself deploys)
    "flyctl": ("deploy", "release"), "fly": ("deploy", "release"), "vercel": (), "netlify": ("deploy",),
    "heroku": ("releases:rollback", "container:release", "deploy", "ps:scale", "pg:reset", "apps:destroy"),
    "serverless": ("deploy",), "sls": ("deploy",), "railway": ("up", "deploy"), "eb": ("deploy",),
    "cap": ("deploy",), "firebase": ("deploy",), "wrangler": ("deploy", "publish"), "amplify": ("publish", "push"),
    "sam": ("deploy",), "cdk": ("deploy",), "helm": ("install", "upgrade", "rollback", "uninstall"),
    "skaffold": ("run", "deploy"), "argocd": ("app",), "kamal": ("deploy",), "dokku": (), "pulumi": ("up",),
    "gcloud": ("deploy",), "copilot": ("deploy",), "render": ("deploy",), "surge": (), "now": (),
}
DOCKER_READ = frozenset(("ps", "logs", "inspect", "images", "version", "info", "stats", "top", "port", "diff",
                         "history", "search", "events", "ls", "df", "list", "config", "help", "--version",
                         "--help", "context_ls"))
DOCKER_GLOBAL_WITH_ARG = frozenset(("-H", "--host", "--context", "-c", "--config", "--log-level", "-l",
                                    "--tlscacert", "--tlscert", "--tlskey", "-f", "--file", "-p", "--project-name",
                                    "--project-directory", "--env-file", "--profile", "--ansi", "--progress"))
KUBECTL_GLOBAL_WITH_ARG = frozenset(("-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user",
                                     "-s", "--server", "--token", "--as", "--as-group", "--request-timeout",
                                     "--cache-dir", "--certificate-authority", "--client-certificate",
                                     "--client-key", "-v", "--v", "--profile"))
KUBECTL_TIERS = {
    "get": S, "describe": S, "logs": S, "log": S, "top": S, "explain": S, "api-resources": S, "api-versions": S,
    "version": S, "cluster-info": S, "events": S, "diff": L, "auth": S, "completion": S, "plugin": S,
    "wait": S, "options": S, "help": S, "kustomize": S,
    "apply": M, "create": M, "patch": M, "replace": M, "edit": M, "label": M, "annotate": M, "set": M,
    "rollout": M, "cp": M, "port-forward": M, "expose": M, "autoscale": M, "run": M, "exec": M, "attach": M,
    "debug": M, "scale": M, "cordon": M, "uncordon": M, "proxy": M, "certificate": M,
    "delete": H, "drain": H, "taint": M, "replace --force": H,
    "config": L,
}
TERRAFORMS = frozenset(("terraform", "tofu", "terragrunt", "terramate"))
TERRAFORM_TIERS = {
    "destroy": C, "apply": H, "plan": L, "init": L, "fmt": L, "validate": S, "show": S, "output": S,
    "providers": S, "version": S, "graph": S, "state": M, "import": M, "taint": M, "untaint": M, "refresh": M,
    "workspace": L, "console": S, "get": L, "login": L, "logout": L, "force-unlock": H, "test": L,
    "run-all": H, "metadata": S, "-version": S, "--version": S, "help": S,
}
DOCKER_TIERS = {
    # (subcommand, object-subcommand) -> tier; handled flags in code
    "run": M, "create": M, "exec": M, "start": M, "restart": M, "stop": M, "kill": M, "pause": M, "unpause": M,
    "rm": L, "rmi": L, "build": L, "buildx": L, "pull": L, "tag": L, "save": L, "load": L, "import": L,
    "export": L, "commit": L, "cp": L, "login": L, "logout": L, "update": M, "rename": L, "attach": M,
    "wait": S, "init": L, "scout": S, "sbom": S, "context": L, "trust": L, "swarm": H, "node": M, "service": M,
    "stack": M, "secret": H, "plugin": M, "checkpoint": M, "manifest": L, "push": H, "up": M, "down": M,
    "compose": M, "prune": H, "network": L, "volume": L, "image": L, "container": M, "system": L, "builder": L,
}
