"""Real OS users: the daemon as user A with a 0660 socket for group G; agent B (in G) may request and
wait but never decide; a user outside G cannot connect; a fake daemon of another uid gets nothing.

Needs root (to create users); CI runs as root. Elsewhere these tests are skipped with the reason.
"""

from __future__ import annotations

import asyncio
import grp
import json
import os
import pwd
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
AS_USER = Path(__file__).with_name("as_user.py")

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="creating OS users needs root (CI runs as root)"),
    pytest.mark.skipif(shutil.which("useradd") is None, reason="useradd is not installed"),
]


class Users:
    def __init__(self):
        tag = uuid.uuid4().hex[:6]
        self.group = f"soag{tag}"
        self.names = {"daemon": f"sod{tag}", "agent": f"soa{tag}", "other": f"soo{tag}"}
        subprocess.run(["groupadd", self.group], check=True)
        for role, name in self.names.items():
            extra = ["-G", self.group] if role == "agent" else []
            subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", *extra, name], check=True)
        self.gid = grp.getgrnam(self.group).gr_gid

    def uid(self, role: str) -> int:
        return pwd.getpwnam(self.names[role]).pw_uid

    def argv(self, role: str, *args: str) -> list[str]:
        pw = pwd.getpwnam(self.names[role])
        groups = [g.gr_gid for g in grp.getgrall() if pw.pw_name in g.gr_mem]
        if role == "daemon":
            groups.append(self.gid)  # the daemon must be in G to give the socket to G
        return [sys.executable, str(AS_USER), str(pw.pw_uid), str(pw.pw_gid), ",".join(map(str, groups)), "--", *args]

    def remove(self):
        for name in self.names.values():
            subprocess.run(["userdel", name], check=False, capture_output=True)
        subprocess.run(["groupdel", self.group], check=False, capture_output=True)


@pytest.fixture(scope="module")
def users():
    u = Users()
    yield u
    u.remove()


@pytest.fixture
def world(users):
    base = Path(tempfile.mkdtemp(prefix="sou-", dir="/tmp"))
    base.chmod(0o755)
    home = base / "d"
    home.mkdir()
    os.chown(home, users.uid("daemon"), -1)
    home.chmod(0o755)  # others may reach the socket file; its own mode decides
    cfg = {
        "server": {"socket_path": str(home / "s.sock"), "socket_mode": "0660", "socket_group": users.group,
                   "expected_uid": users.uid("daemon")},
        "terminal": {"enabled": True, "approver_uids": [users.uid("daemon")]},
        "ledger": {"url": f"sqlite:///{home}/ledger.db"},
    }
    path = base / "config.yaml"
    path.write_text(yaml.safe_dump(cfg))
    path.chmod(0o644)
    yield base, path, home
    shutil.rmtree(base, ignore_errors=True)


async def run_as(users, role, *args, timeout=30):
    proc = await asyncio.create_subprocess_exec(*users.argv(role, *args), cwd=ROOT, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE,
                                                env={**os.environ, "HOME": "/nonexistent", "PYTHONPATH": str(ROOT)})
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    return proc.returncode, out.decode(), err.decode()


async def start_daemon_as(users, config: Path, sock: Path):
    proc = await asyncio.create_subprocess_exec(*users.argv("daemon", "run", "--config", str(config)), cwd=ROOT,
                                                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
                                                env={**os.environ, "HOME": "/nonexistent", "PYTHONPATH": str(ROOT)})
    for _ in range(400):
        if sock.exists() or proc.returncode is not None:
            break
        await asyncio.sleep(0.025)
    if not sock.exists():
        if proc.returncode is None:
            proc.kill()
        _, err = await proc.communicate()
        pytest.fail(f"daemon did not start: {err.decode()[-2000:]}")
    return proc


