"""The policy's data: programs, flags, paths and words (tiers.md). Code in the other modules
interprets these tables; operators extend some of them through :class:`PolicyTables`.
"""

from __future__ import annotations

from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

# ----------------------------------------------------------------------------------------- paths
SYSTEM_DIRS = frozenset((
    "/etc", "/usr", "/var", "/boot", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/home", "/root",
    "/opt", "/srv", "/sys", "/proc", "/dev", "/private/etc", "/private/var", "/System", "/Library", "/Users",
))
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
))
SENSITIVE_HOME_DIRS = (".ssh", ".gnupg", ".config/gcloud/legacy_credentials", ".aws/sso/cache", ".aws/cli/cache",
                       ".config/op", ".password-store", ".local/share/keyrings")
#: files whose contents are secrets when read (besides sensitive and .env files)
SECRET_READ_FILES = frozenset(("/etc/shadow", "/etc/gshadow", "/etc/sudoers",
                               # a process's environment (the same as `env`: MEDIUM)
                               "/proc/self/environ", "/proc/1/environ", "/proc/thread-self/environ"))
#: directories whose files are secrets when read: TLS private keys, container and Kubernetes secrets
SECRET_READ_DIRS = ("/etc/ssl/private", "/etc/pki/tls/private", "/run/secrets", "/var/run/secrets",
                    "/etc/letsencrypt/live", "/etc/letsencrypt/archive", "/etc/kubernetes/pki", "/var/lib/kubelet/pki",
                    "/etc/wireguard", "/etc/ipsec.d/private", "/root/.ssh")
#: glob patterns of secret files outside the home directory (any process's environment, like `env`)
SECRET_READ_GLOBS = ("/proc/*/environ", "/proc/*/task/*/environ", "/etc/ssh/ssh_host_*_key", "/etc/*.key")
BLOCK_DEVICE_PREFIXES = ("sd", "hd", "vd", "xvd", "nvme", "mmcblk", "md", "dm-", "loop", "nbd", "disk", "rdisk",
                         "mapper/", "disk/by-", "sr", "fd0")
NULL_DEVICES = frozenset(("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/stdin", "/dev/zero",
                          "/dev/full"))
SECRET_NAME_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "PRIVATE")

# -------------------------------------------------------------------------------------- programs
#: read-only programs: SAFE whatever their arguments (unless a handler says otherwise)
READ_ONLY = frozenset((
    "ls", "ll", "la", "dir", "vdir", "cat", "bat", "batcat", "head", "tail", "less", "more", "most", "grep", "egrep",
    "fgrep", "rg", "ag", "ack", "wc", "sort", "uniq", "diff", "colordiff", "cmp", "comm", "stat", "file", "jq",
    "yq", "gron", "ps", "pstree", "top", "htop", "btop", "atop", "df", "du", "dust", "duf", "ncdu", "free",
    "uptime", "journalctl", "pwd", "which", "whereis", "type", "whoami", "id", "groups", "uname", "hostnamectl",
    "date", "cal", "man", "info", "whatis", "apropos", "tldr", "cut", "tr", "last", "lastb", "lastlog", "w", "who",
    "users", "finger", "tree", "exa", "eza", "lsd", "basename", "dirname", "realpath", "readlink", "column", "nl",
    "od", "hexdump", "xxd", "strings", "md5sum", "md5", "sha1sum", "sha224sum", "sha256sum", "sha384sum",
    "sha512sum", "shasum", "b2sum", "cksum", "sum", "base32", "base64", "true", "false", ":", "test", "[",
    "seq", "sleep", "lsof", "netstat", "ss", "ping", "ping6", "traceroute", "tracepath", "mtr", "dig", "nslookup",
    "host", "whois", "tac", "rev", "fold", "fmt", "expand", "unexpand", "paste", "join", "look", "zcat", "zless",
    "zmore", "zgrep", "zdiff", "bzcat", "xzcat", "zstdcat", "lz4cat", "lsblk", "blkid", "lscpu", "lsusb", "lspci",
    "lsmod", "lshw", "dmidecode", "nproc", "vmstat", "iostat", "mpstat", "pidstat", "sar", "dmesg", "locale",
    "getent", "tput", "clear", "reset", "expr", "numfmt", "getconf", "nvidia-smi", "ldd", "nm", "objdump",
    "readelf", "size", "pgrep", "pidof", "printf", "echo", "tty", "arch", "logname",
    "fd", "fdfind", "locate", "mlocate", "plocate", "tokei", "cloc", "scc", "iconv", "csvlook",
    "xmllint", "hash", "jobs", "history", "alias", "help",
    "iwconfig", "uptime", "glances", "lsattr", "sestatus", "getenforce",
    "aa-status", "fc-list", "xdpyinfo", "printenv", "pr", "ts", "hostid", "cowsay",
    "figlet", "bc", "dc", "units", "factor", "shuf", "namei", "findmnt", "df",
    "arp", "showmount", "rpcinfo", "git-status", "delta", "diff3",
    "sdiff", "wdiff", "difft", "tail", "multitail", "lnav", "ccze",
    "echo", "read", "mapfile", "readarray", "wait", "true", "false", "cd", "pushd", "popd", "dirs", "let", "shift", "return", "exit",
    "break", "continue", "unset", "set", "export", "declare", "typeset", "local", "readonly", "trap", "umask",
    "ulimit", "times", "caller", "compgen", "complete", "bind", "disown", "fg", "bg", "getopts",
))
#: read-only programs that show file contents (a secret file among their operands is a secret read)
CONTENT_READERS = frozenset((
    "cat", "bat", "batcat", "head", "tail", "less", "more", "most", "grep", "egrep", "fgrep", "rg", "ag", "ack",
    "strings", "od", "hexdump", "xxd", "base64", "base32", "tac", "nl", "cut", "sort", "uniq", "jq", "yq", "awk",
    "gawk", "mawk", "nawk", "sed", "zcat", "zless", "view", "vim", "vi", "nano", "emacs", "code", "diff", "cmp",
    "comm", "paste", "column", "pr", "fold", "fmt", "iconv", "source", ".", "openssl", "tr", "rev", "expand",
    "unexpand", "bzcat", "xzcat", "zstdcat", "lz4cat", "zmore", "zgrep", "look", "tee",
))
#: terminal multiplexers and recorders that run a command string (read like ``sh -c``): tmux commands whose
#: trailing arguments are a shell command (long and short names) -> their options that take a value; the
#: commands that type keys into a pane; the key names that press Enter
_TMUX_NEW = "cefFnstxy"
TMUX_RUNS: dict[str, str] = {
    "new-session": _TMUX_NEW, "new": _TMUX_NEW, "new-window": "ceFnt", "neww": "ceFnt",
    "split-window": "celtF", "splitw": "celtF", "respawn-pane": "cet", "respawnp": "cet",
    "respawn-window": "cet", "respawnw": "cet", "run-shell": "cdt", "run": "cdt", "if-shell": "t", "if": "t",
    "pipe-pane": "t", "pipep": "t", "display-popup": "bcdehsStTwxy", "popup": "bcdehsStTwxy",
}
TMUX_TYPES = frozenset(("send-keys", "send"))
TMUX_ENTER_KEYS = frozenset(("Enter", "C-m", "KPEnter", "C-j", "^M", "^J"))

