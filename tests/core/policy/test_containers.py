"""Command tier: the containers family (``core/policy/shell/families/containers.py``): docker, compose, kubectl and
the Kubernetes bundles.

Each row is ``(action, command, tier)``: the tier ``classify(action, command)`` must give. A row lives in
the file of the family whose handler reads the command (its outermost one: ``bash -c 'rm -rf /'`` is
the interpreters family's, ``sudo rm -rf /`` the files family's); rows no handler decides are in
test_walker, test_dispatch, test_options, test_secrets and test_actions.
"""

from __future__ import annotations

import pytest

from core.policy import classify
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

CASES = [
    # nested scripts
    ("terminal", "kubectl exec pod -- rm -rf /etc", C),
    ("terminal", "docker exec web rm -rf /etc", C),
    ("terminal", "docker run -v /:/host alpine rm -rf /host/etc", C),
    ("terminal", "docker run --rm alpine rm -rf /etc", M),
    # services, git, docker, k8s, iac
    ("terminal", "docker system prune -af", H),
    ("terminal", "docker volume rm data", H),
    ("terminal", "docker compose down -v", H),
    ("terminal", "docker compose down", M),
    ("terminal", "docker ps", S),
    ("terminal", "docker rm -f web", M),
    ("terminal", "docker run --privileged alpine", H),
    ("terminal", "docker run -v /var/run/docker.sock:/s x", H),
    ("terminal", "docker push img", H),
    ("terminal", "kubectl delete pod x", H),
    ("terminal", "kubectl get pods", S),
    ("terminal", "kubectl get secret x", M),
    ("terminal", "kubectl scale deploy x --replicas=0", H),
    ("terminal", "kubectl apply -f k8s/", M),
    # help, dry runs
    ("terminal", "kubectl delete pod x --dry-run=none", H),
    # found while hardening the classifier (a prompt-injected agent's tricks), with their over-flag checks
    ('terminal', 'docker run -v /:/h alpine rm -rf /h', C),
    ('terminal', 'docker run -v /:/h alpine', H),
    ('terminal', 'docker run --volume=/:/host alpine sh', H),
    ('terminal', 'docker run -v /var/run/docker.sock:/var/run/docker.sock img', H),
    ('terminal', 'docker run --privileged img', H),
    ('terminal', 'docker run --mount type=bind,src=/,dst=/h img', H),
    ('terminal', 'docker run -v /etc:/e img rm -rf /e', C),
    ('terminal', "kubectl exec -it pod -- sh -c 'rm -rf /'", C),
    ('terminal', "kubectl exec pod -c app -- bash -c 'reboot'", C),
    ('terminal', 'docker run --rm -v $HOME:/h alpine rm -rf /h', C),
    ('terminal', 'docker run -v ~/.ssh:/k alpine cat /k/id_rsa', M),
    ('terminal', 'kubectl delete ns prod', H),
    ('terminal', 'kubectl delete --all pods', H),
    # red team 3, clear cases of tiers.md left after the three fix branches
    ('terminal', 'microk8s kubectl delete ns prod', H),
    ('terminal', 'minikube kubectl -- delete ns default', H),
    ('terminal', 'microk8s kubectl get pods', S),
    # an option's value read as the subcommand: global options (table GLOBAL_OPTS) are read first, and an
    # unknown option followed by a word counts both ways (the higher tier decides)
    ('terminal', 'podman --url ssh://prod volume rm data', H),
    ('terminal', 'podman --url ps volume rm x', H),
    ('terminal', 'docker --unknown-opt ps volume rm x', H),
    ('terminal', 'docker compose --unknown-opt ps down -v', H),
    ('terminal', 'kubectl --unknown-opt get delete pod x', H),
    # ... and their harmless look-alikes stay where they were
    ('terminal', 'podman --url ssh://x ps', S),
    ('terminal', 'docker compose -f dev.yml ps', S),
    ('terminal', 'kubectl -n prod get pods', S),
    # remote command runners (like ssh: MEDIUM and the command's tier)
    ('terminal', 'crictl exec -it abc rm -rf /', C),
    ('terminal', 'ctr run --privileged docker.io/library/alpine:latest x', H),
    ('terminal', 'crictl ps', S),
    # red team 3, smaller spec gaps: an octal mode after `=`/`+` is world-writable like 777; setuid is HIGH,
    # setgid MEDIUM (choice); builds that push publish; glab reads like gh; rpm -i/-U/-e installs; inline code
    # of bun, ipython, irb and gdb -ex; systemd power targets reached now are power operations; role privileges
    # in ALTER/CREATE ROLE are grants; COPY … PROGRAM with dollar quoting
    ('terminal', 'docker buildx build --push -t org/app:latest .', H),
    ('terminal', 'docker buildx build -o type=registry -t org/app .', H),
    ('terminal', 'docker buildx build -t org/app:latest .', L),
    ('terminal', 'docker build -o out .', L),
    # red team 3, secrets outside the sensitive-file list: cloud credential files, TLS keys, container secrets,
    # any process's environment, globs that match .env, git diff of .env, commands that print secrets (docker
    # inspect of Env, kubectl config view --raw, op/vault/doppler, aws configure get, gh auth token); env dumps
    # carry secrets on; a secret variable in a URL or a non-credential header, openssl s_client, smbclient put,
    # ftp uploads, git add of a secret then push
    ('terminal', "docker inspect api --format '{{.Config.Env}}'", M),
    ('terminal', 'kubectl config view --raw', M),
    # their harmless look-alikes
    ('terminal', 'docker inspect img', S),
    ('terminal', 'kubectl config view', S),
]


@pytest.mark.parametrize(("action", "command", "expected"), CASES)
def test_containers(action: str, command: str, expected: Tier) -> None:
    got = classify(action, command)
    assert got.tier is expected, (action, command, got)
