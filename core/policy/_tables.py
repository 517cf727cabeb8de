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
    "coproc": (frozenset(), 0, S),  # `coproc CMD` runs CMD (in the background)
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
    "R": ("e", frozenset("f")), "expect": ("c", frozenset("fD")), "jrunscript": ("e", frozenset("lfq")),
    "jjs": ("", frozenset()), "wish": ("", frozenset()),
}
#: the language of each interpreter's inline code (for the calls :mod:`core.policy._pycode` reads)
INTERPRETER_LANGS = {
    "python": "python", "python2": "python", "python3": "python", "pypy": "python", "pypy3": "python",
    "perl": "perl", "ruby": "ruby", "node": "node", "nodejs": "node", "deno": "node", "bun": "node",
    "php": "php", "lua": "lua", "luajit": "lua", "ipython": "python", "ipython3": "python", "irb": "ruby",
    "tclsh": "tcl", "wish": "tcl", "expect": "tcl", "Rscript": "r", "R": "r", "julia": "julia",
    "groovy": "java", "jshell": "java", "jrunscript": "java", "jjs": "java",
}
PYTHONS = frozenset(("python", "python2", "python3", "pypy", "pypy3"))
LONG_CODE_FLAGS = frozenset(("--eval", "--print", "--command", "-Command", "-command"))
SQL_CLIENTS = frozenset(("psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "sqlcmd", "clickhouse-client",
                         "clickhouse", "cockroach", "snowsql", "bq", "usql", "pgcli", "mycli", "litecli", "trino",
                         "presto", "spark-sql", "hive", "beeline", "isql", "osql", "db2", "sqlplus", "vsql",
                         "cqlsh"))
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
DB_DROPPERS = {"dropdb": "a database", "dropuser": "a database role", "pg_dropcluster": "a PostgreSQL cluster"}
#: PostgreSQL client tools that change a database: program -> (options that make it HIGH, what they do, what the
#: tool does otherwise: MEDIUM)
DB_CHANGERS = {
    "createuser": (frozenset(("-s", "--superuser", "--createrole", "--replication")),
                   "creates a superuser or privileged role, like GRANT", "creates a database role, like SQL CREATE"),
    "pg_restore": (frozenset(("-c", "--clean")), "drops database objects before restoring, like DROP",
                   "restores into a database"),
    "createdb": (frozenset(), "", "creates a database, like SQL CREATE"),
}
#: Kubernetes distributions whose subcommand runs a bundled tool (``microk8s kubectl delete ns prod``)
K8S_BUNDLES = {"microk8s": frozenset(("kubectl", "helm", "helm3", "ctr")), "minikube": frozenset(("kubectl",)),
               "k0s": frozenset(("kubectl", "ctr")), "kind": frozenset()}
USER_ADMIN = frozenset(("useradd", "userdel", "usermod", "groupadd", "groupdel", "groupmod", "passwd", "chpasswd",
                        "adduser", "deluser", "addgroup", "delgroup", "visudo", "vipw", "chage", "gpasswd",
                        "dscl", "sysadminctl"))
FIREWALLS = frozenset(("iptables", "ip6tables", "iptables-legacy", "iptables-nft", "nft", "ufw", "firewall-cmd",
                       "pfctl", "ebtables", "arptables", "iptables-restore", "ip6tables-restore",
                       "iptables-legacy-restore", "iptables-nft-restore"))
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
    # forges' tokens, and deploy platforms' config variables (database URLs, API keys), printed or pulled into a
    # local .env file (these programs have handlers of their own, which ask this table first)
    "gh": {"auth token": "", "config get": ""},
    "glab": {"auth token": "", "config get": ""},
    "heroku": {"config": "", "config:get": ""},
    "vercel": {"env": ""},
    "netlify": {"env:list": "", "env:get": ""},
    "firebase": {"functions:config:get": ""},
    "railway": {"variables": ""},
}
#: words of HTTP header names that carry credentials (a secret variable there is a credential used as meant:
#: ``-H "Authorization: Bearer $TOKEN"``); a secret variable in any other header or in the URL is sent out (HIGH)
AUTH_HEADER_WORDS = ("auth", "token", "key", "secret", "cookie", "session", "password", "credential", "signature")
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
#: publishing to a registry (HIGH): program -> its publish commands (None: any use publishes). An entry is the
#: subcommand, or the subcommand and a word or option that must be among its arguments too (``owner add``,
#: ``owner --add``): unpublishing, yanking, deprecating, retagging and ownership changes of a published
#: package count as publishing
PUBLISHERS = {
    "npm": ("publish", "unpublish", "deprecate", "undeprecate", "dist-tag add", "dist-tag rm", "dist-tag remove",
            "owner add", "owner rm", "owner remove", "access grant", "access revoke", "access set",
            "access public", "access restricted"),
    "pnpm": ("publish", "unpublish", "deprecate", "dist-tag add", "dist-tag rm", "owner add", "owner rm"),
    "yarn": ("publish", "npm publish", "npm tag add", "npm tag remove", "unpublish", "owner add", "owner remove",
             "tag add", "tag remove"),
    "bun": ("publish",),
    "twine": ("upload", "register"), "cargo": ("publish", "yank", "owner --add", "owner -a", "owner --remove",
                                               "owner -r"),
    "gem": ("push", "yank", "owner --add", "owner -a", "owner --remove", "owner -r"),
    "goreleaser": ("release", ""), "semantic-release": None, "changeset": ("publish",), "lerna": ("publish",),
    "mix": ("hex.publish", "hex.retire", "hex.owner"), "swift": ("package-registry publish",),
    "docker": ("push",), "podman": ("push",),
    "buildah": ("push",), "poetry": ("publish",), "uv": ("publish",), "flit": ("publish",), "hatch": ("publish",),
    "pdm": ("publish",), "dotnet": ("nuget",), "nuget": ("push",),
    "vsce": ("publish",), "ovsx": ("publish",), "crane": ("push",), "skopeo": ("copy",),
    "jsr": ("publish",), "deno": ("publish",), "helm": ("push", "cm-push"),
}
#: build tools that run a list of tasks: program -> prefixes of the tasks that publish to a remote repository
#: (a task may be named with its project path, ``:lib:publish``), and the tasks with those prefixes that only
#: publish locally
PUBLISH_TASKS: dict[str, tuple[tuple, tuple]] = {
    "gradle": (("publish", "uploadArchives", "bintrayUpload", "artifactoryPublish"),
               ("publishToMavenLocal", "publishAllPublicationsToMavenLocal")),
    "mvn": (("deploy", "release:perform", "deploy:deploy-file", "nexus-staging:release"), ()),
}
for _p in ("gradlew", "gradlew.bat"):
    PUBLISH_TASKS[_p] = PUBLISH_TASKS["gradle"]
