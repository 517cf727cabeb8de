"""Programs the shell reader knows by kind: read-only programs and those that show file contents, wrappers and
launchers it looks through, shells and interpreters (their inline-code options), terminal multiplexers.

To add a rule: a SAFE program goes into READ_ONLY (operators add theirs with ``policy.read_only_programs``); a
wrapper into WRAPPERS (its options that take a value, operands to skip, tier floor); an interpreter into
INTERPRETERS and INTERPRETER_LANGS. Test it in the family's file under ``tests/core/policy/``.
"""

from __future__ import annotations

from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

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
    "ltrace": (frozenset("eopsunalxADwF"), 0, L),  # (-S is a flag here: system calls too)
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
    "xvfb-run": (frozenset("nsfepw") | {"--server-num", "--server-args", "--auth-file", "--error-file",
                                        "--xauth-protocol", "--wait"}, 0, S),
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
    "hatch": ("run",), "rye": ("run",), "pixi": ("run",), "conda": ("run",), "mamba": ("run",), "micromamba": ("run",),
    "doppler": ("run",), "dotenv": ("run",), "direnv": ("exec",),
    "devbox": ("run",), "op": ("run",), "mise": ("exec", "x"), "asdf": ("exec",), "rbenv": ("exec",), "pyenv": ("exec",),
    "scl": ("enable", "run"), "toolbox": ("run",),
}
#: runners whose subcommand takes operands before the command (direnv exec DIR CMD, scl enable COLLECTION CMD)
RUNNER_OPERANDS = {"direnv": 1, "scl": 1}
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
#: the language of each interpreter's inline code (for the calls :mod:`core.policy.code` reads)
INTERPRETER_LANGS = {
    "python": "python", "python2": "python", "python3": "python", "pypy": "python", "pypy3": "python",
    "perl": "perl", "ruby": "ruby", "node": "node", "nodejs": "node", "deno": "node", "bun": "node",
    "php": "php", "lua": "lua", "luajit": "lua", "ipython": "python", "ipython3": "python", "irb": "ruby",
    "tclsh": "tcl", "wish": "tcl", "expect": "tcl", "Rscript": "r", "R": "r", "julia": "julia",
    "groovy": "java", "jshell": "java", "jrunscript": "java", "jjs": "java",
}
#: modules that serve on the network when run (``python3 -m http.server``): listeners (tiers.md v3.2)
LISTENING_MODULES = frozenset(("http.server", "SimpleHTTPServer", "CGIHTTPServer", "pyftpdlib", "smtpd", "aiosmtpd",
                               "uploadserver", "wsgiref.simple_server", "xmlrpc.server", "twisted", "updog",
                               "RangeHTTPServer", "http_server", "pywebdav", "wsgidav"))
PYTHONS = frozenset(("python", "python2", "python3", "pypy", "pypy3"))
LONG_CODE_FLAGS = frozenset(("--eval", "--print", "--command", "-Command", "-command"))
ENV_SETUP_TOOLS = frozenset(("ssh-agent", "pyenv", "rbenv", "nodenv", "direnv", "conda", "brew", "starship",
                             "zoxide", "fnm", "mise", "rtx", "jenv", "goenv", "plenv", "keychain", "dircolors",
                             "opam", "luarocks", "thefuck", "atuin", "mcfly", "fzf", "gpg-agent", "micromamba",
                             "mamba", "nvm", "volta", "pipenv", "poetry", "register-python-argcomplete",
                             "kubectl", "helm", "gh", "rustup", "pdm", "uv", "zellij", "tmuxinator"))
#: paths that are a program's standard input (``curl … | source /dev/stdin``)
STDIN_PATHS = frozenset(("/dev/stdin", "/proc/self/fd/0", "/dev/fd/0"))
NO_DRY_RUN = frozenset(("rm", "rmdir", "unlink", "dd", "shred", "wipefs", "chmod", "chown", "chgrp", "kill",
                        "killall", "pkill", "killall5", "shutdown", "reboot", "halt", "poweroff", "find", "mv",
                        "cp", "tee", "truncate", "srm", "blkdiscard", "init", "telinit", "curl", "wget", "eval",
                        "source", ".", "sh", "bash", "zsh", "dash", "ksh", "python", "python3", "perl", "ruby",
                        "node", "sgdisk", "mke2fs", "crontab", "iptables", "ufw"))
