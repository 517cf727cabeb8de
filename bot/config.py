"""signoff's configuration: pydantic models read from YAML, secrets from the environment.

The file is found at ``--config``, else ``$SIGNOFF_CONFIG``, else ``~/.config/signoff/config.yaml``;
never in the current directory (an agent controls its working directory). With no file, built-in
defaults run: SQLite ledger and socket under the user's state directory, terminal channel only.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

from core.crisis import DEFAULT_RESOURCES, Resource
from core.tiers import DEFAULT_TIMEOUTS, Tier

ENV_CONFIG = "SIGNOFF_CONFIG"
ENV_TELEGRAM_TOKEN = "SIGNOFF_TELEGRAM_TOKEN"
ENV_DISCORD_TOKEN = "SIGNOFF_DISCORD_TOKEN"
ENV_LLM_API_KEY = "SIGNOFF_LLM_API_KEY"


class ConfigError(Exception):
    """The configuration cannot be used; the message names the file and the key."""


def state_dir() -> Path:
    """The user's state directory for signoff (``~/.local/state/signoff`` on Linux)."""
    from platformdirs import user_state_dir

    return Path(user_state_dir("signoff", appauthor=False))


def default_config_path() -> Path:
    return Path.home() / ".config" / "signoff" / "config.yaml"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_default=True)


class ServerConfig(_Section):
    socket_path: Path | None = None  # default: <state dir>/signoff.sock
    socket_mode: str = "0600"
    socket_group: str | None = None
    expected_uid: int | None = None
    #: seconds a connection may take to send its request's headers (also: idle keep-alive connections)
    header_timeout: float = Field(default=20, gt=0, le=3600)
    #: seconds a request may take to send its body once its headers arrived (then 408)
    body_timeout: float = Field(default=30, gt=0, le=3600)
    #: connections served at once; one more is answered 503 and closed (lowered to fit RLIMIT_NOFILE)
    max_connections: int = Field(default=1000, ge=1, le=1_000_000)

    @field_validator("socket_mode", mode="before")
    @classmethod
    def _mode(cls, value: Any) -> str:
        # YAML reads 0600 as the octal int 384 and "0600" as a string; accept both.
        text = format(value, "04o") if isinstance(value, int) and not isinstance(value, bool) else str(value)
        try:
            mode = int(text, 8)
        except ValueError:
            raise ValueError(f"{value!r} is not an octal file mode such as \"0600\"") from None
        if mode & ~0o777 or mode & 0o007:
            raise ValueError(f"{text} would let every user of the machine in; use 0600 or 0660")
        return text

    @property
    def mode(self) -> int:
        return int(self.socket_mode, 8)

    def path(self) -> Path:
        return (self.socket_path or state_dir() / "signoff.sock").expanduser()


class TerminalConfig(_Section):
    enabled: bool | Literal["auto"] = "auto"
    approver_uids: list[int] = Field(default_factory=list)  # empty: the daemon's own uid


class PolicyConfig(_Section):
    shell_actions: list[str] = Field(default_factory=list)
    action_tiers: dict[str, Tier] = Field(default_factory=dict)
    read_only_programs: list[str] = Field(default_factory=list)
    programs: dict[str, dict[str, Any]] = Field(default_factory=dict)  # additions to the program knowledge

    @field_validator("programs")
    @classmethod
    def _programs(cls, value: dict) -> dict:
        from core.policy._knowledge import KnowledgeError, load

        try:
            load(extra=value)
        except KnowledgeError as exc:
            raise ValueError(f"policy.{exc}") from None
        return value

    def tables(self):
        """These settings as the classifier's :class:`core.policy.PolicyTables`."""
        from core.policy import PolicyTables

        return PolicyTables(shell_actions=tuple(self.shell_actions), action_tiers=dict(self.action_tiers),
                            read_only_programs=tuple(self.read_only_programs), programs=dict(self.programs))

    @field_validator("action_tiers", mode="before")
    @classmethod
    def _tiers(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: Tier.parse(v) for k, v in value.items()}
        return value


class LedgerConfig(_Section):
    url: str | None = None  # default: sqlite:///<state dir>/ledger.db

    def resolved_url(self) -> str:
        if self.url:
            if self.url.startswith("sqlite:///~"):
                return "sqlite:///" + str(Path(self.url[len("sqlite:///") :]).expanduser())
            return self.url
        return f"sqlite:///{state_dir() / 'ledger.db'}"