#: wrappers looked through: options taking an argument, number of leading operands to skip, tier floor
WRAPPERS: dict[str, tuple[frozenset, int, Tier]] = {
    "sudo": (frozenset("ugpChDTURr") | {"--user", "--group", "--prompt", "--close-from", "--host", "--chdir",
                                        "--command-timeout", "--other-user", "--role", "--type"}, 0, M),
    "doas": (frozenset("uC"), 0, M),
    "pkexec": (frozenset({"--user"}), 0, M),
    "run0": (frozenset("u") | {"--user"}, 0, M),
    "nohup": (frozenset(), 0, S),
    "time": (frozenset("fo"), 0, S),
    "nice": (frozenset("n") | {"--adjustment"}, 0, S),
    "renice": (frozenset("ngpu"), 0, L),
    "ionice": (frozenset("cnpPu") | {"--class", "--classdata"}, 0, S),
    "timeout": (frozenset("sk") | {"--signal", "--kill-after"}, 1, S),
    "command": (frozenset(), 0, S),
    "builtin": (frozenset(), 0, S),
    "exec": (frozenset("a"), 0, S),
    "busybox": (frozenset(), 0, S),
    "toybox": (frozenset(), 0, S),
    "setsid": (frozenset(), 0, S),
    "stdbuf": (frozenset("ioe") | {"--input", "--output", "--error"}, 0, S),
    "unbuffer": (frozenset(), 0, S),
    "chronic": (frozenset(), 0, S),
    "caffeinate": (frozenset("tw"), 0, S),
    "flock": (frozenset("wEc") | {"--timeout", "--conflict-exit-code", "--command"}, 1, S),
    "chroot": (frozenset() | {"--userspec", "--groups"}, 1, M),
    "nsenter": (frozenset("tSGwr") | {"--target"}, 0, H),
    "taskset": (frozenset(), 1, S),
    "chrt": (frozenset(), 1, S),
    "strace": (frozenset("eoOpsuIPSbXU"), 0, L),
    "ltrace": (frozenset("eoOpsuIPSn"), 0, L),
    "eatmydata": (frozenset(), 0, S),
    "fakeroot": (frozenset("il") | {"--lib", "--faked"}, 0, S),
    "proxychains": (frozenset("f"), 0, S),
    "proxychains4": (frozenset("f"), 0, S),
    "torsocks": (frozenset(), 0, S),
    "firejail": (frozenset(), 0, S),
    "systemd-run": (frozenset("upEM") | {"--unit", "--property", "--setenv", "--uid", "--gid"}, 0, M),
    "sg": (frozenset(), 1, M),
    "runuser": (frozenset("ugl") | {"--user", "--group"}, 0, M),
    "catchsegv": (frozenset(), 0, S),
    "valgrind": (frozenset(), 0, L),
    "xvfb-run": (frozenset("ansfe"), 0, S),
    "dbus-run-session": (frozenset(), 0, S),
    "with-contenv": (frozenset(), 0, S),
    "tini": (frozenset(), 0, S),
    "dumb-init": (frozenset(), 0, S),
    "gosu": (frozenset(), 1, M),
    "su-exec": (frozenset(), 1, M),
    "setpriv": (frozenset(), 0, M),
    "unshare": (frozenset(), 0, M),
    "cpulimit": (frozenset("lpe"), 0, S),
    "script_run": (frozenset(), 0, S),
}
#: "run" launchers: ``uv run CMD``, ``poetry run CMD``, ``bundle exec CMD`` …
RUNNERS = {
    "uv": ("run",), "poetry": ("run",), "pipenv": ("run",), "bundle": ("exec",), "pdm": ("run",),
    "hatch": ("run",), "rye": ("run",), "pixi": ("run",), "conda": ("run",), "mamba": ("run",),
    "doppler": ("run",), "dotenv": ("run",), "direnv": ("exec",), "nix": ("shell", "develop"),
    "devbox": ("run",), "op": ("run",), "mise": ("exec", "x"), "asdf": ("exec",), "rbenv": ("exec",), "pyenv": ("exec",),
}
SHELLS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "rbash",
                    "pwsh", "powershell", "busybox-sh"))