for _p in ("mvnw", "mvnw.cmd"):
    PUBLISH_TASKS[_p] = PUBLISH_TASKS["mvn"]
#: scripts whose commands publish: script name -> commands (``python setup.py sdist upload``)
SCRIPT_PUBLISHERS = {"setup.py": frozenset(("upload", "register", "upload_docs"))}
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
                                 "--super-prefix", "--config-env", "--attr-source", "--list-cmds"))
#: git's options before the subcommand that take no value (another option followed by a word may take it as
#: its value: the command after that word counts too)
GIT_GLOBAL_FLAGS = frozenset(("-p", "--paginate", "-P", "--no-pager", "--no-replace-objects", "--bare",
                              "--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
                              "--no-optional-locks", "--no-lazy-fetch", "--no-advice", "-v", "--version", "-h",
                              "--help", "--html-path", "--man-path", "--info-path", "--exec-path"))
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
#: options a program takes before its subcommand: program -> (options that take a value, options that take
#: none). The subcommand is the first word after them (``helm -n prod uninstall api`` is ``helm uninstall``,
#: ``pulumi -s prod destroy`` is ``pulumi destroy``). An option in neither set may take the next word as its
#: value or not: both readings count and the higher tier decides (``helm --x get uninstall a`` is an uninstall
#: when --x takes no value)
_K8S_WITH_ARG = ("--kubeconfig", "--context", "--kube-context", "--cluster", "--user", "--token", "--as",
                 "--as-group", "--certificate-authority", "--client-certificate", "--client-key", "--server",
                 "--request-timeout", "--cache-dir", "--tls-server-name", "--as-uid", "--log-file")
_JS_FLAGS = ("-g", "--global", "-s", "--silent", "-q", "--quiet", "--verbose", "-y", "--yes", "--json",
             "--offline", "--prefer-offline", "--prefer-online", "-f", "--force", "--ignore-scripts", "--no-color",
             "--frozen-lockfile", "--production", "--prod", "-D", "--dev", "-P", "-h", "--help")
_NPM_WITH_ARG = ("--prefix", "-C", "-w", "--workspace", "--registry", "--userconfig", "--globalconfig", "--cache",
                 "--loglevel", "--tag", "--access", "--otp", "--scope", "--include", "--omit", "--before",
                 "--script-shell", "--node-options", "--auth-type", "--cafile", "--proxy", "--https-proxy")
_NPM_FLAGS = _JS_FLAGS + ("-d", "-dd", "-ddd", "-ws", "--workspaces", "--include-workspace-root",
                          "--legacy-peer-deps", "--if-present", "--no-audit", "--no-fund", "--no-progress")
_YARN_WITH_ARG = ("--cwd", "--modules-folder", "--cache-folder", "--global-folder", "--link-folder", "--mutex",
                  "--network-timeout", "--network-concurrency", "--use-yarnrc", "--registry", "--proxy",
                  "--https-proxy", "--otp")
_YARN_FLAGS = _JS_FLAGS + ("--immutable", "--pure-lockfile", "--non-interactive", "--ignore-engines", "-W",
                           "--ignore-workspace-root-check", "--no-progress", "--check-files", "--flat")
_PNPM_WITH_ARG = ("-C", "--dir", "--filter", "-F", "--filter-prod", "--reporter", "--store-dir",
                  "--virtual-store-dir", "--registry", "--loglevel", "--workspace-concurrency", "--test-pattern",
                  "--changed-files-ignore-pattern")
_PNPM_FLAGS = _JS_FLAGS + ("-r", "--recursive", "-w", "--workspace-root", "--stream", "--parallel", "--no-bail",
                           "--shamefully-hoist", "--aggregate-output", "--color", "--include-workspace-root",
                           "--fail-if-no-match", "--no-sort")