class LowTier(_Section):
    without_llm: Literal["approve", "human"] = "approve"


class TimedTier(_Section):
    timeout: float = Field(gt=0, le=7 * 24 * 3600)


class TiersConfig(_Section):
    LOW: LowTier = Field(default_factory=LowTier)
    MEDIUM: TimedTier = Field(default_factory=lambda: TimedTier(timeout=DEFAULT_TIMEOUTS[Tier.MEDIUM]))
    HIGH: TimedTier = Field(default_factory=lambda: TimedTier(timeout=DEFAULT_TIMEOUTS[Tier.HIGH]))
    CRITICAL: TimedTier = Field(default_factory=lambda: TimedTier(timeout=DEFAULT_TIMEOUTS[Tier.CRITICAL]))

    def timeouts(self) -> dict[Tier, float]:
        return {Tier.MEDIUM: self.MEDIUM.timeout, Tier.HIGH: self.HIGH.timeout, Tier.CRITICAL: self.CRITICAL.timeout}


class TelegramConfig(_Section):
    token: SecretStr | None = None
    base_url: str = "https://api.telegram.org/bot"
    rate_limiter: bool = True
    approval_chat_ids: list[int] = Field(default_factory=list)
    approver_ids: list[int] = Field(default_factory=list)
    oncall_chat_ids: list[int] = Field(default_factory=list)
    crisis_chat_ids: list[int] = Field(default_factory=list)


class DiscordConfig(_Section):
    token: SecretStr | None = None
    approval_channel_ids: list[int] = Field(default_factory=list)
    approver_user_ids: list[int] = Field(default_factory=list)
    approver_role_ids: list[int] = Field(default_factory=list)
    oncall_channel_ids: list[int] = Field(default_factory=list)
    crisis_channel_ids: list[int] = Field(default_factory=list)
    api_base_url: str = "https://discord.com/api/v10"
    gateway_url: str | None = None
    # Read guild channel messages for crisis language (needs the privileged MESSAGE_CONTENT intent
    # enabled in the developer portal; Discord refuses the connection otherwise). DMs are read anyway.
    message_content: bool = False


class CrisisConfig(_Section):
    resources: list[Resource] = Field(default_factory=lambda: list(DEFAULT_RESOURCES), min_length=1)
    ack_timeout: float = Field(default=120, gt=0)  # seconds before responders are alerted again
    max_realerts: int = Field(default=10, ge=0)
    store_text: bool = True  # false: the ledger keeps only category, a hash of the text and where
    # true: grey-zone messages and requests are also asked of the llm (it can only add an alert)
    second_opinion: bool = False
    # true: messages and prose requests the fast check passed are also read by the deep reader (a small
    # fine-tuned transformer, core/crisis/_deep.py, in a thread of its own); it can only add an alert or a concern
    deep_reader: bool = True


class LLMConfig(_Section):
    base_url: str | None = None
    model: str | None = None
    api_key: SecretStr | None = None
    timeout: float = Field(default=10, gt=0)
    max_retries: int = Field(default=2, ge=0)
    rerank: bool = True


class RulesConfig(_Section):
    ttl: float | None = None


class ClaudeCodeHook(_Section):
    on_unreachable: Literal["ask", "deny"] = "ask"
    max_wait: float = Field(default=540, gt=0)


class HooksConfig(_Section):
    claude_code: ClaudeCodeHook = Field(default_factory=ClaudeCodeHook)


class Config(_Section):
    """The whole configuration (keys of ``shared/spec/interfaces.md``)."""

    server: ServerConfig = Field(default_factory=ServerConfig)
    terminal: TerminalConfig = Field(default_factory=TerminalConfig)
    policy: PolicyConfig = Field(default_factory=PolicyConfig)
    ledger: LedgerConfig = Field(default_factory=LedgerConfig)
    tiers: TiersConfig = Field(default_factory=TiersConfig)
    telegram: TelegramConfig | None = None
    discord: DiscordConfig | None = None
    crisis: CrisisConfig = Field(default_factory=CrisisConfig)
    llm: LLMConfig | None = None
    rules: RulesConfig = Field(default_factory=RulesConfig)
    hooks: HooksConfig = Field(default_factory=HooksConfig)

    #: Where it was read from (None: built-in defaults).
    source: Path | None = Field(default=None, exclude=True)

    @property
    def phone_channels(self) -> list[str]:
        return [name for name in ("telegram", "discord") if getattr(self, name) is not None]

    @property
    def terminal_enabled(self) -> bool:
        """``terminal.enabled``; ``auto`` means on only when no phone channel is configured."""
        if self.terminal.enabled == "auto":
            return not self.phone_channels
        return bool(self.terminal.enabled)

    def terminal_approver_uids(self) -> set[int]:
        return set(self.terminal.approver_uids) or {os.getuid()}


