"""The agent side of the local API: one blocking HTTP call over the daemon's Unix socket.

Standard library only, so ``signoff request`` and the hooks start fast. Every agent-side caller
(CLI, client library, hooks) goes through :class:`DaemonConnection`.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import struct
from typing import Any


class DaemonUnreachable(Exception):
    """No daemon answers on the socket (or it is not the daemon we trust).

    ``connected`` is True when a daemon did accept the connection and it broke afterwards (the daemon
    stopped in the middle of a long poll): it was up until a moment ago."""

    def __init__(self, message: str, connected: bool = False):
        super().__init__(message)
        self.connected = connected


class UntrustedDaemon(DaemonUnreachable):
    """The process on the socket does not run as ``server.expected_uid``: fail closed."""


class _UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float | None, expected_uid: int | None):
        super().__init__("signoff", timeout=timeout)
        self._path = path
        self._expected_uid = expected_uid

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(self._path)
            if self._expected_uid is not None:
                raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
                _pid, uid, _gid = struct.unpack("3i", raw)
                if uid != self._expected_uid:
                    raise UntrustedDaemon(
                        f"the process on {self._path} runs as uid {uid}, not server.expected_uid "
                        f"{self._expected_uid}: refusing to trust it"
                    )
        except BaseException:
            sock.close()
            raise
        self.sock = sock


class DaemonConnection:
    """Calls the local API.

    Args:
        socket_path: the daemon's Unix socket.
        expected_uid: refuse a daemon whose process runs as another uid (``server.expected_uid``).
    """

    def __init__(self, socket_path: str | os.PathLike, expected_uid: int | None = None):
        self.socket_path = os.fspath(socket_path)
        self.expected_uid = expected_uid

    def call(self, method: str, path: str, body: Any = None, timeout: float = 30.0) -> tuple[int, Any]:
        """One request. ``timeout`` is seconds of socket silence tolerated (make it longer than a wait).

        Returns:
            (HTTP status, decoded JSON body).

        Raises:
            DaemonUnreachable: no socket, nobody listening, connection dropped, or an untrusted daemon.
        """
        conn = _UnixHTTPConnection(self.socket_path, timeout, self.expected_uid)
        try:
            payload = None
            headers = {"Host": "signoff"}
            if body is not None:
                payload = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            conn.request(method, path, body=payload, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
        except UntrustedDaemon:
            raise
        except (OSError, http.client.HTTPException) as exc:
            raise DaemonUnreachable(f"signoff daemon unreachable at {self.socket_path}: {exc}",
                                    connected=conn.sock is not None or isinstance(exc, http.client.HTTPException)
                                    ) from None
        finally:
            conn.close()
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            raise DaemonUnreachable(f"the daemon at {self.socket_path} answered something that is not JSON") from None
        return resp.status, data