INTERPRETERS = {
    # program: (flags whose argument is inline code, options that take an argument)
    "python": ("c", frozenset("WXQ")), "python2": ("c", frozenset("WXQ")), "python3": ("c", frozenset("WXQ")),
    "pypy": ("c", frozenset("WX")), "pypy3": ("c", frozenset("WX")),
    "perl": ("eE", frozenset("IMmxl0")), "ruby": ("e", frozenset("IrCE")), "node": ("ep", frozenset("r")),
    "nodejs": ("ep", frozenset("r")), "deno": ("", frozenset()),
    "php": ("rR", frozenset("cdf")), "lua": ("e", frozenset("l")), "luajit": ("e", frozenset("l")),
    "Rscript": ("e", frozenset()), "osascript": ("e", frozenset("l")), "tclsh": ("", frozenset()),
    "groovy": ("e", frozenset()), "julia": ("e", frozenset()), "elixir": ("e", frozenset()),
    "bun": ("ep", frozenset()), "ipython": ("c", frozenset()), "ipython3": ("c", frozenset()),
    "irb": ("", frozenset("rI")), "jshell": ("", frozenset()), "swift": ("e", frozenset()),
}
#: the language of each interpreter's inline code (for the calls :mod:`core.policy._pycode` reads)
INTERPRETER_LANGS = {
    "python": "python", "python2": "python", "python3": "python", "pypy": "python", "pypy3": "python",
    "perl": "perl", "ruby": "ruby", "node": "node", "nodejs": "node", "deno": "node", "bun": "node",
    "php": "php", "lua": "lua", "luajit": "lua", "ipython": "python", "ipython3": "python", "irb": "ruby",
}
PYTHONS = frozenset(("python", "python2", "python3", "pypy", "pypy3"))
LONG_CODE_FLAGS = frozenset(("--eval", "--print", "--command", "-Command", "-command"))
SQL_CLIENTS = frozenset(("psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "sqlcmd", "clickhouse-client",
                         "clickhouse", "cockroach", "snowsql", "bq", "usql", "pgcli", "mycli", "litecli", "trino",
                         "presto", "spark-sql", "hive", "beeline", "isql", "osql", "db2", "sqlplus", "vsql"))
ENV_SETUP_TOOLS = frozenset(("ssh-agent", "pyenv", "rbenv", "nodenv", "direnv", "conda", "brew", "starship",
                             "zoxide", "fnm", "mise", "rtx", "jenv", "goenv", "plenv", "keychain", "dircolors",
                             "opam", "luarocks", "thefuck", "atuin", "mcfly", "fzf", "gpg-agent", "micromamba",
                             "mamba", "nvm", "volta", "pipenv", "poetry", "register-python-argcomplete",
                             "kubectl", "helm", "gh", "rustup", "pdm", "uv", "zellij", "tmuxinator"))