def find_config_path(explicit: str | os.PathLike | None = None) -> Path | None:
    """The config file to read: ``explicit``, else ``$SIGNOFF_CONFIG``, else the user's default if it
    exists. Returns None for built-in defaults.

    Raises:
        ConfigError: an explicitly named file does not exist.
    """
    for named, origin in ((explicit, "--config"), (os.environ.get(ENV_CONFIG) or None, f"${ENV_CONFIG}")):
        if named:
            path = Path(named).expanduser()
            if not path.exists():
                raise ConfigError(f"{path}: config file not found (named by {origin})")
            if not path.is_file():
                raise ConfigError(f"{path}: not a regular file (named by {origin})")
            return path
    path = default_config_path()
    return path if path.is_file() else None


def load_config(explicit: str | os.PathLike | None = None, environ: dict[str, str] | None = None,
                secrets: bool = True) -> Config:
    """Read and validate the configuration, then fill secrets from the environment.

    Args:
        explicit: the ``--config`` path, if any.
        environ: the environment to read secrets from (default ``os.environ``).
        secrets: False for clients (``signoff request``) that never need the platform tokens.

    Raises:
        ConfigError: unreadable file, bad YAML, unknown or mistyped key, missing token.
    """
    environ = os.environ if environ is None else environ
    path = find_config_path(explicit)
    data: Any = {}
    if path is not None:
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except OSError as exc:
            raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
            raise ConfigError(f"{path}: not valid YAML{at}: {getattr(exc, 'problem', None) or exc}") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: the top level must be a mapping of sections (server, telegram, ...)")
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_explain(exc, path)) from None
    config.source = path
    where = str(path) if path else "built-in defaults"
    if config.crisis.second_opinion and (config.llm is None or not config.llm.base_url or not config.llm.model):
        raise ConfigError(f"{where}: crisis.second_opinion is true but llm.base_url and llm.model are not both set")
    if not secrets:
        return config
    if config.telegram is not None and config.telegram.token is None:
        token = environ.get(ENV_TELEGRAM_TOKEN)
        if not token:
            raise ConfigError(f"{where}: telegram.token is not set and ${ENV_TELEGRAM_TOKEN} is empty")
        config.telegram.token = SecretStr(token)
    if config.discord is not None and config.discord.token is None:
        token = environ.get(ENV_DISCORD_TOKEN)
        if not token:
            raise ConfigError(f"{where}: discord.token is not set and ${ENV_DISCORD_TOKEN} is empty")
        config.discord.token = SecretStr(token)
    if config.llm is not None and config.llm.api_key is None and environ.get(ENV_LLM_API_KEY):
        config.llm.api_key = SecretStr(environ[ENV_LLM_API_KEY])
    return config


def _explain(exc: ValidationError, path: Path | None) -> str:
    where = str(path) if path else "config"
    lines = []
    for err in exc.errors():
        loc = ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in err["loc"]).replace(".[", "[")
        if err["type"] == "extra_forbidden":
            hint = _suggest(err["loc"])
            lines.append(f"{where}: unknown key '{loc}'{hint}")
        elif err["type"] == "value_error":  # our own validators already say what they got
            msg = err["msg"].removeprefix("Value error, ")
            # (a validator that names the exact key itself, policy.programs.NAME.options.OPT, is not prefixed)
            lines.append(f"{where}: {msg}" if msg.startswith(loc + ".") else f"{where}: {loc}: {msg}")
        else:
            lines.append(f"{where}: {loc}: {err['msg']} (got {err.get('input')!r})")
    return "\n".join(lines)


def _suggest(loc: tuple) -> str:
    model: Any = Config
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        field = getattr(model, "model_fields", {}).get(part)
        if field is None:
            return ""
        ann = field.annotation
        model = next((a for a in getattr(ann, "__args__", (ann,)) if hasattr(a, "model_fields")), None)
        if model is None:
            return ""
    names = [n for n in getattr(model, "model_fields", {}) if n != "source"]
    close = difflib.get_close_matches(str(loc[-1]), names, n=1)
    return f" (did you mean '{close[0]}'?)" if close else f" (known keys: {', '.join(names)})"
