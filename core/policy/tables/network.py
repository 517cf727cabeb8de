"""Network programs and where data (secrets above all) may leave: senders and uploaders, programs that print a
secret, HTTP methods, the options of curl, wget, ssh, scp and rsync that take a value, downloaders, programs that
run a command on other hosts (pdsh, pssh, salt).

To add a rule: a program that sends its input or files over the network goes into NETWORK_SENDERS or UPLOADERS;
one that prints a secret into SECRET_PRINTERS (option or subcommand -> flags that must come with it). Test it in
``tests/core/policy/test_network.py``.
"""

from __future__ import annotations

from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

NETWORK_SENDERS = frozenset(("curl", "wget", "scp", "rsync", "nc", "ncat", "netcat", "socat", "sftp", "http",
                             "https", "xh", "httpie", "ftp", "lftp", "rclone", "aws", "gsutil", "az", "mail",
                             "sendmail", "mutt", "telnet", "ssh", "s3cmd", "rclone", "gh", "mailx",
                             "swaks", "ftp", "tftp", "smbclient", "xh", "xhs", "websocat", "wscat", "grpcurl",
                             # they send their arguments: a query to a server (secrets in it leave the machine)
                             "whois", "finger", "dig", "nslookup", "host", "drill", "cancel", "lpr", "lp"))
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
HTTP_METHODS = frozenset(("GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"))
HTTP_METHOD_TIERS = {"GET": S, "HEAD": S, "OPTIONS": S, "POST": M, "PUT": M, "PATCH": M, "DELETE": H}
#: downloaders besides curl/wget: program -> options naming the file written (``aria2c URL -o x.sh``)
DOWNLOADERS = {"aria2c": ("-o", "--out"), "axel": ("-o", "--output"), "lwp-download": (), "wget2": ("-O",),
               "fetch": ("-o",), "ftp": ("-o",), "gdown": ("-O", "--output")}
#: words of PowerShell text that download (``iex (iwr …)``, ``DownloadString``)
PWSH_DOWNLOAD_WORDS = ("iwr", "invoke-webrequest", "invoke-restmethod", "irm", "downloadstring", "downloadfile",
                       "net.webclient", "curl", "wget")
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
# remote shells of other kinds: `rsh HOST CMD`, `plink USER@HOST CMD`, `autossh -M 0 HOST CMD`
REMOTE_RUNNERS.update({
    "rsh": (frozenset(("-l",)), 1), "remsh": (frozenset(("-l",)), 1), "rexec": (frozenset(("-l", "-p")), 1),
    "rlogin": (frozenset(("-l", "-e")), 1),
    "plink": (frozenset(("-P", "-l", "-pw", "-i", "-m", "-L", "-R", "-D", "-proxycmd", "-hostkey", "-sercfg",
                         "-load")), 1),
    "autossh": (frozenset(("-M", "-p", "-l", "-i", "-o", "-L", "-R", "-D", "-F", "-E", "-J", "-b", "-c", "-e",
                           "-m", "-O", "-Q", "-S", "-W", "-w", "-B", "-I")), 1),
    "dbclient": (frozenset(("-p", "-l", "-i", "-L", "-R", "-J", "-W", "-K", "-I", "-o")), 1),
    "sshpass-ssh": (frozenset(), 1),
})
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
# rsync/ssh/scp options taking an argument
SSH_OPTS_WITH_ARG = frozenset("BbcDEeFIiJLlmOopQRSWw")
#: ssh -o options whose value is a command (run locally; RemoteCommand on the host)
SSH_COMMAND_OPTIONS = frozenset(("proxycommand", "localcommand", "knownhostscommand", "remotecommand"))
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