POWER_PROGRAMS = frozenset(("shutdown", "reboot", "halt", "poweroff"))
#: disk tools that erase a device with some options or subcommands, like ``blkdiscard``: program -> (its short
#: options that take a value, {option (``-w``, ``--x``) or subcommand (first operand; "" for any use): tier}).
#: Other uses keep the default (not known to be read-only: LOW); ``badblocks -n`` (non-destructive) and
#: ``hdparm -I`` stay LOW. (``cryptsetup luksFormat``, ``mdadm --zero-superblock``: see the mount tools.)
DISK_ERASERS: dict[str, tuple[str, dict[str, Tier]]] = {
    "hdparm": ("", {"--security-erase": C, "--security-erase-enhanced": C, "--trim-sector-ranges": C,
                    "--trim-sector-ranges-stdin": C, "--write-sector": C, "--make-bad-sector": H,
                    "--dco-restore": H, "--security-set-pass": H}),
    "badblocks": ("bcdeioptT", {"-w": C}),
    "nvme": ("", {"format": C, "sanitize": C, "write-zeroes": C, "ns-delete": C, "delete-ns": C}),
    "sg_format": ("", {"": C}),
    "sg_sanitize": ("", {"": C}),
    "dmsetup": ("ujmn", {"remove_all": H, "remove": H, "wipe_table": H}),
}
PARTITIONERS = frozenset(("fdisk", "gdisk", "cfdisk", "sfdisk", "parted", "cgdisk", "sgdisk", "partprobe_w"))
#: parted options that take a value (``-a optimal``); the rest (``-s``, ``-m``, ``-f``) take none
PARTED_OPTS_WITH_ARG = frozenset(("-a", "--align"))
#: parted options that only list or print (no device commands run)
PARTED_LIST_OPTS = frozenset(("-l", "--list", "-h", "--help", "-v", "--version"))
#: parted commands (given after the device, also as unambiguous prefixes of 3+ letters) and their tiers;
#: the highest one named decides, a device with no command is the interactive prompt (HIGH)
PARTED_COMMANDS = {
    "mklabel": C, "mktable": C, "rm": C, "rescue": H, "mkpart": H, "mkpartfs": H, "resizepart": H, "resize": H,
    "move": H, "name": H, "set": H, "toggle": H, "disk_set": H, "disk_toggle": H, "type": H, "cp": H,
    "mkfs": C, "print": S, "help": S, "version": S, "align-check": S, "unit": S, "select": S, "quit": S,
}
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
#: database server client programs that drop a database or a role (like SQL ``DROP DATABASE``/``DROP ROLE``):
#: program -> what it drops; ``createdb``/``createuser`` keep the default (LOW)
DB_DROPPERS = {"dropdb": "a database", "dropuser": "a database role"}
USER_ADMIN = frozenset(("useradd", "userdel", "usermod", "groupadd", "groupdel", "groupmod", "passwd", "chpasswd",
                        "adduser", "deluser", "addgroup", "delgroup", "visudo", "vipw", "chage", "gpasswd",
                        "dscl", "sysadminctl"))
FIREWALLS = frozenset(("iptables", "ip6tables", "iptables-legacy", "iptables-nft", "nft", "ufw", "firewall-cmd",
                       "pfctl", "ebtables", "arptables"))
MOUNTERS = frozenset(("mount", "umount", "swapon", "swapoff", "losetup", "cryptsetup", "lvremove", "vgremove",
                      "pvremove", "lvcreate", "vgcreate", "pvcreate", "mdadm", "zpool", "zfs", "btrfs"))
NETWORK_SENDERS = frozenset(("curl", "wget", "scp", "rsync", "nc", "ncat", "netcat", "socat", "sftp", "http",
                             "https", "xh", "httpie", "ftp", "lftp", "rclone", "aws", "gsutil", "az", "mail",
                             "sendmail", "mutt", "telnet", "ssh", "s3cmd", "rclone", "gh", "mailx",
                             "swaks", "ftp", "tftp", "smbclient", "xh", "xhs", "websocat", "wscat", "grpcurl"))
#: programs that send their input over the network with some subcommand (``openssl s_client … < .env``)
NETWORK_SENDER_COMMANDS = {"openssl": ("s_client",), "gnutls-cli": (), "git": ("send-email",)}
#: programs that upload (or overwrite) the local files among their operands: a secret file operand is HIGH
UPLOADERS = frozenset(("ftp", "lftp", "tftp", "sftp", "aws", "gsutil", "gcloud", "az", "azcopy", "rclone", "s3cmd", "mc", "b2", "gh", "http",
                       "https", "xh", "xhs", "httpie", "transfer", "croc", "magic-wormhole", "wormhole", "ffsend",
                       "smbclient"))
#: programs that print their arguments, not the files they name (``echo ~/.ssh/id_rsa`` prints a path)
SECRET_ECHOERS = frozenset(("echo", "printf", "test", "[", "ls", "stat", "file", "which", "realpath", "readlink",
                            "basename", "dirname", "du", "wc", "chmod", "chown", "touch", "mkdir", "ssh-keygen"))