_BUN_WITH_ARG = ("--cwd", "-c", "--config", "--env-file", "-r", "--preload")
_BUN_FLAGS = _JS_FLAGS + ("--bun", "-b", "--watch", "--hot", "--smol", "--no-install", "-i")
GLOBAL_OPTS: dict[str, tuple[frozenset, frozenset]] = {
    "helm": (frozenset(_K8S_WITH_ARG + ("-n", "--namespace", "--kube-apiserver", "--kube-as-user",
                                        "--kube-as-group", "--kube-ca-file", "--kube-token", "--kube-tls-server-name",
                                        "--registry-config", "--repository-cache", "--repository-config",
                                        "--burst-limit", "--qps", "--content-cache")),
             frozenset(("--debug", "--kube-insecure-skip-tls-verify", "-h", "--help"))),
    "pulumi": (frozenset(("-C", "--cwd", "-s", "--stack", "--color", "--tracing", "--tracing-header",
                          "--memprofilerate", "--profiling", "--config-file", "--logflow-file", "--otel-traces",
                          "-v", "--verbose")),
               frozenset(("--non-interactive", "--logflow", "--logtostderr", "-e", "--emoji", "-y", "--yes",
                          "--skip-preview", "-f", "--disable-integrity-checking", "--debug", "--diff", "--fully-qualify-stack-names", "--suppress-outputs", "--json", "-j"))),
    "cdk": (frozenset(("-a", "--app", "-c", "--context", "-p", "--plugin", "--profile", "--proxy",
                       "--ca-bundle-path", "-o", "--output", "-r", "--role-arn", "--toolkit-stack-name",
                       "--require-approval", "-b", "--build", "--ci-notices", "--unstable")),
            frozenset(("-j", "--json", "-v", "--verbose", "--debug", "--ec2creds", "--strict", "--ignore-errors",
                       "--lookups", "--asset-metadata", "--path-metadata", "--staging", "--no-color", "--ci",
                       "--notices", "--no-notices", "-f", "--force", "--all", "--version-reporting"))),
    "npm": (frozenset(_NPM_WITH_ARG), frozenset(_NPM_FLAGS)),
    "yarn": (frozenset(_YARN_WITH_ARG), frozenset(_YARN_FLAGS)),
    "pnpm": (frozenset(_PNPM_WITH_ARG), frozenset(_PNPM_FLAGS)),
    "bun": (frozenset(_BUN_WITH_ARG), frozenset(_BUN_FLAGS)),
    "cargo": (frozenset(("--color", "--config", "-Z", "-C", "--explain", "--manifest-path", "--target-dir",
                         "--target", "-j", "--jobs", "-p", "--package", "--registry", "--index", "--token")),
              frozenset(("-v", "-vv", "--verbose", "-q", "--quiet", "--frozen", "--locked", "--offline", "--list",
                         "-V", "--version", "--release", "-r", "--all-features", "--no-default-features"))),
    "gem": (frozenset(("--config-file",)), frozenset(("--backtrace", "--debug", "-q", "--quiet", "--verbose",
                                                      "--norc", "-V"))),
    "pip": (frozenset(("--proxy", "--cert", "--client-cert", "--cache-dir", "--log", "--timeout", "--retries",
                       "--exists-action", "--trusted-host", "--python", "--log-file", "--progress-bar",
                       "--use-feature", "--use-deprecated", "--keyring-provider")),
            frozenset(("-v", "-vv", "-vvv", "--verbose", "-q", "-qq", "--quiet", "--isolated", "--require-virtualenv",
                       "--no-input", "--no-cache-dir", "--disable-pip-version-check", "--no-color",
                       "--no-python-version-warning", "--debug", "-V", "--version"))),
    "poetry": (frozenset(("-C", "--directory", "-P", "--project")),
               frozenset(("-v", "-vv", "-vvv", "--verbose", "-q", "--quiet", "-n", "--no-interaction", "--ansi",
                          "--no-ansi", "--no-plugins", "--no-cache"))),
    "uv": (frozenset(("--directory", "--project", "--cache-dir", "--config-file", "--python-preference",
                      "--color", "--python", "-p", "--index-url", "--allow-insecure-host")),
           frozenset(("-q", "--quiet", "-v", "--verbose", "--no-cache", "-n", "--offline", "--no-progress",
                      "--native-tls", "--no-config", "--frozen", "--locked", "--preview", "--no-python-downloads"))),
    "docker": (frozenset(("-H", "--host", "--context", "-c", "--config", "--log-level", "-l", "--tlscacert",
                          "--tlscert", "--tlskey")),
               frozenset(("-D", "--debug", "--tls", "--tlsverify", "-v", "--version", "-h", "--help"))),
    "podman": (frozenset(("--url", "--connection", "-c", "--identity", "--root", "--runroot", "--storage-driver",
                          "--storage-opt", "--log-level", "--cgroup-manager", "--conmon", "--events-backend",
                          "--hooks-dir", "--network-cmd-path", "--network-config-dir", "--runtime",
                          "--runtime-flag", "--tmpdir", "--volumepath", "--module", "--imagestore", "--ssh",
                          "--out", "--config", "--cni-config-dir", "--db-backend")),
               frozenset(("-r", "--remote", "--syslog", "--debug", "-D", "--noout", "--transient-store",
                          "-v", "--version", "-h", "--help"))),
    "nerdctl": (frozenset(("-H", "--host", "--address", "-a", "-n", "--namespace", "--snapshotter",
                           "--cni-path", "--cni-netconfpath", "--data-root", "--cgroup-manager", "--hosts-dir",
                           "--storage-driver")),
                frozenset(("--debug", "--debug-full", "--insecure-registry", "-v", "--version", "-h", "--help"))),
    "crictl": (frozenset(("-r", "--runtime-endpoint", "-i", "--image-endpoint", "-t", "--timeout", "-c",
                          "--config")),
               frozenset(("-D", "--debug", "-v", "--version", "-h", "--help"))),
    "ctr": (frozenset(("-a", "--address", "-n", "--namespace", "--timeout", "--connect-timeout")),
            frozenset(("--debug", "-v", "--version", "-h", "--help"))),
    "kubectl": (frozenset(_K8S_WITH_ARG + ("-n", "--namespace", "-s", "-v", "--v", "--profile",
                                           "--profile-output", "--password", "--username", "--vmodule")),
                frozenset(("--insecure-skip-tls-verify", "--match-server-version", "--warnings-as-errors",
                           "--disable-compression", "-A", "--all-namespaces", "-h", "--help"))),
    "terraform": (frozenset(), frozenset(("-help", "--help", "-version", "--version", "-v"))),
    "http": (frozenset(("-a", "--auth", "-A", "--auth-type", "-o", "--output", "--session", "--session-read-only",
                        "--verify", "--cert", "--cert-key", "--cert-key-pass", "--proxy", "--timeout",
                        "--max-redirects", "-s", "--style", "--pretty", "-p", "--print", "--format-options",
                        "--response-charset", "--response-mime", "--ssl", "--ciphers", "--default-scheme",
                        "--boundary", "--raw", "--max-headers", "--unsorted", "--bearer", "--resolve",
                        "--interface", "--local-port", "--http-version", "-P", "--history-print")),
             frozenset(("-j", "--json", "-f", "--form", "--multipart", "-v", "--verbose", "-h", "--headers",
                        "-b", "--body", "-m", "--meta", "-q", "--quiet", "-d", "--download", "-c", "--continue",
                        "-F", "--follow", "--all", "--offline", "--chunked", "-x", "--compress", "-S", "--stream",
                        "-I", "--ignore-stdin", "--check-status", "--ignore-netrc", "--path-as-is", "--sorted",
                        "--https", "--http1", "--http2", "--http3", "--debug", "--traceback", "--help",
                        "--version", "--no-check-status", "--native-tls", "--curl", "--curl-long"))),
    "docker-compose": (frozenset(("-f", "--file", "-p", "--project-name", "--project-directory", "--env-file",
                                  "--profile", "--ansi", "--progress", "--parallel", "-H", "--host", "--context",
                                  "--log-level")),
                       frozenset(("--verbose", "--compatibility", "--dry-run", "--all-resources", "--no-ansi",
                                  "-v", "--version", "-h", "--help", "--skip-hostname-check", "--tls",
                                  "--tlsverify"))),
    "gh": (frozenset(("-R", "--repo", "--hostname")), frozenset(("--help", "--version", "-h"))),
    "bq": (frozenset(("--project_id", "--dataset_id", "--location", "--format", "--api", "--api_version",
                      "--credential_file", "--service_account", "--service_account_credential_file",
                      "--apilog", "--job_id", "--max_rows_per_request", "--trace", "--httplib2_debuglevel",
                      "--bigqueryrc", "--ca_certificates_file", "--proxy_address", "--proxy_port",
                      "--universe_domain", "--job_property")),
           frozenset(("-q", "--quiet", "--headless", "--noheadless", "--synchronous_mode", "--nosynchronous_mode",
                      "--enable_gdrive", "--noenable_gdrive", "--debug_mode", "--nodebug_mode", "--use_gce_service_account",
                      "--fingerprint_job_id", "--nofingerprint_job_id", "--help", "--version"))),
    "systemctl": (frozenset(("-H", "--host", "-M", "--machine", "-t", "--type", "-p", "--property", "--state",
                             "-s", "--signal", "--kill-whom", "--kill-value", "--root", "--image", "-n", "--lines",
                             "-o", "--output", "--job-mode", "--what", "--timestamp", "--preset-mode",
                             "--boot-loader-entry", "--boot-loader-menu", "--message", "--when", "--legend",
                             "--check-inhibitors", "--image-policy", "--drop-in", "--reboot-argument")),
                  frozenset(("--user", "--system", "--global", "--no-pager", "--now", "-q", "--quiet", "-a",
                             "--all", "-l", "--full", "--failed", "--no-block", "--no-legend", "-f", "--force",
                             "--runtime", "--no-reload", "--no-ask-password", "--plain", "-r", "--recursive",
                             "--show-types", "--value", "--wait", "--no-wall", "-i", "--ignore-inhibitors",
                             "--firmware-setup", "--reverse", "--after", "--before", "--with-dependencies",
                             "--show-transaction", "-T", "--marked", "--read-only", "--mkdir", "-h", "--help"))),
    "loginctl": (frozenset(("-H", "--host", "-M", "--machine", "-p", "--property", "-s", "--signal",
                            "--kill-whom", "-n", "--lines", "-o", "--output")),
                 frozenset(("--no-pager", "--no-legend", "--no-ask-password", "-a", "--all", "-l", "--full",
                            "--value", "-i", "--ignore-inhibitors", "-h", "--help", "-j", "--json"))),
    "redis-cli": (frozenset(("-h", "-p", "-s", "-a", "-u", "-r", "-i", "-n", "-d", "-D", "--user", "--pass",
                             "--cacert", "--cacertdir", "--cert", "--key", "--tls-ciphers", "--tls-ciphersuites",
                             "--sni", "--pattern", "--count", "--rdb", "--functions-rdb", "--pipe-timeout",
                             "--memkeys-samples", "--eval", "-t")),
                  frozenset(("-c", "-e", "-x", "-X", "--raw", "--no-raw", "--no-auth-warning", "--tls",
                             "--insecure", "--csv", "--json", "--quoted-json", "--quoted-input", "--verbose", "-2",
                             "-3", "--askpass", "--scan", "--bigkeys", "--memkeys", "--hotkeys", "--stat",
                             "--latency", "--latency-history", "--latency-dist", "--pipe", "--no-pager",
                             "--show-pushes", "--help", "--version", "-v"))),
    "terragrunt": (frozenset(("--terragrunt-working-dir", "--terragrunt-config", "--terragrunt-source",
                              "--terragrunt-source-map", "--terragrunt-iam-role", "--terragrunt-download-dir",
                              "--terragrunt-log-level", "--terragrunt-parallelism", "--terragrunt-include-dir",
                              "--terragrunt-exclude-dir", "--terragrunt-tfpath", "--terragrunt-iam-assume-role",
                              "--working-dir", "--config", "--source", "--source-map", "--iam-assume-role",
                              "--download-dir", "--log-level", "--parallelism", "--queue-include-dir",
                              "--queue-exclude-dir", "--tf-path", "--log-format", "--iam-role")),
                   frozenset(("--terragrunt-non-interactive", "--terragrunt-ignore-dependency-errors",
                              "--terragrunt-no-auto-init", "--terragrunt-debug", "--non-interactive",
                              "--no-auto-init", "--all", "--help", "-help", "--version", "-version"))),
    "argocd": (frozenset(("--server", "--auth-token", "--config", "--header", "-H", "--kube-context",
                          "--port-forward-namespace", "--loglevel", "--logformat", "--client-crt",
                          "--client-crt-key", "--server-crt", "--server-name", "--redis-name",
                          "--repo-server-name", "--redis-haproxy-name", "--http-retry-max", "--grpc-web-root-path")),
               frozenset(("--grpc-web", "--insecure", "--plaintext", "--port-forward", "--core", "-h", "--help"))),
}
for _p in ("tofu", "terramate"):
    GLOBAL_OPTS[_p] = GLOBAL_OPTS["terraform"]
