"""The daemon: wires config, ledger, policy, broker, scheduler, channels and the local API into one
process, and starts and stops them in a known order."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import gc
import logging
import os
import resource
import signal
import socket
from datetime import timedelta
from enum import StrEnum
from pathlib import Path

from bot.api import MAX_REFUSING, ApiServer, ServerLimits, bind_unix_socket
from bot.config import Config
from bot.scheduler import DeadlineScheduler
from core.broker import Broker, BrokerSettings
from core.channel import Channel
from core.crisis_desk import CrisisSettings
from core.ledger import Ledger
from core.policy import Policy

log = logging.getLogger("signoff")

#: how often the sweeper looks for pending approvals whose timer did not run, and how late one must be
#: (seconds): a timer that is merely late on a busy loop gets this long before the sweeper steps in
SWEEP_INTERVAL_S = 2.0
SWEEP_GRACE_S = 5.0
#: file descriptors kept for everything but API connections (ledger, platforms, logs, libraries)
FD_RESERVE = 64


def raise_open_files_limit() -> int:
    """Raise the soft RLIMIT_NOFILE to the hard limit (idle or long-polling clients each hold a descriptor;
    a soft limit of 1,024 is soon spent). Returns the soft limit now in force; a refusal is logged."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return soft
    target = max(soft, 1 << 20) if hard == resource.RLIM_INFINITY else hard
    if soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            return target
        except (ValueError, OSError) as exc:
            log.warning("cannot raise the open-files limit from %d to %d: %s", soft, target, exc)
    return soft


def server_limits(server, open_files: int) -> ServerLimits:
    """The API's :class:`ServerLimits` from ``server.*``; ``max_connections`` lowered (with a warning) so that
    the connections, those being refused and :data:`FD_RESERVE` fit within ``open_files`` (RLIMIT_NOFILE)."""
    cap = server.max_connections
    room = max(16, open_files - FD_RESERVE - MAX_REFUSING) if open_files != resource.RLIM_INFINITY else cap
    if cap > room:
        log.warning("server.max_connections lowered from %d to %d: the open-files limit (RLIMIT_NOFILE) is %d",
                    cap, room, open_files)
        cap = room
    return ServerLimits(header_timeout=server.header_timeout, body_timeout=server.body_timeout,
                        max_connections=cap)


def version() -> str:
    """signoff's installed version."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("signoff")
    except PackageNotFoundError:
        return "0+unknown"


def _freeze_startup_objects() -> None:
    """Move everything loaded at start (policy and crisis tables, libraries: ~10^5 objects that live as long as
    the process) out of the cyclic garbage collector's reach (``gc.freeze``). Otherwise every full collection
    walks them all and stalls the request it lands on by 30–40 ms, several times the classifier's budget."""
    gc.collect()
    gc.freeze()


class AlreadyRunning(Exception):
    """Another daemon holds the socket."""


class LedgerUnavailable(Exception):
    """The ledger cannot be opened or migrated (the message names ``ledger.url``)."""


class State(StrEnum):
    NEW = "new"
    RUNNING = "running"
    STOPPED = "stopped"


def build_channels(config: Config) -> list[Channel]:
    """The channels the config asks for (terminal first)."""
    channels: list[Channel] = []
    if config.terminal_enabled:
        from adapters.terminal import TerminalChannel

        channels.append(TerminalChannel())
    if config.telegram is not None:
        from adapters.telegram_channel import TelegramChannel

        channels.append(TelegramChannel(config.telegram))
    if config.discord is not None:
        from adapters.discord_channel import DiscordChannel

        channels.append(DiscordChannel(config.discord))
    return channels


