"""``signoff doctor``: check the config, the socket, the ledger and each channel; name every problem."""

from __future__ import annotations

import asyncio
import json
import os
import stat
from dataclasses import dataclass, field

from bot.config import Config, ConfigError, load_config


@dataclass
class Report:
    """What the doctor found: ``ok`` lines, ``notes`` (worth knowing) and ``problems`` (exit 1)."""

    ok: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def render(self) -> str:
        lines = [f"ok       {m}" for m in self.ok] + [f"note     {m}" for m in self.notes]
        lines += [f"PROBLEM  {m}" for m in self.problems]
        lines.append(f"{len(self.problems)} problem(s) found" if self.problems else "no problems found")
        return "\n".join(lines)


def check(config_path: str | None, timeout: float = 5.0) -> Report:
    """Run every check (blocking; network calls bounded by ``timeout`` seconds each)."""
    report = Report()
    try:
        config = load_config(config_path, secrets=False)
    except ConfigError as exc:
        report.problems.extend(f"config: {line}" for line in str(exc).splitlines())
        return report
    report.ok.append(f"config: {config.source or 'built-in defaults'}")
    try:
        config = load_config(config_path)
    except ConfigError as exc:
        # The tokens often live only in the daemon's environment (systemd EnvironmentFile): say so,
        # and check the rest; the daemon's own /v1/health below tells whether its channels are up.
        report.notes.append(f"{exc} (in this shell; the daemon may have it in its environment): "
                            "token checks skipped")
    _check_channels_config(config, report)
    _check_socket(config, report, timeout)
    _check_ledger(config, report)
    _check_classifier(report)
    if config.telegram is not None and config.telegram.token is not None:
        _check_telegram(config, report, timeout)
    if config.discord is not None and config.discord.token is not None:
        _check_discord(config, report, timeout)
    return report


def _check_channels_config(config: Config, report: Report) -> None:
    tg = config.telegram
    if tg is not None:
        if not tg.approval_chat_ids:
            report.problems.append("telegram: approval_chat_ids is empty: no card would be posted anywhere")
        if not tg.approver_ids:
            report.problems.append("telegram: approver_ids is empty: nobody could approve (every card would expire)")
        if not tg.crisis_chat_ids:
            report.notes.append("telegram: crisis_chat_ids is empty: crisis alerts go to the approval chats")
    dc = config.discord
    if dc is not None:
        if not dc.approval_channel_ids:
            report.problems.append("discord: approval_channel_ids is empty: no card would be posted anywhere")
        if not dc.approver_user_ids and not dc.approver_role_ids:
            report.problems.append("discord: neither approver_user_ids nor approver_role_ids is set: nobody could approve")
        if not dc.crisis_channel_ids:
            report.notes.append("discord: crisis_channel_ids is empty: crisis alerts go to the approval channels")
    if config.terminal_enabled:
        uids = sorted(config.terminal_approver_uids())
        msg = f"terminal channel is on: local uids {uids} may approve over the socket"
        if config.phone_channels:
            msg += " (alongside phone channels: an agent running as one of these uids can approve itself)"
        report.notes.append(msg)
    elif not config.phone_channels:
        report.problems.append("no channel: the terminal is off and no phone channel is configured")


def _check_socket(config: Config, report: Report, timeout: float) -> None:
    path = config.server.path()
    if not path.exists():
        parent = path.parent
        if parent.exists() and not os.access(parent, os.W_OK):
            report.problems.append(f"socket: {parent} is not writable: the daemon could not create {path.name}")
        else:
            report.problems.append(f"daemon: not running (no socket at {path}); start it with `signoff run`")
        return
    st = os.stat(path)
    if not stat.S_ISSOCK(st.st_mode):
        report.problems.append(f"socket: {path} exists but is not a socket")
        return
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o007:
        report.problems.append(f"socket: {path} has mode {mode:04o}: every user of the machine can reach it "
                               f"(want {config.server.socket_mode})")
    elif mode != config.server.mode:
        report.problems.append(f"socket: {path} has mode {mode:04o}, config says {config.server.socket_mode}")
    else:
        report.ok.append(f"socket: {path} mode {mode:04o}, owner uid {st.st_uid}")
    if config.server.expected_uid is not None and st.st_uid != config.server.expected_uid:
        report.problems.append(f"socket: owned by uid {st.st_uid}, server.expected_uid is {config.server.expected_uid}")
    from bot.connection import DaemonConnection, DaemonUnreachable

    try:
        status, health = DaemonConnection(path, config.server.expected_uid).call("GET", "/v1/health", timeout=timeout)
    except DaemonUnreachable as exc:
        report.problems.append(f"daemon: {exc}")
        return
    if status != 200:
        report.problems.append(f"daemon: /v1/health answered {status}")
        return
    report.ok.append(f"daemon: signoff {health.get('version')} answers; channels {json.dumps(health.get('channels'))}")
    for name, state in (health.get("channels") or {}).items():
        if state != "up":
            report.problems.append(f"daemon: channel {name} is {state}")