for _p in ("https", "xh", "xhs", "httpie"):
    GLOBAL_OPTS[_p] = GLOBAL_OPTS["http"]
GLOBAL_OPTS["podman-compose"] = GLOBAL_OPTS["docker-compose"]
for _p in ("pip3",):
    GLOBAL_OPTS[_p] = GLOBAL_OPTS["pip"]
for _p in ("oc", "k", "microk8s.kubectl"):
    GLOBAL_OPTS[_p] = GLOBAL_OPTS["kubectl"]
#: more than this many options of unknown shape before a subcommand: its readings are not all followed
MAX_OPTION_READINGS = 6
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
#: programs read by their action word (service managers other than systemctl/service, database server admin):
#: program -> (options that take a value, index of the action among the operands (None: every operand is an
#: action), {action, or option that is one: tier} ("" when none is given), tier of other actions, what the
#: program is). The highest action named decides.
_LAUNCHCTL = {"stop": H, "unload": H, "bootout": H, "remove": H, "disable": H, "kill": H, "reboot": C,
              "load": M, "bootstrap": M, "start": M, "kickstart": M, "enable": M, "submit": M, "setenv": M,
              "unsetenv": M, "config": H, "list": S, "print": S, "print-cache": S, "print-disabled": S,
              "blame": S, "dumpstate": S, "help": S, "version": S, "managerpid": S, "manageruid": S,
              "managername": S, "error": S, "getenv": S, "hostinfo": S, "resolveport": S, "": S}
