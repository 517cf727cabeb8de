"""Command tier: the disks family (``core/policy/shell/families/disks.py``): ``dd``, file systems, partition tables,
secure erases, mounts and volumes.

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
    # disks, power, processes
    ("terminal", "dd if=/dev/zero of=/dev/sda bs=1M", C),
    ("terminal", "dd if=/dev/zero of=./disk.img", L),
    ("terminal", "dd if=x of=/dev/null", L),
    ("terminal", "mkfs.ext4 /dev/sdb1", C),
    ("terminal", "mkfs.ext4 -F ./disk.img", L),
    ("terminal", "wipefs -a /dev/sdb", C),
    ("terminal", "sgdisk -Z /dev/sda", C),
    ("terminal", "blkdiscard /dev/nvme0n1", C),
    # found while hardening the classifier (a prompt-injected agent's tricks), with their over-flag checks
    ('terminal', 'dd of=/dev/nvme0n1', C),
    ('terminal', 'mkfs.ext4 /dev/sdb1', C),
    ('terminal', 'mkfs -t ext4 /dev/sdb', C),
    ('terminal', 'mke2fs /dev/sdb', C),
    ('terminal', 'wipefs -a /dev/sda', C),
    ('terminal', 'sgdisk -Z /dev/sda', C),
    ('terminal', 'sgdisk --zap-all /dev/sda', C),
    ('terminal', 'blkdiscard /dev/nvme0n1', C),
    # parted: options (-s, -a VALUE) never hide the device commands
    ('terminal', 'parted -s /dev/sda mklabel gpt', C),
    ('terminal', 'parted -s /dev/sda rm 1', C),
    ('terminal', 'parted -a optimal -s /dev/sda mklabel gpt mkpart primary 0% 100%', C),
    ('terminal', 'parted /dev/nvme0n1 mklabel msdos', C),
    ('terminal', 'parted --align=optimal --script /dev/sdb mktable gpt', C),
    ('terminal', 'parted -s /dev/sda mkl gpt', C),
    ('terminal', 'parted -s /dev/sda -- mkpart primary ext4 1MiB -1', H),
    ('terminal', 'parted /dev/sda', H),
    ('terminal', 'parted -s disk.img mklabel gpt', L),
    ('terminal', 'parted -l', S),
    ('terminal', 'parted /dev/sda print', S),
    ('terminal', 'parted -s -m /dev/sda unit MB print', S),
    # disk tools that erase a device with some options or subcommands (table DISK_ERASERS), like blkdiscard
    ('terminal', 'hdparm --security-erase PASS /dev/sda', C),
    ('terminal', 'hdparm --user-master u --security-erase-enhanced p /dev/sda', C),
    ('terminal', 'hdparm --trim-sector-ranges 0:8 --please-destroy-my-drive /dev/sda', C),
    ('terminal', 'nvme format /dev/nvme0n1', C),
    ('terminal', 'sudo nvme format /dev/nvme0n1 --ses=1', C),
    ('terminal', 'nvme sanitize -a 2 /dev/nvme0', C),
    ('terminal', 'badblocks -w /dev/sdb', C),
    ('terminal', 'badblocks -wsv -b 4096 /dev/sdb', C),
    ('terminal', 'blkdiscard /dev/sda', C),
    ('terminal', 'sg_format --format /dev/sg1', C),
    ('terminal', 'dmsetup remove_all', H),
    ('terminal', 'dmsetup remove vg-lv', H),
    ('terminal', 'badblocks -n /dev/sdb', L),
    ('terminal', 'badblocks -sv /dev/sda', L),
    ('terminal', 'hdparm -I /dev/sda', L),
    ('terminal', 'nvme list', L),
    ('terminal', 'dmsetup ls', L),
]


@pytest.mark.parametrize(("action", "command", "expected"), CASES)
def test_disks(action: str, command: str, expected: Tier) -> None:
    got = classify(action, command)
    assert got.tier is expected, (action, command, got)