#: programs that print a secret (not a file) with some option or subcommand: a secret read into the agent's
#: context (MEDIUM), and their output carries the secret on (into a network sender: HIGH). program ->
#: {option (``--x``) or subcommand (first operand): short flags one of which must be given too ("": none)}
SECRET_PRINTERS: dict[str, dict[str, str]] = {
    "gpg": {"--export-secret-keys": "", "--export-secret-subkeys": "", "--export-secret-key": "",
            "--export-secret-subkey": ""},
    "gpg2": {"--export-secret-keys": "", "--export-secret-subkeys": "", "--export-secret-key": "",
             "--export-secret-subkey": ""},
    # macOS Keychain: -w prints the password, -g shows it with the item's attributes; dump-keychain -d decrypts
    "security": {"find-generic-password": "wg", "find-internet-password": "wg", "dump-keychain": "d"},
    # secret managers: 1Password, HashiCorp Vault, Doppler, pass, Bitwarden, Infisical, sops
    "op": {"read": "", "inject": "", "item get": "", "document get": ""},
    "vault": {"read": "", "kv get": "", "kv list": "", "token lookup": "", "print token": ""},
    "doppler": {"secrets": ""},
    "pass": {"show": "", "--clip": ""},
    "bw": {"get": "", "export": ""},
    "infisical": {"export": "", "secrets": ""},
    "sops": {"-d": "", "--decrypt": "", "decrypt": ""},
}
#: words of HTTP header names that carry credentials (a secret variable there is a credential used as meant:
#: ``-H "Authorization: Bearer $TOKEN"``); a secret variable in any other header or in the URL is sent out (HIGH)
AUTH_HEADER_WORDS = ("auth", "token", "key", "secret", "cookie", "session", "password", "credential", "signature")
#: gh/glab commands that print a token (MEDIUM; the output carries it on)
FORGE_TOKEN_PRINTERS = frozenset((("auth", "token"), ("config", "get")))
#: docker inspect --format templates that print a container's environment
DOCKER_ENV_FORMATS = (".Config.Env", ".Env")
#: git commands that show file contents (a secret file among their paths is a secret read)
GIT_CONTENT_READS = frozenset(("diff", "blame", "annotate", "grep", "diff-files", "diff-index", "diff-tree"))
HTTP_METHODS = frozenset(("GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"))
HTTP_METHOD_TIERS = {"GET": S, "HEAD": S, "OPTIONS": S, "POST": M, "PUT": M, "PATCH": M, "DELETE": H}
PROD_WORDS = frozenset(("prod", "production", "prd", "live"))
PROD_REMOTES = frozenset(("heroku", "production", "prod"))
#: branches whose deletion on a remote (``git push -d origin main``, ``git push origin :main``) is HIGH; other
#: remote branch deletions are MEDIUM like any push
PROTECTED_BRANCHES = frozenset(("main", "master", "production", "prod", "trunk", "release", "stable", "develop",
                                "live", "gh-pages"))
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
PUBLISHERS = {
    "npm": ("publish",), "pnpm": ("publish",), "yarn": ("publish", "npm"), "bun": ("publish",),
    "twine": ("upload",), "cargo": ("publish",), "gem": ("push",), "docker": ("push",), "podman": ("push",),
    "buildah": ("push",), "poetry": ("publish",), "uv": ("publish",), "flit": ("publish",), "hatch": ("publish",),
    "pdm": ("publish",), "mvn": ("deploy",), "gradle": ("publish",), "dotnet": ("nuget",), "nuget": ("push",),
    "vsce": ("publish",), "ovsx": ("publish",), "crane": ("push",), "skopeo": ("copy",),
    "jsr": ("publish",), "deno": ("publish",), "helm": ("push", "cm-push"),
}
#: options of image builds that push the result to a registry (``docker buildx build --push``): a publish
BUILD_PUSH_OPTIONS = frozenset(("--push",))
#: values of ``--output``/``-o`` of image builds that push (``type=registry``, ``type=image,push=true``)
BUILD_PUSH_OUTPUTS = ("type=registry", "push=true")
#: gh/glab command groups whose set/delete change CI secrets or variables (HIGH)
FORGE_SECRET_GROUPS = frozenset(("secret", "variable"))
#: package installers: program -> subcommands that install (None: any use installs)
INSTALLERS = {
    "pip": ("install", "download"), "pip3": ("install", "download"), "pipx": ("install", "inject", "run"),
    "uv": ("add", "sync", "pip", "tool"), "poetry": ("add", "install", "update"), "pipenv": ("install", "sync"),
    "pdm": ("add", "install", "sync"), "conda": ("install", "create", "update"), "mamba": ("install", "create"),
    "micromamba": ("install", "create"),
    "npm": ("install", "i", "ci", "add", "isntall", "update", "up", "upgrade", "link", "in", "install-test"),
    "yarn": ("add", "install", "upgrade", "up", "dlx"), "pnpm": ("add", "install", "i", "update", "up", "dlx"),
    "bun": ("add", "install", "i", "update", "x"), "npx": None, "bunx": None,
    "apt": ("install", "upgrade", "full-upgrade", "dist-upgrade", "reinstall", "remove", "purge", "autoremove"),
    "apt-get": ("install", "upgrade", "dist-upgrade", "reinstall", "remove", "purge", "autoremove", "build-dep"),
    "aptitude": ("install", "upgrade", "safe-upgrade", "full-upgrade", "remove", "purge"),
    "dpkg": ("-i", "--install", "-r", "--remove", "-P", "--purge"),
    "yum": ("install", "update", "upgrade", "remove", "erase", "reinstall", "groupinstall", "localinstall"),
    "dnf": ("install", "update", "upgrade", "remove", "erase", "reinstall", "group"),
    "zypper": ("install", "in", "update", "up", "remove", "rm", "dup"), "apk": ("add", "del", "upgrade"),
    "pacman": ("-S", "-U", "-R", "-Syu", "-Sy", "-Rs", "-Rns"), "yay": None, "paru": None,
    "brew": ("install", "reinstall", "upgrade", "tap", "uninstall", "remove", "link"),
    "port": ("install", "upgrade"), "snap": ("install", "refresh", "remove"),
    "flatpak": ("install", "update", "uninstall"), "cargo": ("install", "add", "binstall"),
    "go": ("install", "get"), "gem": ("install", "update"), "composer": ("require", "install", "update", "global"),
    "bundle": ("install", "update", "add"), "bundler": ("install", "update"), "nix-env": ("-i", "--install", "-iA"),
    "choco": ("install", "upgrade"), "winget": ("install", "upgrade"), "scoop": ("install",),
    "cpan": None, "cpanm": None, "luarocks": ("install",), "opam": ("install",), "rustup": ("install",),
    "mas": ("install",), "asdf": ("install", "plugin"), "mise": ("install", "use"), "nvm": ("install",),
    "pyenv": ("install",), "rbenv": ("install",), "deno": ("install",), "stack": ("install",),
    "cabal": ("install",), "dotnet": ("add", "tool"), "krew": ("install",),
    "easy_install": None, "pip-sync": None, "sdk": ("install",),
    "rpm": ("--install", "--upgrade", "--freshen", "--erase", "--reinstall"),
}
#: installers whose mode is the first letter of a short-option cluster (``rpm -ivh``, ``rpm -Uvh``; ``rpm -qi``
#: is a query): program -> the mode letters that install or remove
INSTALLER_MODE_LETTERS = {"rpm": "iUFe"}
#: script operands that are code fetched from the network (``deno run https://…``, ``uvx --from git+https://…``)
REMOTE_CODE_PREFIXES = ("http://", "https://", "ftp://", "git+", "github:", "gitlab:", "bitbucket:", "gist:")
#: paths that are a program's standard input (``curl … | source /dev/stdin``)
STDIN_PATHS = frozenset(("/dev/stdin", "/proc/self/fd/0", "/dev/fd/0"))
#: downloaders besides curl/wget: program -> options naming the file written (``aria2c URL -o x.sh``)
DOWNLOADERS = {"aria2c": ("-o", "--out"), "axel": ("-o", "--output"), "lwp-download": (), "wget2": ("-O",),
               "fetch": ("-o",), "ftp": ("-o",), "gdown": ("-O", "--output")}