_SV = {"status": S, "s": S, "check": S, "": S, "stop": H, "down": H, "d": H, "kill": H, "k": H, "exit": H, "x": H,
       "term": H, "t": H, "quit": H, "q": H, "force-stop": H, "force-shutdown": H, "shutdown": H,
       "start": M, "up": M, "u": M, "restart": M, "reload": M, "once": M, "o": M, "hup": M, "h": M}
VERB_TABLES: dict[str, tuple] = {
    "launchctl": (frozenset(), 0, _LAUNCHCTL, M, "macOS service manager"),
    "sv": (frozenset(("-w",)), 0, _SV, M, "runit service control"),
    "update-rc.d": (frozenset(), 1, {"remove": H, "disable": H, "enable": M, "defaults": M, "defaults-disabled": M,
                                     "": L}, M, "SysV service links"),
    "chkconfig": (frozenset(("--level",)), 1, {"off": H, "--del": H, "on": M, "--add": M, "reset": M,
                                                "--override": M, "--list": S, "": S}, M, "SysV service control"),
    "rc-update": (frozenset(), 0, {"del": H, "delete": H, "add": M, "update": M, "show": S, "": S}, M,
                  "OpenRC service control"),
    "mysqladmin": (frozenset(("-u", "--user", "-h", "--host", "-P", "--port", "-S", "--socket", "-c", "--count",
                              "-i", "--sleep", "-O", "--set-variable", "--defaults-file", "--defaults-extra-file",
                              "--default-character-set", "--plugin-dir", "--default-auth", "--protocol",
                              "--login-path", "--connect-timeout", "--shutdown-timeout", "--ssl-ca", "--ssl-cert",
                              "--ssl-key", "--ssl-mode", "--character-sets-dir")), None,
                   {"drop": H, "shutdown": H, "password": H, "create": M, "kill": M, "start-slave": M,
                    "stop-slave": M, "start-replica": M, "stop-replica": M, "status": S, "extended-status": S,
                    "ping": S, "processlist": S, "variables": S, "version": S, "": S}, L, "MySQL server admin"),
}
for _p in ("sv", "runsvctrl"):
    VERB_TABLES.setdefault(_p, VERB_TABLES["sv"])
#: what an action does (for reasons): by program and action, else for service managers by tier
VERB_EFFECTS = {
    "mysqladmin": {"drop": "drops a database", "shutdown": "stops the database server",
                   "password": "changes a database password", "create": "creates a database",
                   "kill": "kills server threads"},
}
SERVICE_EFFECTS = {C: "reboots the machine", H: "stops, removes or disables a service", M: "starts or changes a service"}
#: D-Bus method calls (``dbus-send … org.freedesktop.login1.Manager.PowerOff``, ``busctl call … PowerOff``):
#: method name -> tier; other calls are LOW
DBUS_CLIENTS = frozenset(("dbus-send", "gdbus", "busctl", "qdbus", "qdbus6", "qdbus-qt5", "dbus"))
DBUS_METHODS = {
    "PowerOff": C, "Reboot": C, "Halt": C, "KExec": C, "PowerOffWithFlags": C, "RebootWithFlags": C,
    "HaltWithFlags": C, "KExecWithFlags": C, "ScheduleShutdown": C, "SoftReboot": C,
    "Suspend": H, "Hibernate": H, "HybridSleep": H, "SuspendThenHibernate": H, "StopUnit": H, "KillUnit": H,
    "DisableUnitFiles": H, "MaskUnitFiles": H, "TerminateSession": H, "TerminateUser": H, "KillSession": H,
    "KillUser": H, "TerminateSeat": H,
    "StartUnit": M, "RestartUnit": M, "ReloadUnit": M, "TryRestartUnit": M, "ReloadOrRestartUnit": M,
    "EnableUnitFiles": M, "StartTransientUnit": M,
}
#: programs that run one command on many hosts (like ``ssh host CMD``): program -> (options that take a value,
#: operands before the command (hosts, ``salt`` targets))
REMOTE_RUNNERS: dict[str, tuple[frozenset, int]] = {
    "pdsh": (frozenset(("-w", "-x", "-g", "-X", "-l", "-t", "-u", "-f", "-R", "-N", "-e", "-F", "-M")), 0),
    "pssh": (frozenset(("-h", "--hosts", "-H", "--host", "-l", "--user", "-p", "--par", "-o", "--outdir", "-e",
                        "--errdir", "-t", "--timeout", "-O", "--option", "-x", "--extra-args", "-X",
                        "--extra-arg")), 0),
    "clush": (frozenset(("-w", "-x", "-g", "--group", "-X", "-l", "--user", "-f", "--fanout", "-t",
                         "--connect_timeout", "-u", "--command_timeout", "-O", "--option", "-R", "--worker")), 0),
    "mosh": (frozenset(("--ssh", "-p", "--port", "--server", "--client", "--predict", "--family",
                        "--bind-server", "--experimental-remote-ip")), 1),
}
REMOTE_RUNNERS["parallel-ssh"] = REMOTE_RUNNERS["pssh"]
REMOTE_RUNNERS["dsh"] = REMOTE_RUNNERS["pdsh"]
#: salt: options that take a value; execution functions whose arguments are a shell command; functions that
#: apply configuration states (like ``ansible-playbook``: HIGH)
SALT_OPTS_WITH_ARG = frozenset(("-t", "--timeout", "-b", "--batch-size", "--batch", "--out", "--output", "-c",
                                "--config-dir", "--return", "-s", "--log-level", "-l", "--out-file",
                                "--roster-file", "--priv", "-i", "--user", "--passwd", "-d", "--delimiter"))
