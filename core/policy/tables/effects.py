"""What options and variables do besides what their program is known for: options that write a file, run a
command or change the system (OPTION_EFFECTS, read by :mod:`core.policy.shell.effects.options`), subcommands
that change the system, variables whose value is a command or injects code.

To add a rule: add the option to the program's OPTION_EFFECTS entry (``_fx(...)``) with its effect kind
(FX_WRITE, FX_RUN …) or a (tier, what it does) pair. Test it in the family's file under ``tests/core/policy/``.
"""

from __future__ import annotations

from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

#: environment variables whose value is a command some program runs (GIT_SSH_COMMAND=… git fetch)
COMMAND_VARS = frozenset(("GIT_SSH_COMMAND", "GIT_SSH", "GIT_PAGER", "PAGER", "GIT_EDITOR", "EDITOR", "VISUAL",
                          "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND",
                          "PROMPT_COMMAND", "LESSOPEN", "LESSCLOSE", "MANPAGER", "SYSTEMD_PAGER",
                          "GIT_SEQUENCE_EDITOR", "SUDO_ASKPASS", "RSYNC_RSH", "CVS_RSH", "BROWSER",
                          "BAT_PAGER", "DELTA_PAGER", "GH_PAGER", "GH_EDITOR", "KUBE_EDITOR", "FCEDIT",
                          "SUDO_EDITOR", "SYSTEMD_EDITOR", "PSQL_PAGER", "PSQL_WATCH_PAGER", "AWS_PAGER",
                          "PERLDOC_PAGER", "SVN_EDITOR", "SVN_SSH", "HGEDITOR", "CVSEDITOR", "P4EDITOR", "P4DIFF",
                          "HGMERGE", "RSYNC_CONNECT_PROG", "TIG_EDITOR", "VIEWER", "TERMINAL", "GIT_CONFIG_EDITOR"))
#: environment variables whose value is options of a program (read as that program's options: LESS='+!CMD')
OPTION_VARS = {"LESS": "less", "MORE": "less", "MANOPT": "man", "TAR_OPTIONS": "tar", "PARALLEL": "parallel"}
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