#: words of PowerShell text that download (``iex (iwr …)``, ``DownloadString``)
PWSH_DOWNLOAD_WORDS = ("iwr", "invoke-webrequest", "invoke-restmethod", "irm", "downloadstring", "downloadfile",
                       "net.webclient", "curl", "wget")
#: programs that fetch a package and run its command (the command counts too)
PACKAGE_RUNNERS = frozenset(("npx", "bunx", "pnpm", "yarn", "bun", "pipx", "uvx"))
#: delete programs that are always recursive (``rimraf dir``)
RECURSIVE_DELETERS = frozenset(("rimraf", "del-cli", "rmrf"))
#: git subcommands that only read (listing forms of branch/tag/remote/stash are handled in code)
GIT_READ = frozenset((
    "status", "log", "diff", "show", "blame", "annotate", "grep", "shortlog", "describe", "rev-parse", "rev-list",
    "ls-files", "ls-tree", "ls-remote", "cat-file", "reflog", "whatchanged", "help", "version", "show-ref",
    "show-branch", "for-each-ref", "merge-base", "name-rev", "cherry", "count-objects", "fsck", "verify-commit",
    "verify-tag", "check-ignore", "check-attr", "var", "diff-tree", "diff-files", "diff-index", "range-diff",
    "--version",
))
GIT_GLOBAL_WITH_ARG = frozenset(("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path",
                                 "--super-prefix", "--config-env"))
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
SYSTEMCTL_TIERS = {
    "status": S, "show": S, "cat": S, "list-units": S, "list-unit-files": S, "list-timers": S, "list-sockets": S,
    "list-jobs": S, "list-dependencies": S, "list-machines": S, "is-active": S, "is-enabled": S, "is-failed": S,
    "is-system-running": S, "help": S, "get-default": S, "show-environment": S, "--version": S,
    "start": M, "restart": M, "reload": M, "enable": M, "reload-or-restart": M, "try-restart": M,
    "try-reload-or-restart": M, "daemon-reload": M, "daemon-reexec": M, "reset-failed": M, "edit": M,
    "set-property": M, "revert": M, "preset": M, "reenable": M, "link": M, "unmask": M, "set-default": H,
    "stop": H, "disable": H, "mask": H, "kill": H, "isolate": H, "suspend": H, "hibernate": H,
    "hybrid-sleep": H, "rescue": H, "emergency": H, "default": H, "clean": H, "freeze": H,
    "poweroff": C, "reboot": C, "halt": C, "kexec": C, "soft-reboot": C, "exit": H,
}
#: systemd targets that power the machine off or cut it off (every service and the network stopped) when
#: reached now (``systemctl start reboot.target``, ``isolate rescue.target``): like ``shutdown`` (CRITICAL)
SYSTEMD_POWER_TARGETS = {"poweroff.target": C, "reboot.target": C, "halt.target": C, "kexec.target": C,
                         "soft-reboot.target": C, "ctrl-alt-del.target": C, "rescue.target": C,
                         "emergency.target": C, "shutdown.target": C, "final.target": C,
                         "sleep.target": H, "suspend.target": H, "hibernate.target": H, "hybrid-sleep.target": H}
#: systemctl verbs that reach a unit now (or at every boot: set-default)
SYSTEMCTL_ACTIVATE = frozenset(("start", "restart", "isolate", "reload-or-restart", "try-restart",
                                "try-reload-or-restart", "set-default"))