SALT_SHELL_FUNCS = frozenset(("cmd.run", "cmd.shell", "cmd.run_all", "cmd.run_stdout", "cmd.run_stderr",
                              "cmd.run_bg", "cmd.exec_code", "cmd.script", "cmd.retcode", "cmd.powershell"))
SALT_STATE_FUNCS = frozenset(("state.apply", "state.highstate", "state.sls", "state.single", "state.template",
                              "state.template_str", "state.sls_id"))
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
                          "GIT_SEQUENCE_EDITOR", "SUDO_ASKPASS", "RSYNC_RSH", "CVS_RSH", "BROWSER",
                          "BAT_PAGER", "DELTA_PAGER", "GH_PAGER", "GH_EDITOR", "KUBE_EDITOR", "FCEDIT",
                          "SUDO_EDITOR", "SYSTEMD_EDITOR"))
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

# ------------------------------------------------------------------- options that write or run commands
#: what an option (or an output operand) of a program does besides what the program is known for; the kinds:
FX_WRITE = "write"  # the value is a file the program writes (``sort -o FILE``)
FX_RUN = "run"  # the value is a command line the program runs (``man -P CMD``, ``tar --to-command=CMD``)
FX_BANG = "bang"  # the value is the program's own commands, where ``!CMD`` (less also ``|XCMD``) runs CMD
FX_EX = "ex"  # the value is an ex/vim command line (``:!CMD``, ``:r !CMD``, ``:w FILE``, ``system('CMD')``)
FX_ELISP = "elisp"  # the value is Emacs Lisp (``(shell-command "CMD")`` runs CMD; any Lisp runs code)
FX_KEYBIND = "keybind"  # the value binds keys to a command (``bind -x '"\C-x": CMD'``)
FX_MAKEFILE = "makefile"  # the value is a makefile (``-`` or /dev/stdin: read from stdin): recipes are commands
FX_TAR_ACTION = "tar_action"  # ``--checkpoint-action=exec=CMD`` runs CMD


def _fx(shorts: str | None = "", optional: str = "", words: tuple = (), effects: dict | None = None,
        outputs: tuple = ()) -> tuple:
    """An OPTION_EFFECTS entry: short options taking a value (None: options are whole words, never bundled),
    short options whose value can only be attached (``-I[FMT]``), options spelled in full that take a value,
    {option: effect kind, or (tier, what it does) for an option that changes the system}, and the operands
    (0-based) that are files the program writes. An option with an effect kind takes a value."""
    effects = effects or {}
    takes = set(words)
    short_takes = set(shorts or "")
    for k, v in effects.items():
        if isinstance(v, str) and k != "+":
            if len(k) == 2 and k[0] == "-" and shorts is not None:
                short_takes.add(k[1])
            else:
                takes.add(k)
    return ("".join(sorted(short_takes)) if shorts is not None else None, optional, frozenset(takes), effects,
            outputs)


_LESS = _fx("bhjkoOpPtTxyz#", words=("--log-file", "--LOG-FILE", "--tag", "--pattern", "--prompt", "--tabs",
                                     "--window", "--shift", "--lesskey-file", "--jump-target", "--max-back-scroll",
                                     "--max-forw-scroll", "--buffers", "--tag-file"),
            effects={"-o": FX_WRITE, "-O": FX_WRITE, "--log-file": FX_WRITE, "--LOG-FILE": FX_WRITE, "+": FX_BANG})
_VIM = _fx("cTuUiwWtq", optional="S", words=("--cmd", "--servername", "--startuptime", "--remote-send",
                                              "--remote-expr", "--log"),
           effects={"-c": FX_EX, "--cmd": FX_EX, "+": FX_EX, "-w": FX_WRITE, "-W": FX_WRITE,
                    "--startuptime": FX_WRITE, "--log": FX_WRITE})
_TAR = _fx("bCfFgHIKLNTVX", words=("--file", "--directory", "--files-from", "--exclude-from", "--exclude",
                                   "--format", "--blocking-factor", "--listed-incremental", "--owner", "--group",
                                   "--mode", "--mtime", "--newer", "--label", "--transform", "--xform"),
           effects={"--checkpoint-action": FX_TAR_ACTION, "--to-command": FX_RUN, "--use-compress-program": FX_RUN,
                    "-I": FX_RUN, "--rsh-command": FX_RUN, "--info-script": FX_RUN, "-F": FX_RUN,
                    "--new-volume-script": FX_RUN})