def _check_classifier(report: Report) -> None:
    from core.crisis import compiled

    if compiled():
        report.ok.append("crisis check: compiled fast path")
    else:
        report.notes.append("crisis check: pure-Python path (no C compiler at install, or a stale build): same "
                            "verdicts, about three times as slow on long never-seen texts; with a compiler, rebuild "
                            "with: pip install -e .")
    from core.crisis import _detect, _model

    broken = _detect.model_status()
    if broken is not None:
        report.problems.append(f"crisis model: not loaded ({broken}): the phrase tables check alone; reinstall "
                               "signoff (core/crisis/data/ is part of the package)")
    else:
        meta = _model.model().meta
        fast = "compiled scorer" if _model._FAST is not None else "pure-Python scorer"
        report.ok.append(f"crisis model: data {meta['data_version']} ({meta['rows']:,} rows), {fast}")
    from core.crisis import _deep

    broken = _deep.status()
    if broken is not None:
        report.problems.append(f"crisis deep reader: not loaded ({broken}): the tables and the TF-IDF model "
                               "check alone; reinstall signoff (onnxruntime and tokenizers are dependencies, "
                               "core/crisis/data/deep/ is part of the package), or set crisis.deep_reader: false")
    else:
        meta = _deep.reader().meta
        report.ok.append(f"crisis deep reader: data {meta['data_version']}, alert at {meta['alert']:.4f}")


def _check_ledger(config: Config, report: Report) -> None:
    url = config.ledger.resolved_url()
    if url.startswith("sqlite:///"):
        from pathlib import Path

        db = Path(url[len("sqlite:///") :])
        try:
            db.exists()
        except PermissionError:
            report.problems.append(f"ledger: {db.parent} cannot be read by uid {os.getuid()} "
                                   "(run doctor as the daemon's user to check the ledger)")
            return
        if not db.exists():
            where = db.parent if db.parent.exists() else None
            if where is not None and not os.access(where, os.W_OK):
                report.problems.append(f"ledger: {where} is not writable: {db.name} cannot be created")
            else:
                report.notes.append(f"ledger: {db} will be created at the first start")
            return
        if not os.access(db, os.W_OK):
            report.problems.append(f"ledger: {db} is not writable by uid {os.getuid()}")
            return
    try:
        from core.ledger import schema_is_current

        if schema_is_current(url):
            report.ok.append(f"ledger: {url} schema current")
        else:
            report.problems.append(f"ledger: {url} schema is not current (start the daemon to migrate it)")
            return
    except Exception as exc:  # any driver error is a finding, not a crash
        report.problems.append(f"ledger: {url}: {exc}")
        return
    _check_chain(url, report)


#: Findings of the chain check listed one by one; the rest are counted.
MAX_CHAIN_FINDINGS = 10


def _check_chain(url: str, report: Report) -> None:
    """The check of ``signoff ledger verify``: the hash chain and every approval against its events."""
    from core.ledger_verify import verify_ledger

    try:
        chain = verify_ledger(url)
    except Exception as exc:  # unreadable: a finding, not a crash
        report.problems.append(f"ledger: the chain could not be checked: {exc}")
        return
    summary = chain.lines()[0]
    if chain.intact:
        report.ok.append(f"ledger: chain intact: {summary}")
        return
    findings = ([chain.first_bad_event] if chain.first_bad_event else []) + chain.disagreeing
    for f in findings[:MAX_CHAIN_FINDINGS]:
        report.problems.append(f"ledger: TAMPERED: {f.message}")
    if len(findings) > MAX_CHAIN_FINDINGS:
        report.problems.append(f"ledger: TAMPERED: {len(findings) - MAX_CHAIN_FINDINGS:,} more findings "
                               "(signoff ledger verify lists them all)")


def _check_telegram(config: Config, report: Report, timeout: float) -> None:
    from telegram import Bot
    from telegram.error import TelegramError
    from telegram.request import HTTPXRequest

    async def get_me():
        request = HTTPXRequest(connect_timeout=timeout, read_timeout=timeout)
        bot = Bot(config.telegram.token.get_secret_value(), base_url=config.telegram.base_url, request=request)
        async with bot:
            return bot.bot

    try:
        me = asyncio.run(get_me())
    except TelegramError as exc:
        from adapters.telegram_channel import redact

        report.problems.append(f"telegram: getMe failed: {redact(str(exc), config.telegram)}")
    except Exception as exc:
        report.problems.append(f"telegram: {exc!r}")
    else:
        report.ok.append(f"telegram: token works (bot @{me.username})")


def _check_discord(config: Config, report: Report, timeout: float) -> None:
    import discord

    async def login():
        old_base = discord.http.Route.BASE
        discord.http.Route.BASE = config.discord.api_base_url.rstrip("/")  # process-wide; restored below
        client = discord.Client(intents=discord.Intents.default())
        try:
            await asyncio.wait_for(client.login(config.discord.token.get_secret_value()), timeout)
            return client.user
        finally:
            await client.close()
            discord.http.Route.BASE = old_base

    try:
        user = asyncio.run(login())
    except TimeoutError:
        report.problems.append(f"discord: login did not answer within {timeout:g} s")
    except Exception as exc:
        report.problems.append(f"discord: login failed: {exc}")
    else:
        report.ok.append(f"discord: token works (bot {user})")
