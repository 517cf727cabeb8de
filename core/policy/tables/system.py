"""System programs: power, disks and partitions, mounts and volumes, users, firewalls, services (systemctl,
service, other service managers read by their action word), D-Bus calls, file permissions, deleters.

To add a rule: add the program or its action word to its table with a tier; a program new to every table also
needs a handler entry in its family (``core/policy/shell/families/system.py`` or ``disks.py``). Test it in
``tests/core/policy/test_system.py`` or ``test_disks.py``.
"""

from __future__ import annotations

from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

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
USER_ADMIN = frozenset(("useradd", "userdel", "usermod", "groupadd", "groupdel", "groupmod", "passwd", "chpasswd",
                        "adduser", "deluser", "addgroup", "delgroup", "visudo", "vipw", "chage", "gpasswd",
                        "dscl", "sysadminctl", "chsh", "chfn", "vigr", "newusers", "pwconv", "grpconv"))
FIREWALLS = frozenset(("iptables", "ip6tables", "iptables-legacy", "iptables-nft", "nft", "ufw", "firewall-cmd",
                       "pfctl", "ebtables", "arptables", "iptables-restore", "ip6tables-restore",
                       "iptables-legacy-restore", "iptables-nft-restore"))
MOUNTERS = frozenset(("mount", "umount", "swapon", "swapoff", "losetup", "cryptsetup", "lvremove", "vgremove",
                      "pvremove", "lvcreate", "vgcreate", "pvcreate", "mdadm", "zpool", "zfs", "btrfs"))
#: delete programs that are always recursive (``rimraf dir``)
RECURSIVE_DELETERS = frozenset(("rimraf", "del-cli", "rmrf"))
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