_DMESG_CLEAR = (M, "clears the kernel message buffer")
_DMESG_CONSOLE = (M, "changes kernel console logging")
_JOURNAL_DELETE = (H, "deletes system journal files (inside /var/log)")
_JOURNAL_WRITE = (H, "rewrites system journal files (inside /var/log)")
_CLOCK = (M, "sets the system clock")
_HISTORY = (L, "clears or rewrites the shell history (what ran is hidden)")
#: options that make a program write a file, run a command or change the system, whatever the program is
#: otherwise (a read-only program, an editor, an archiver): ``sort -o /etc/passwd`` is a write into /etc,
#: ``less +'!CMD'`` runs CMD, ``dmesg -c`` clears the kernel log. Writes go through the path rules of any write,
#: commands are read as commands (the command's tier), changes take the tier given.
OPTION_EFFECTS: dict[str, tuple] = {
    "sort": _fx("kotSTy", words=("--key", "--field-separator", "--buffer-size", "--temporary-directory",
                                 "--parallel", "--files0-from", "--batch-size", "--sort", "--random-source"),
                effects={"-o": FX_WRITE, "--output": FX_WRITE, "--compress-program": FX_RUN}),
    "shuf": _fx("ino", words=("--input-range", "--head-count", "--random-source"),
                effects={"-o": FX_WRITE, "--output": FX_WRITE}),
    "uniq": _fx("fsw", words=("--skip-fields", "--skip-chars", "--check-chars"), outputs=(1,)),
    "xxd": _fx(None, words=("-c", "-cols", "-g", "-groupsize", "-l", "-len", "-n", "-name", "-o", "-offset", "-s",
                            "-seek"), outputs=(1,)),
    "less": _LESS, "zless": _LESS,
    "man": _fx("CMPSsmLeEprRT", words=("--config-file", "--manpath", "--sections", "--systems", "--locale",
                                        "--extension", "--encoding", "--prompt", "--preprocessor", "--recode"),
               effects={"-P": FX_RUN, "--pager": FX_RUN, "--html": FX_RUN, "--browser": FX_RUN}),
    "rg": _fx("ABCEdefgjmMrtT", effects={"--pre": FX_RUN, "--hostname-bin": FX_RUN}),
    "ag": _fx(effects={"--pager": FX_RUN}), "ack": _fx(effects={"--pager": FX_RUN}),
    "bat": _fx(effects={"--pager": FX_RUN}), "batcat": _fx(effects={"--pager": FX_RUN}),
    "delta": _fx(effects={"--pager": FX_RUN}),
    "tree": _fx("LPIoHT", effects={"-o": FX_WRITE}),
    "iconv": _fx("fto", effects={"-o": FX_WRITE, "--output": FX_WRITE}),
    "sdiff": _fx("oIw", effects={"-o": FX_WRITE, "--output": FX_WRITE}),
    "xmllint": _fx(effects={"--output": FX_WRITE, "-o": FX_WRITE}),
    "info": _fx("dfnoO", effects={"-o": FX_WRITE, "--output": FX_WRITE}),
    "base64": _fx("bwio", effects={"-o": FX_WRITE, "--output": FX_WRITE}),
    "ncdu": _fx("oefX", effects={"-o": FX_WRITE}),
    "dmidecode": _fx("stH", effects={"--dump-bin": FX_WRITE}),
    "multitail": _fx(None, words=("-i", "-I", "-n", "-m", "-M", "-e", "-ev", "-c", "-cS", "-s", "-t"),
                     effects={"-l": FX_RUN, "-L": FX_RUN, "-a": FX_WRITE}),
    "dc": _fx("ef", effects={"-e": FX_BANG, "--expression": FX_BANG}),
    "complete": _fx("oAGWFXPS", effects={"-C": FX_RUN}), "compgen": _fx("oAGWFXPS", effects={"-C": FX_RUN}),
    "bind": _fx("mqufrf", effects={"-x": FX_KEYBIND}),
    "ss": _fx("fAF", effects={"-K": (M, "kills network connections"), "--kill": (M, "kills network connections")}),
    "dmesg": _fx("fFlnsS", effects={"-c": _DMESG_CLEAR, "-C": _DMESG_CLEAR, "--clear": _DMESG_CLEAR,
                                     "--read-clear": _DMESG_CLEAR, "-n": _DMESG_CONSOLE,
                                     "--console-level": _DMESG_CONSOLE, "-D": _DMESG_CONSOLE,
                                     "--console-off": _DMESG_CONSOLE, "-E": _DMESG_CONSOLE,
                                     "--console-on": _DMESG_CONSOLE}),
    "journalctl": _fx("bcDEfFgIMnopStuU", words=("--vacuum-size", "--vacuum-time", "--vacuum-files"),
                      effects={"--vacuum-size": _JOURNAL_DELETE, "--vacuum-time": _JOURNAL_DELETE,
                               "--vacuum-files": _JOURNAL_DELETE, "--rotate": _JOURNAL_WRITE,
                               "--flush": _JOURNAL_WRITE, "--relinquish-var": _JOURNAL_WRITE,
                               "--smart-relinquish-var": _JOURNAL_WRITE,
                               "--setup-keys": (M, "sets up journal sealing keys")}),
    "date": _fx("dfrs", optional="I", words=("--date", "--file", "--reference", "--set"),
                effects={"-s": _CLOCK, "--set": _CLOCK}),
    "vim": _VIM, "vi": _VIM, "nvim": _VIM, "ex": _VIM, "view": _VIM, "vimdiff": _VIM, "gvim": _VIM, "rvim": _VIM,
    "nano": _fx("CEJoQrTXYsf", words=("--speller", "--backupdir", "--operatingdir", "--syntax", "--rcfile"),
                effects={"-s": FX_RUN, "--speller": FX_RUN}),
    "emacs": _fx("lLfdtu", words=("--load", "--funcall", "--directory", "--script", "--chdir", "--user",
                                  "-load", "-funcall", "-eval", "--eval", "-execute", "--execute", "-l", "-f"),
                 effects={"--eval": FX_ELISP, "-eval": FX_ELISP, "--execute": FX_ELISP, "-execute": FX_ELISP}),
    "tar": _TAR, "gtar": _TAR, "bsdtar": _TAR,
    "ed": _fx("p"), "red": _fx("p"),
    "hostnamectl": _fx("HM"),
    "history": _fx("d", effects={"-c": _HISTORY, "-d": _HISTORY, "-w": _HISTORY, "-r": _HISTORY, "-a": _HISTORY,
                                 "-n": _HISTORY}),
    "zip": _fx("bnPtdiIxZ", words=("-TT", "--unzip-command", "--temp-path", "--password", "--exclude",
                                   "--include"),
               effects={"-TT": FX_RUN, "--unzip-command": FX_RUN}, outputs=(0,)),
    "make": _fx("CfIJjloWE", words=("--directory", "--file", "--makefile", "--include-dir", "--jobs",
                                    "--load-average", "--old-file", "--assume-old", "--what-if", "--new-file",
                                    "--assume-new", "--eval"),
                effects={"-f": FX_MAKEFILE, "--file": FX_MAKEFILE, "--makefile": FX_MAKEFILE,
                         "--eval": FX_MAKEFILE, "-E": FX_MAKEFILE}),
}
OPTION_EFFECTS["gmake"] = OPTION_EFFECTS["make"]
#: subcommands that change the system (program -> {subcommand: (tier, what it does, operands it needs after
#: it)}): ``hostnamectl hostname`` prints the name, ``hostnamectl hostname NAME`` sets it
SUBCOMMAND_EFFECTS: dict[str, dict[str, tuple]] = {
    "hostnamectl": {"set-hostname": (M, "sets the host name", 0), "hostname": (M, "sets the host name", 1),
                    "set-icon-name": (M, "changes the host's settings", 0),
                    "icon-name": (M, "changes the host's settings", 1),
                    "set-chassis": (M, "changes the host's settings", 0), "chassis": (M, "changes the host's settings", 1),
                    "set-deployment": (M, "changes the host's settings", 0),
                    "deployment": (M, "changes the host's settings", 1),
                    "set-location": (M, "changes the host's settings", 0),
                    "location": (M, "changes the host's settings", 1)},
}
#: options of git subcommands that write a file or run a command (read-only subcommands included:
#: ``git log --output=/etc/passwd`` is a write into /etc)
_GIT_DIFF_FX = {"--output": FX_WRITE}
GIT_OPTION_EFFECTS: dict[str, dict[str, str]] = {
    "log": _GIT_DIFF_FX, "diff": _GIT_DIFF_FX, "show": _GIT_DIFF_FX, "whatchanged": _GIT_DIFF_FX,
    "diff-tree": _GIT_DIFF_FX, "diff-files": _GIT_DIFF_FX, "diff-index": _GIT_DIFF_FX, "range-diff": _GIT_DIFF_FX,
    "format-patch": {"--output": FX_WRITE, "-o": FX_WRITE, "--output-directory": FX_WRITE},
    "archive": {"--output": FX_WRITE, "-o": FX_WRITE},
    "grep": {"--open-files-in-pager": FX_RUN, "-O": FX_RUN},
    "difftool": {"--extcmd": FX_RUN, "-x": FX_RUN},
    "rebase": {"--exec": FX_RUN, "-x": FX_RUN},
}
#: git subcommands (and their sub-subcommand) that change the repository although the subcommand only reads
#: otherwise: (tier, what)
GIT_SUBCOMMAND_EFFECTS: dict[tuple, tuple] = {
    ("reflog", "expire"): (M, "discards reflog entries (the record that recovers lost commits)"),
    ("reflog", "delete"): (M, "discards reflog entries (the record that recovers lost commits)"),
}
#: git subcommands whose trailing operands are a command they run: (subcommand, word) -> how the command is given
#: ("text": one shell string, "argv": the words are the command)
GIT_RUNS: dict[tuple, str] = {("submodule", "foreach"): "text", ("bisect", "run"): "argv"}