class Daemon:
    """One signoff process.

    Args:
        config: the validated configuration.
        channels: override the channels built from the config (tests).
    """

    def __init__(self, config: Config, channels: list[Channel] | None = None):
        self.config = config
        self.state = State.NEW
        self.socket_path = config.server.path()
        self._channels = channels
        self._lock_fd: int | None = None
        self._ledger_lock_fd: int | None = None
        self.ledger: Ledger | None = None
        self.broker: Broker | None = None
        self.scheduler: DeadlineScheduler | None = None
        self.api: ApiServer | None = None

    @property
    def channels(self) -> list[Channel]:
        return self.broker.channels if self.broker else []

    async def start(self) -> None:
        """Claim the socket, open and migrate the ledger, start channels, re-arm deadlines, serve.

        Raises:
            AlreadyRunning: another daemon is serving this socket.
            RuntimeError: called twice.
        """
        if self.state is not State.NEW:
            raise RuntimeError(f"daemon is {self.state}; start() runs once")
        open_files = raise_open_files_limit()
        sock = self._claim_socket()
        try:
            cfg = self.config
            url = cfg.ledger.resolved_url()
            self._claim_ledger(url)
            try:
                self.ledger = await Ledger.open(url)
            except Exception as exc:
                reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise LedgerUnavailable(f"cannot open the ledger (ledger.url: {url}): {reason}") from exc
            policy = Policy(cfg.policy.tables())
            from core.crisis._detect import model_status

            broken = model_status()  # (loads the crisis model now, not on the first request)
            if broken is not None:
                log.error("the crisis model is not loaded (%s): the phrase tables check alone", broken)
            crisis = CrisisSettings(resources=tuple(cfg.crisis.resources), ack_timeout=cfg.crisis.ack_timeout,
                                    max_realerts=cfg.crisis.max_realerts, store_text=cfg.crisis.store_text,
                                    second_opinion_timeout=cfg.llm.timeout if cfg.llm else 10.0)
            low = cfg.tiers.LOW.without_llm
            if cfg.llm is not None and cfg.llm.base_url and low == "approve":
                # An LLM reviewer is configured but this version has none: LOW must not pass unreviewed
                # on the operator's assumption that it is reviewed (fail closed).
                log.warning("llm is configured but LLM review is not available in this version: "
                            "LOW requests go to a human (as tiers.LOW.without_llm: human)")
                low = "human"
            settings = BrokerSettings(timeouts=cfg.tiers.timeouts(), low_without_llm=low, crisis=crisis)
            self.broker = Broker(self.ledger, policy, settings)
            self.scheduler = DeadlineScheduler(self.broker.on_deadline)
            self.broker.scheduler = self.scheduler
            self.broker.crisis.scheduler = self.scheduler
            if cfg.crisis.second_opinion and cfg.llm is not None:
                from bot.llm import crisis_second_opinion

                self.broker.crisis.second_opinion = crisis_second_opinion(cfg.llm)
            if cfg.crisis.deep_reader:
                from core.crisis._deep import reader

                self.broker.crisis.deep = reader()  # (loads on its first read, in its own thread)
            self.scheduler.interval_job("sweep-overdue", SWEEP_INTERVAL_S, self._sweep)
            self.scheduler.start()
            channels = self._channels if self._channels is not None else build_channels(cfg)
            for channel in channels:
                bind = getattr(channel, "bind", None)
                if bind is not None:
                    bind(self.broker)
                self.broker.attach(channel)
            # Serve agents at once; a card for a request that arrives before a platform is connected
            # is posted when it connects (each channel resyncs missed cards).
            self.api = ApiServer(self.broker, self.health, cfg.terminal_enabled, cfg.terminal_approver_uids(),
                                 version(), limits=server_limits(cfg.server, open_files))
            await self.api.start(sock)
            await self.broker.load_stale()
            # Each waits briefly for its platform; an outage leaves it down and retrying.
            await asyncio.gather(*(channel.start() for channel in channels))
            pending = await self.broker.recover()
            await self.broker.crisis.recover()
        except BaseException:
            self.state = State.STOPPED
            await self._teardown()
            sock.close()  # after the API stopped serving it
            raise
        self.state = State.RUNNING
        log.info("signoff %s listening on %s (%d pending approvals re-armed; channels: %s)", version(),
                 self.socket_path, pending, ", ".join(f"{k}={v}" for k, v in self.health().items()) or "none")

    async def _sweep(self) -> None:
        try:
            await self.broker.sweep_overdue(timedelta(seconds=SWEEP_GRACE_S))
        except Exception:  # the ledger is down: the next sweep tries again
            log.exception("sweeping overdue approvals failed")

    def health(self) -> dict[str, str]:
        return {ch.name: "up" if ch.is_up() else "down" for ch in self.channels}

    async def stop(self) -> None:
        """Stop serving, let in-flight card updates finish (briefly), close everything. Idempotent."""
        if self.state is State.STOPPED:
            return
        self.state = State.STOPPED
        await self._teardown()

    async def _teardown(self) -> None:
        if self.api is not None:
            await self.api.stop()
        if self.scheduler is not None:
            self.scheduler.shutdown()
        if self.broker is not None:
            await self.broker.drain(timeout=2.0)
            if cancelled := self.broker.cancel_tasks():
                log.warning("stopped with %d channel or ledger task(s) unfinished", cancelled)
            for channel in self.broker.channels:
                try:
                    await channel.stop()
                except Exception:
                    log.exception("stopping %s failed", channel.name)
        if self.ledger is not None:
            await self.ledger.close()
        with contextlib.suppress(FileNotFoundError):
            if self._lock_fd is not None:
                self.socket_path.unlink()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        if self._ledger_lock_fd is not None:
            os.close(self._ledger_lock_fd)
            self._ledger_lock_fd = None

    async def run_until_signal(self) -> None:
        """Start, serve until SIGINT or SIGTERM, stop. A signal during start-up stops it right after."""
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        try:
            await self.start()
            _freeze_startup_objects()
            await stop.wait()
        finally:
            await self.stop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(sig)

    def _claim_ledger(self, url: str) -> None:
        """One daemon per SQLite ledger: two would each keep timers and waiters the other never
        wakes. Also creates the database file owner-only (0600).

        Raises:
            AlreadyRunning: another daemon holds ``<ledger>.lock``.
        """
        if not url.startswith("sqlite:///"):
            return
        db = Path(url[len("sqlite:///") :]).expanduser()
        db.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not db.exists():
            os.close(os.open(db, os.O_CREAT | os.O_WRONLY, 0o600))
        self._ledger_lock_fd = _lock(Path(f"{db}.lock"), f"another signoff daemon uses the ledger {db}")

    def _claim_socket(self) -> socket.socket:
        """Lock ``<socket>.lock``, remove a stale socket file, bind a new one with the configured mode.

        Raises:
            AlreadyRunning: the lock is held or a live daemon answers on the socket.
        """
        path = self.socket_path
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = _lock(Path(f"{path}.lock"), f"another signoff daemon is running on {path}")
        try:
            if path.exists() or path.is_symlink():
                probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    probe.connect(str(path))
                except OSError:
                    path.unlink()  # stale: nobody listens
                else:
                    raise AlreadyRunning(f"another signoff daemon is answering on {path}")
                finally:
                    probe.close()
            sock = bind_unix_socket(str(path), self.config.server.mode, self.config.server.socket_group)
        except BaseException:
            os.close(fd)
            raise
        self._lock_fd = fd
        return sock


def _lock(path: Path, held_message: str) -> int:
    """Take an exclusive, non-blocking ``flock`` on ``path`` (created 0600); returns its fd.

    Raises:
        AlreadyRunning: another process holds it (``held_message`` says who).
    """
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            raise AlreadyRunning(f"{held_message} (lock {path} is held)") from None
        raise
    return fd