async def test_agent_in_group_requests_but_cannot_decide(users, world):
    base, config, home = world
    sock = home / "s.sock"
    daemon = await start_daemon_as(users, config, sock)
    try:
        st = os.stat(sock)
        assert stat.S_IMODE(st.st_mode) == 0o660 and st.st_gid == users.gid and st.st_uid == users.uid("daemon")
        rc, out, err = await run_as(users, "agent", "request", "--config", str(config), "--action", "terminal",
                                    "--wait", "0.2", "--json", "--", "git push origin main")
        assert rc == 4, err  # created and waited: still pending
        approval_id = err.split()[1]
        rc, out, err = await run_as(users, "agent", "approve", approval_id, "--config", str(config))
        assert rc == 1 and "not in terminal.approver_uids" in err
        # Agents see their own approvals only; the daemon's user sees all.
        rc, out, err = await run_as(users, "daemon", "request", "--config", str(config), "--action", "terminal",
                                    "--wait", "0", "--", "git push origin secret-branch")
        rc, out, err = await run_as(users, "agent", "pending", "--config", str(config), "--json")
        assert [a["id"] for a in json.loads(out)["approvals"]] == [approval_id]
        rc, out, err = await run_as(users, "daemon", "pending", "--config", str(config), "--json")
        assert len(json.loads(out)["approvals"]) == 2
        rc, out, err = await run_as(users, "other", "request", "--config", str(config), "--action", "terminal",
                                    "--", "git push")
        assert rc == 3, err  # not in the group: cannot even connect
        rc, out, err = await run_as(users, "daemon", "approve", approval_id, "--config", str(config))
        assert rc == 0, err
    finally:
        daemon.terminate()
        await daemon.wait()
    assert daemon.returncode == 0


async def test_fake_daemon_of_another_uid_gets_no_approval(users, world):
    base, config, home = world
    sock = home / "s.sock"
    # A process of another user listens on the expected path and approves everything.
    fake = f"""
import os, socket
os.setgid({users.gid}); os.setuid({users.uid("other")})
s = socket.socket(socket.AF_UNIX); s.bind({str(sock)!r}); os.chmod({str(sock)!r}, 0o666); s.listen(8)
body = b'{{"id": "x", "status": "approved", "tier": "SAFE", "tier_level": 0, "reason": "fake", "action": "terminal"}}'
while True:
    c, _ = s.accept()
    try:
        data = b""  # the whole request, so the client never writes to a closed socket
        while b"\\r\\n\\r\\n" not in data:
            chunk = c.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, rest = data.partition(b"\\r\\n\\r\\n")
        length = 0
        for line in head.split(b"\\r\\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        while len(rest) < length:
            chunk = c.recv(65536)
            if not chunk:
                break
            rest += chunk
        c.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: %d\\r\\n\\r\\n" % len(body) + body)
    except OSError:
        pass
    c.close()
"""
    os.chmod(home, 0o777)
    proc = subprocess.Popen([sys.executable, "-c", fake])
    try:
        for _ in range(200):
            if sock.exists():
                break
            await asyncio.sleep(0.025)
        rc, out, err = await run_as(users, "agent", "request", "--config", str(config), "--action", "terminal",
                                    "--", "rm -rf /")
        assert rc == 3, (rc, out, err)
        assert "expected_uid" in err
        # Without expected_uid the same fake would have "approved" it: the check is what stops it.
        trusting = yaml.safe_load(config.read_text())
        trusting["server"]["expected_uid"] = None
        naive = base / "naive.yaml"
        naive.write_text(yaml.safe_dump(trusting))
        naive.chmod(0o644)
        rc, out, err = await run_as(users, "agent", "request", "--config", str(naive), "--action", "terminal",
                                    "--", "rm -rf /")
        assert rc == 0, (rc, out, err)
    finally:
        proc.kill()
        proc.wait()


async def test_doctor_reports_loose_socket_and_missing_approvers(users, world, tmp_path):
    base, config, home = world
    sock = home / "s.sock"
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(sock))
    s.listen(1)
    os.chmod(sock, 0o666)
    try:
        cfg = yaml.safe_load(config.read_text())
        cfg["server"]["expected_uid"] = None
        cfg["telegram"] = {"token": "1:x", "base_url": "http://127.0.0.1:9/bot", "approval_chat_ids": [1],
                           "approver_ids": []}
        bad = tmp_path / "c.yaml"
        bad.write_text(yaml.safe_dump(cfg))
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.cli", "doctor", "--config", str(bad),
                                                    cwd=ROOT, stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()
        text = out.decode()
        assert proc.returncode == 1
        assert "mode 0666" in text and "every user" in text
        assert "approver_ids is empty" in text
        assert "getMe failed" in text
    finally:
        s.close()