#: special chmod bits (a program that runs as its owner or group): setuid is HIGH (root-owned: privilege
#: escalation), setgid MEDIUM (also set on shared directories)
CHMOD_SPECIAL_BITS = {"setuid": H, "setgid": M}
SERVICE_ACTION_TIERS = {"status": S, "start": M, "restart": M, "reload": M, "force-reload": M, "condrestart": M,
                        "try-restart": M, "stop": H, "force-stop": H, "--status-all": S, "disable": H, "enable": M}
DOCKER_TIERS = {
    # (subcommand, object-subcommand) -> tier; handled flags in code
    "run": M, "create": M, "exec": M, "start": M, "restart": M, "stop": M, "kill": M, "pause": M, "unpause": M,
    "rm": L, "rmi": L, "build": L, "buildx": L, "pull": L, "tag": L, "save": L, "load": L, "import": L,
    "export": L, "commit": L, "cp": L, "login": L, "logout": L, "update": M, "rename": L, "attach": M,
    "wait": S, "init": L, "scout": S, "sbom": S, "context": L, "trust": L, "swarm": H, "node": M, "service": M,
    "stack": M, "secret": H, "plugin": M, "checkpoint": M, "manifest": L, "push": H, "up": M, "down": M,
    "compose": M, "prune": H, "network": L, "volume": L, "image": L, "container": M, "system": L, "builder": L,
}
NO_DRY_RUN = frozenset(("rm", "rmdir", "unlink", "dd", "shred", "wipefs", "chmod", "chown", "chgrp", "kill",
                        "killall", "pkill", "killall5", "shutdown", "reboot", "halt", "poweroff", "find", "mv",
                        "cp", "tee", "truncate", "srm", "blkdiscard", "init", "telinit", "curl", "wget", "eval",
                        "source", ".", "sh", "bash", "zsh", "dash", "ksh", "python", "python3", "perl", "ruby",
                        "node", "sgdisk", "mke2fs", "crontab", "iptables", "ufw"))
# rsync/ssh/scp options taking an argument
SSH_OPTS_WITH_ARG = frozenset("BbcDEeFIiJLlmOopQRSWw")
#: ssh -o options whose value is a command (run locally; RemoteCommand on the host)
SSH_COMMAND_OPTIONS = frozenset(("proxycommand", "localcommand", "knownhostscommand", "remotecommand"))
#: git config keys whose value is a shell command (also pager.*, alias.*/credential.* starting with "!")
GIT_COMMAND_KEYS = frozenset(("core.sshcommand", "core.pager", "core.editor", "core.fsmonitor", "core.askpass",
                              "core.gitproxy", "sequence.editor", "diff.external", "gpg.program",
                              "gpg.ssh.program", "gpg.x509.program", "uploadpack.packobjectshook",
                              "web.browser", "instaweb.httpd", "sendemail.smtpserver",
                              "sendemail.tocmd", "sendemail.cccmd"))
GIT_COMMAND_KEY_SUFFIXES = (".textconv", ".command", ".driver", ".cmd", ".clean", ".smudge", ".process",
                            ".uploadpack", ".receivepack")
#: environment variables whose value is a command some program runs (GIT_SSH_COMMAND=… git fetch)
COMMAND_VARS = frozenset(("GIT_SSH_COMMAND", "GIT_SSH", "GIT_PAGER", "PAGER", "GIT_EDITOR", "EDITOR", "VISUAL",
                          "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND",
                          "PROMPT_COMMAND", "LESSOPEN", "LESSCLOSE", "MANPAGER", "SYSTEMD_PAGER",
                          "GIT_SEQUENCE_EDITOR", "SUDO_ASKPASS", "RSYNC_RSH", "CVS_RSH", "BROWSER"))
SCP_OPTS_WITH_ARG = frozenset("cFiJloPSXD")
RSYNC_OPTS_WITH_ARG = frozenset("eBfTM")
CURL_OPTS_WITH_ARG = frozenset("AbcCdDeEFHKmoPQrtTuUwxXyYz")
CURL_LONG_WITH_ARG = frozenset((
    "--data", "--data-raw", "--data-binary", "--data-urlencode", "--data-ascii", "--json", "--form",
    "--form-string", "--header", "--request", "--output", "--upload-file", "--user", "--user-agent", "--referer",
    "--cookie", "--cookie-jar", "--connect-timeout", "--max-time", "--retry", "--proxy", "--cacert", "--cert",
    "--key", "--url", "--output-dir", "--write-out", "--resolve", "--config", "--unix-socket", "--oauth2-bearer",
    "--range", "--limit-rate", "--max-filesize", "--interface", "--dns-servers", "--retry-delay",
    "--retry-max-time", "--variable", "--expand-data", "--aws-sigv4", "--cert-type", "--key-type", "--pass",
))
CURL_SEND_OPTS = frozenset(("-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "--data-ascii",
                            "--json", "-F", "--form", "--form-string", "-T", "--upload-file"))
