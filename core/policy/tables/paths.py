"""Path tables: system directories, sensitive and secret files, devices (read by :mod:`core.policy._paths`).

To add a rule: add the path (or prefix, or glob) to its table; the path classes of ``_paths`` read it everywhere
a path is written, deleted or read. Test it in ``tests/core/policy/test_files.py``.
"""

from __future__ import annotations

SYSTEM_DIRS = frozenset((
    "/etc", "/usr", "/var", "/boot", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/home", "/root",
    "/opt", "/srv", "/sys", "/proc", "/dev", "/private/etc", "/private/var", "/System", "/Library", "/Users",
))
#: system directories no project lives in: a working directory inside one (``/etc/cron.d``, ``/usr/local/bin``) is
#: not a workspace, and the bare names a command is given there are its files (``cd /etc && 7z a x.7z shadow``);
#: not ``/opt``, ``/srv``, ``/var/www``, ``/usr/src`` or ``/var/lib`` (projects and CI workspaces live there)
SYSTEM_TREES = ("/etc", "/boot", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr/bin", "/usr/sbin",
                "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libexec", "/usr/local/bin", "/usr/local/sbin",
                "/usr/local/etc", "/sys", "/proc", "/dev", "/private/etc", "/System", "/Library", "/var/spool")
#: top-level names a glob such as ``/e*`` could reach
TOP_LEVEL_NAMES = ("etc", "usr", "var", "boot", "bin", "sbin", "lib", "lib64", "home", "root", "opt", "srv",
                   "sys", "proc", "dev", "private", "System", "Library", "Users")
SENSITIVE_HOME_FILES = frozenset((
    ".bashrc", ".zshrc", ".profile", ".bash_profile", ".zprofile", ".bash_login", ".zshenv", ".zlogin",
    ".netrc", ".pgpass", ".npmrc", ".pypirc", ".aws/credentials", ".docker/config.json", ".kube/config",
    ".git-credentials", ".config/gh/hosts.yml",
    # cloud and tool credentials
    ".config/gcloud/application_default_credentials.json", ".config/gcloud/credentials.db",
    ".config/gcloud/access_tokens.db", ".config/gcloud/legacy_credentials", ".azure/accessTokens.json",
    ".azure/msal_token_cache.json", ".azure/msal_token_cache.bin", ".vault-token", ".terraform.d/credentials.tfrc.json",
    ".cargo/credentials", ".cargo/credentials.toml", ".gem/credentials", ".config/hub", ".config/glab-cli/config.yml",
    ".config/doctl/config.yaml", ".oci/config", ".s3cfg", ".boto", ".config/rclone/rclone.conf", ".my.cnf",
    ".aws/sso/cache", ".aws/cli/cache", ".config/op", ".password-store", ".local/share/keyrings",
    # agents', registries' and platforms' tokens
    ".claude/.credentials.json", ".codex/auth.json", ".config/containers/auth.json", ".docker/.token_seed",
    ".config/git/credentials", ".gitcookies", ".huggingface/token", ".cache/huggingface/token",
    ".config/huggingface/token", ".kaggle/kaggle.json", ".pulumi/credentials.json", ".terraformrc",
    ".fly/config.yml", ".config/stripe/config.toml", ".databrickscfg", ".snowsql/config",
    ".config/sops/age/keys.txt", ".local/share/com.vercel.cli/auth.json", ".config/netlify/config.json",
    ".wrangler/config/default.toml", ".yarnrc.yml", ".config/helm/repositories.yaml", ".minikube/profiles",
    # shell and client histories (passwords and tokens typed on command lines)
    ".bash_history", ".zsh_history", ".histfile", ".local/share/fish/fish_history", ".python_history",
    ".psql_history", ".mysql_history", ".node_repl_history", ".sqlite_history", ".rediscli_history",
))
SENSITIVE_HOME_DIRS = (".ssh", ".gnupg", ".config/gcloud/legacy_credentials", ".aws/sso/cache", ".aws/cli/cache",
                       ".config/op", ".password-store", ".local/share/keyrings")
#: files whose contents are secrets when read (besides sensitive and .env files)
SECRET_READ_FILES = frozenset(("/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/shadow-", "/etc/gshadow-",
                               "/etc/security/opasswd", "/etc/master.passwd", "/etc/krb5.keytab",
                               # cluster administrators' credentials
                               "/etc/kubernetes/admin.conf", "/etc/kubernetes/super-admin.conf",
                               "/etc/kubernetes/kubelet.conf", "/etc/kubernetes/controller-manager.conf",
                               "/etc/kubernetes/scheduler.conf", "/etc/rancher/k3s/k3s.yaml",
                               "/etc/rancher/rke2/rke2.yaml", "/var/lib/rancher/k3s/server/token",
                               "/var/lib/rancher/k3s/server/node-token", "/etc/docker/key.json",
                               # a process's environment (the same as `env`: MEDIUM)
                               "/proc/self/environ", "/proc/1/environ", "/proc/thread-self/environ"))
#: directories whose files are secrets when read: TLS private keys, container and Kubernetes secrets
SECRET_READ_DIRS = ("/etc/ssl/private", "/etc/pki/tls/private", "/run/secrets", "/var/run/secrets",
                    "/etc/letsencrypt/live", "/etc/letsencrypt/archive", "/etc/kubernetes/pki", "/var/lib/kubelet/pki",
                    "/etc/wireguard", "/etc/ipsec.d/private", "/root/.ssh", "/etc/sudoers.d")
#: glob patterns of secret files outside the home directory (any process's environment, like `env`)
#: private keys by name, wherever they are (tiers.md v3.2): suffixes, and the SSH key types of ``id_TYPE``
PRIVATE_KEY_SUFFIXES = (".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk")
SSH_KEY_TYPES = frozenset(("rsa", "dsa", "ecdsa", "ed25519", "ecdsa-sk", "ed25519-sk", "xmss"))
SECRET_READ_GLOBS = ("/proc/*/environ", "/proc/*/task/*/environ", "/etc/ssh/ssh_host_*_key", "/etc/*.key",
                     # copies of the password files (backups, editors' and package managers' leftovers)
                     "/var/backups/*shadow*", "/etc/*shadow*", "/etc/sudoers.*", "/var/backups/sudoers*")
BLOCK_DEVICE_PREFIXES = ("sd", "hd", "vd", "xvd", "nvme", "mmcblk", "md", "dm-", "loop", "nbd", "disk", "rdisk",
                         "mapper/", "disk/by-", "sr", "fd0")
NULL_DEVICES = frozenset(("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/stdin", "/dev/zero",
                          "/dev/full"))
SECRET_NAME_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "PRIVATE")