# --------------------------------------------------------------------- variables that inject code
#: variables that make programs load or run code (a library injected into every program, a start-up file):
#: name -> (tier, what, words of the value that make it so (None: any value))
CODE_VARS: dict[str, tuple] = {
    "LD_PRELOAD": (M, "loads a library into the programs it starts", None),
    "LD_AUDIT": (M, "loads a library into the programs it starts", None),
    "DYLD_INSERT_LIBRARIES": (M, "loads a library into the programs it starts", None),
    "BASH_ENV": (M, "runs a start-up file in every bash script", None),
    "ENV": (M, "runs a start-up file in sh", ("/", "~", ".sh")),
    "PYTHONSTARTUP": (M, "runs a start-up file in python", None),
    "NODE_OPTIONS": (M, "makes node load code", ("--require", "-r", "--import", "--loader",
                                                  "--experimental-loader")),
    "PERL5OPT": (M, "makes perl load code", ("-M", "-m", "-d")),
    "JAVA_TOOL_OPTIONS": (M, "makes java load an agent", ("-javaagent", "-agentpath", "-agentlib", "-XX:OnError",
                                                          "-XX:OnOutOfMemoryError")),
    "_JAVA_OPTIONS": (M, "makes java load an agent", ("-javaagent", "-agentpath", "-agentlib", "-XX:OnError",
                                                      "-XX:OnOutOfMemoryError")),
    "JDK_JAVA_OPTIONS": (M, "makes java load an agent", ("-javaagent", "-agentpath", "-agentlib", "-XX:OnError",
                                                         "-XX:OnOutOfMemoryError")),
}
#: prompt strings: command substitutions in them run each time the prompt (or the xtrace prefix) is shown
PROMPT_VARS = frozenset(("PS0", "PS1", "PS2", "PS3", "PS4"))