WGET_LONG_WITH_ARG = frozenset((
    "--output-document", "--post-data", "--post-file", "--method", "--body-data", "--body-file", "--header",
    "--user", "--password", "--directory-prefix", "--output-file", "--append-output", "--tries", "--timeout",
    "--user-agent", "--input-file", "--load-cookies", "--save-cookies", "--referer", "--wait",
))
WGET_OPTS_WITH_ARG = frozenset("OoaPtTiUwQeDIXAR")

# ------------------------------------------------------------------------------------ action words
ACTION_EXACT: dict[str, Tier] = {
    "read_file": S, "search_files": S, "web_search": S, "session_search": S, "list_files": S,
    "get_file_content": S, "memory_search": S, "skills_list": S, "skills_search": S,
    "write_file": L, "create_file": L, "patch_file": L, "delete_file": L, "execute_code": L, "run_script": L,
    "skill_install": L,
    "send_message": M, "web_fetch": M, "browser_navigate": M, "api_call": M, "gitea_create_issue": M,
    "gitea_create_pr": M, "git_push": M, "deploy": M,
    "config_change": H, "env_change": H, "key_rotation": H, "access_grant": H, "permission_change": H,
    "backup_restore": H,
    "kill_process": C, "rm_rf": C, "format_disk": C, "shutdown": C, "crisis_override": C,
}
ACTION_WORDS: dict[str, Tier] = {}
for _t, _ws in (
    (S, "read search list query get show describe inspect view check status log diff count info find"),
    (L, "write edit patch create update move copy mkdir script test lint format_code build comment label"),
    (M, "message send email notify webhook post release commit push pr pull_request merge_request merge install "
        "fetch invite deploy restart start stop scale"),
    (H, "config crypto key secret credential password auth permission grant role admin iam policy firewall dns "
        "database migration migrate systemd payment pay charge refund transfer withdraw billing production prod "
        "publish"),
    (C, "shutdown reboot poweroff destroy wipe nuke self_modify shut_down power_off"),
):
    for _w in _ws.split():
        ACTION_WORDS[_w] = _t
REMOVAL_VERBS: dict[str, Tier] = {"delete": H, "remove": H, "drop": H, "purge": H, "truncate": H, "terminate": H,
                                  "revoke": H, "kill": H, "erase": H, "unlink": H, "rmdir": H, "rm": H, "destroy": C, "wipe": C, "nuke": C}
LIGHT_OBJECTS = frozenset(("file", "dir", "folder", "branch", "tmp", "temp", "cache", "draft", "comment", "label",
                           "tag", "message", "session", "log"))
SHELL_WORDS = frozenset(("terminal", "shell", "bash", "sh", "zsh", "cmd", "command", "exec"))
DATABASE_WORDS = frozenset(("sql", "db", "database", "postgres", "mysql", "sqlite", "bigquery", "snowflake"))
CODE_WORDS = frozenset(("run", "execute", "eval", "script", "code", "deploy"))
#: words that make an action write, move or delete the path in its command
PATH_WRITE_VERBS = frozenset(("write", "create", "patch", "edit", "delete", "remove", "move", "copy", "rename",
                              "append", "overwrite", "save", "replace", "mkdir", "touch", "rm", "mv", "cp", "put",
                              "upload", "str_replace", "insert", "update"))
PATH_READ_VERBS = frozenset(("read", "get", "view", "open", "cat", "show", "load", "head", "tail", "preview"))
PATH_OBJECTS = frozenset(("file", "dir", "directory", "folder", "path", "content", "text", "notebook", "document",
                          "doc", "contents"))
#: multi-word entries of the word list, matched on consecutive words
WORD_PAIRS = frozenset(("format_code", "self_modify", "pull_request", "merge_request", "shut_down", "power_off",
                        "force_push", "hard_reset", "reset_hard"))
for _w in ("force_push", "hard_reset", "reset_hard"):
    ACTION_WORDS[_w] = H
#: words of an MCP tool that run what the server is about (mcp__postgres__query is a database action,
#: mcp__terminal__run a shell action)
SERVER_RUN_WORDS = frozenset(("query", "run", "execute", "exec", "statement", "sql", "eval", "command", "write",
                              "call"))
#: action words under which a command that starts with a SQL statement keyword is read as SQL
SQL_RUN_WORDS = frozenset(("query", "run", "execute", "exec", "statement", "eval", "code", "script"))
SQL_STATEMENT_WORDS = frozenset(("select", "insert", "update", "delete", "drop", "truncate", "alter", "create",
                                 "grant", "revoke", "merge", "replace", "with", "copy", "rename", "upsert"))
#: programs an action is named after besides its own words (http_request given `curl -X DELETE …`)
_HTTP_PROGRAMS = ("curl", "wget", "http", "https", "xh", "httpie")
ACTION_PROGRAMS: dict[str, tuple] = {
    "http": _HTTP_PROGRAMS, "https": _HTTP_PROGRAMS, "api": _HTTP_PROGRAMS, "request": _HTTP_PROGRAMS,
    "fetch": _HTTP_PROGRAMS, "webhook": _HTTP_PROGRAMS, "rest": _HTTP_PROGRAMS, "url": _HTTP_PROGRAMS,
    "web": _HTTP_PROGRAMS, "curl": _HTTP_PROGRAMS,
}
