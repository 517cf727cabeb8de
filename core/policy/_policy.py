"""The classifier: crisis first, then the kind of action (shell, database, known, unknown) and the
tier of its command (tiers.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from core.crisis import CrisisMatch
from core.crisis._detect import assess_crisis_request
from core.policy import _paths as P
from core.policy import tables as T
from core.policy._actions import exact_key, server_part, split_words, tool_part, word_tier
from core.policy._sql import classify_sql, sql_shell_commands
from core.policy.code import scan_code
from core.policy.shell.families.interpreters import _scan_code
from core.policy.shell.state import Acc
from core.policy.shell.walker import ShellReader
from core.tiers import Tier

S, L, M, H, C = Tier.SAFE, Tier.LOW, Tier.MEDIUM, Tier.HIGH, Tier.CRITICAL

#: where a shell command can carry a person's words: a quote, a comment, a here-document, or five plain words
#: in a row (``echo i cannot do this anymore >> notes``)
_PROSE = re.compile(r"[\"'`#]|<<|(?:(?<![^\s])[A-Za-z']+\s+){4}[A-Za-z']+(?![^\s])")
#: longest command text read (the API caps commands at 32 KiB of UTF-8)
MAX_COMMAND = 64 * 1024


@dataclass(frozen=True, slots=True)
class Classification:
    """The verdict on one request.

    Attributes:
        tier: the risk tier (CRITICAL for a crisis).
        reason: a phone-readable explanation naming the rule that decided.
        rule: a stable rule id, e.g. ``shell.rm.recursive.sysroot``, ``action.word.deploy``, ``sql.drop``.
        crisis: the crisis match when crisis language was found, else None.
        concern: True when the crisis model's score is in its grey zone (no alert): the request needs a person
            (at least MEDIUM, never approved by policy) and its card carries the crisis resources.
    """

    tier: Tier
    reason: str
    rule: str
    crisis: CrisisMatch | None = None
    concern: bool = False


def _with_concern(res: Classification) -> Classification:
    """``res`` with possible crisis language: it needs a person (at least MEDIUM) and says why."""
    if res.tier < M:
        return Classification(M, f"possible crisis language: a person should look ({res.reason})",
                              "crisis.concern", None, True)
    return Classification(res.tier, f"{res.reason}; possible crisis language: a person should look", res.rule,
                          None, True)


@dataclass(frozen=True)
class PolicyTables:
    """Operator extensions of the built-in tables (config ``policy.*``).

    Attributes:
        shell_actions: extra action names whose command is read as shell.
        action_tiers: extra exact action names and their tier; they win over the built-in names and words.
        read_only_programs: extra programs that are SAFE (read-only).
        programs: additions to the program knowledge table (``core/policy/data/programs.toml``, the same keys):
            program name -> entry; an entry for a listed program adds to it.
    """

    shell_actions: tuple[str, ...] = ()
    action_tiers: Mapping[str, Tier] = field(default_factory=lambda: MappingProxyType({}))
    read_only_programs: tuple[str, ...] = ()
    programs: Mapping[str, Mapping] = field(default_factory=lambda: MappingProxyType({}))


def _display(text: str) -> str:
    """Text for one line of a reason: line breaks shown as ⏎ (they separate commands), blanks collapsed,
    backtick pairs shown as ``$(…)`` (what they are; the reason itself is quoted with backticks)."""
    if "`" not in text and "\n" not in text and "\r" not in text:
        return " ".join(text.split())
    if "\n" in text or "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", " ⏎ ")
    one = " ".join(text.split())
    if "`" in one:
        parts = one.split("`")
        out = [parts[0]]
        for k, p in enumerate(parts[1:]):
            if k % 2 == 0:
                out.append("$(" if k + 1 < len(parts) - 1 else "ˋ")
            else:
                out.append(")")
            out.append(p)
        one = "".join(out)
    return one


def _display_longer(text: str, limit: int) -> bool:
    """``len(_display(text)) > limit``, without displaying all of a long text: every character but blanks
    shows as at least one, so enough of them in its first part decide."""
    if len(text) > 4 * limit and len("".join(text[:4 * limit].split())) > limit:
        return True
    return len(_display(text)) > limit


def _find_focus(text: str, focus) -> tuple[int, int]:
    """Where the words of the deciding simple command are in ``text`` (start, length), or (-1, 0)."""
    if not focus:
        return -1, 0
    words = [w for w in focus[:16] if w and "\x00" not in w]
    if not words:
        return -1, 0
    if len(words) > 1:
        for nd in (" ".join(words)[:60], " ".join(words[1:])[:60]):
            pos = text.find(nd)
            if pos >= 0:
                return pos, len(nd)
    for nd in sorted((w for w in words if len(w) > 1), key=len, reverse=True)[:4] + [words[0]]:
        pos = text.find(nd)
        if pos >= 0:
            return pos, len(nd)
    return -1, 0


def _snippet(text: str, limit: int = 80, focus=None) -> str:
    """The command for the reason: its first ``limit`` characters, or, when the part that decided is
    further on, a window around that part (``…rm -rf /etc…``) so the reason never hides it."""
    if len(text) <= limit:
        return _display(text)
    pos, ln = _find_focus(text, focus) if focus is not None else (-1, 0)
    if pos + ln >= limit - 1:
        if _display_longer(text[:pos + ln + 1], limit - 1):
            start = max(0, pos - 24)
            one = _display(text[start:start + limit * 4])
            cut = one[: limit - 2]
            return ("…" if start > 0 else "") + cut + ("…" if len(one) > len(cut) else "")
    one = _display(text[: limit * 4])
    if len(one) > limit:
        one = one[: limit - 1] + "…"
    return one


def _because(acc, command: str) -> str:
    """``reason in `command``` with the deciding part of the command shown."""
    return f"{acc.reason} in `{_snippet(command, focus=acc.where)}`"


_TIER_NAMES = {t: t.name for t in Tier}
_TIERS = tuple(Tier)  # level → Tier without the enum call


class Policy:
    """A classifier built from the default tables plus operator extensions.

    Everything that can be computed ahead (tables, handler maps) is computed in ``__init__``;
    :meth:`classify` is then safe to call from any thread.
    """

    def __init__(self, tables: PolicyTables | None = None):
        tables = tables or PolicyTables()
        self.tables = tables
        self._shell_actions = frozenset(exact_key(a) for a in tables.shell_actions)
        exact = dict(T.ACTION_EXACT)
        for name, tier in tables.action_tiers.items():
            exact[exact_key(name)] = Tier.parse(tier)
        self._exact = exact
        self._extra_exact = frozenset(exact_key(n) for n in tables.action_tiers)
        self._reader = ShellReader(tables.read_only_programs, tables.programs)
        self._action_cache: dict = {}
        self._flag_cache: dict = {}

    # ------------------------------------------------------------------ public
    def classify(self, action: str, command: str | None = None, description: str | None = None,
                 cwd: str | None = None) -> Classification:
        """Classify one request. Never raises on any string input."""
        try:
            return self._classify(action, command, description, cwd)
        except Exception as exc:  # pragma: no cover - last line of defence: fail closed
            return Classification(Tier.HIGH, f"could not be classified ({type(exc).__name__}): review it",
                                  "internal.error")

    def prose_of(self, action: str, command: str | None, description: str | None) -> str | None:
        """The text of a request the deep crisis reader (:mod:`core.crisis._deep`) should read, or None when
        it holds nothing a person may have written: no description, and a command with fewer than three words
        of letters (``ls -la``, ``git status``, a base64 blob) or a shell command with no quote, comment,
        here-document or run of plain words (agents send thousands of these; reading them would only cost
        time). A description is always read."""
        from core.crisis._deep import has_prose, request_text

        action = action if isinstance(action, str) else str(action or "")
        command = command if isinstance(command, str) else ("" if command is None else str(command))
        if not (description and description.strip()):
            if not has_prose(command) or self._no_place_for_words(action, command, description):
                return None
        return request_text(action, command[:MAX_COMMAND], description)

    @staticmethod
    def deepen(res: Classification, deep) -> Classification:
        """``res`` with the deep reader's verdict (a :class:`core.crisis._deep.DeepVerdict`, or None when it did
        not read) added: an alert makes the request a crisis (CRITICAL, family ``deep``); a grey-zone score makes
        it need a person (at least MEDIUM, the resources on its card). It never lowers anything."""
        if deep is None or res.crisis is not None:
            return res
        if deep.alert:
            return Classification(C, "crisis language (warning_sign, read by the deep reader)",
                                  "crisis.warning_sign", CrisisMatch("warning_sign", None, "deep"))
        if not deep.concern or res.concern:
            return res
        return _with_concern(res)

    # ---------------------------------------------------------------- internals
    def _classify(self, action, command, description, cwd) -> Classification:
        action = action if isinstance(action, str) else str(action or "")
        command = command if isinstance(command, str) else ("" if command is None else str(command))
        if len(command) > MAX_COMMAND:
            # the API caps commands at 32 KiB; anything longer is not read past MAX_COMMAND and is at least HIGH
            res = self._classify(action, command[:MAX_COMMAND], description, cwd)
            if res.tier < H:
                res = Classification(H, f"command longer than {MAX_COMMAND // 1024} KiB: not read fully",
                                     "input.too_long", res.crisis, res.concern)
            return res
        assessment = assess_crisis_request(action, command, description)
        crisis = assessment.match
        if crisis is not None:
            return Classification(Tier.CRITICAL, f"crisis language ({crisis.category})", f"crisis.{crisis.category}",
                                  crisis)
        res = self._classify_kind(action, command, cwd)
        if not assessment.concern or self._no_place_for_words(action, command, description):
            return res  # (the grey zone is for prose: its syntax is noise to the model)
        return _with_concern(res)

    def _no_place_for_words(self, action: str, command: str, description: str | None) -> bool:
        """A shell command with no quote, comment, here-document or run of plain words, and no description:
        it has no place for a person's words."""
        return not description and self._action_kind(action)[0] == "shell" and not _PROSE.search(command)

    def _classify_kind(self, action, command, cwd) -> Classification:
        kind, info = self._action_kind(action)
        if kind == "shell":
            return self._shell_action(command, cwd)
        if kind == "database":
            return self._database_action(action, info, command)
        if kind == "unknown":
            return self._unknown_action(action, command, cwd)
        return self._known_action(action, info, command, cwd)

    def _action_kind(self, action: str):
        hit = self._action_cache.get(action)
        if hit is not None:
            return hit
        tool = tool_part(action)
        key = exact_key(tool)
        words = split_words(tool)
        wset = frozenset(words)
        # exact names also match when written in camelCase or plural (killProcesses → kill_process)
        if key not in self._exact and words:
            wkey = "_".join(words)
            last = words[-1]
            for cand in (wkey, wkey[:-2] if last.endswith("es") else "", wkey[:-1] if last.endswith("s") else ""):
                if cand and cand in self._exact:
                    key = cand
                    break
        server = frozenset(split_words(server_part(action)))
        if key in self._shell_actions or exact_key(action) in self._shell_actions:
            res = ("shell", None)
        elif key in self._extra_exact:
            res = ("known", (self._exact[key], f"action.exact.{key}", f"{tool} is listed as "
                             f"{_TIER_NAMES[self._exact[key]]}", words, key))
        elif wset & T.DATABASE_WORDS:
            res = ("database", (words, key))
        elif key in self._exact:
            res = ("known", (self._exact[key], f"action.exact.{key}", f"{tool} is listed as "
                             f"{_TIER_NAMES[self._exact[key]]}", words, key))
        elif wset & T.SHELL_WORDS:
            res = ("shell", None)
        elif server & T.DATABASE_WORDS and wset & T.SERVER_RUN_WORDS:
            # mcp__postgres__query, mcp__sqlite__write_query: the server says what the tool runs
            res = ("database", (words, key))
        elif server & T.SHELL_WORDS and wset & T.SERVER_RUN_WORDS:
            res = ("shell", None)
        else:
            wt = word_tier(words)
            if wt is None:
                res = ("unknown", (words, key))
            else:
                res = ("known", (wt[0], wt[1], f"{wt[2]} ({tool})", words, key))
        if len(self._action_cache) < 4096:
            self._action_cache[action] = res
        return res

    def _shell_tier(self, command: str, cwd: str | None) -> Acc:
        acc, _damaged = self._reader.classify(command, cwd)
        return acc

    def _shell_action(self, command: str, cwd: str | None) -> Classification:
        if not command.strip():
            return Classification(L, "empty command: nothing to run", "shell.empty")
        acc = self._shell_tier(command, cwd)
        if acc.tier < 0:
            return Classification(S, "nothing runs (comment only)", "shell.comment")
        return Classification(_TIERS[acc.tier], _because(acc, command), acc.rule)

    def _unknown_action(self, action: str, command: str, cwd: str | None) -> Classification:
        best = [L, "action.unknown", f"unknown action {_snippet(action, 40)}"]

        def raise_to(t, r, why):
            if t > best[0]:
                best[0], best[1], best[2] = t, r, why

        if command.strip():
            acc = self._shell_tier(command, cwd)
            # the command may be code too (execute_python, jupyter_run): its calls count (fail closed)
            if ("(" in command or "`" in command) and scan_code(command):
                _scan_code(self._reader, command, _ctx_for(self._reader, cwd), acc)
            if acc.tier > best[0]:
                raise_to(Tier(acc.tier), acc.rule, _because(acc, command))
            _, info = self._action_kind(action)
            words = info[0] if info else split_words(tool_part(action))
            self._http_and_paths(action, words, command, cwd, raise_to)
            self._sql_command(words, command, raise_to)
        return Classification(Tier(best[0]), best[2], best[1])

    def _http_and_paths(self, action, words, command, cwd, raise_to):
        """``METHOD URL`` for every action; the path rules for actions that write or read a path."""
        text = command.strip()
        flags = self._flag_cache.get(action)
        if flags is None:
            wset = set(words)
            # a lone verb (Claude Code's Read, Write, Edit; view, cat) acts on the path it is given
            flags = (bool(wset & T.PATH_WRITE_VERBS) and (bool(wset & T.PATH_OBJECTS) or len(words) == 1),
                     bool(wset & T.PATH_READ_VERBS) and (bool(wset & T.PATH_OBJECTS) or len(words) == 1))
            if len(self._flag_cache) < 4096:
                self._flag_cache[action] = flags
        writes, reads = flags
        c0 = text[:1]
        if ("A" <= c0 <= "Z" or c0 in "dgpho") and " " in text[:8]:
            self._http_method(text, raise_to)
        if writes or reads:
            self._path_rules(action, text, cwd, writes, reads, raise_to)

    def _http_method(self, text, raise_to):
        toks = text.split(None, 2)
        if len(toks) >= 2 and len(toks[0]) <= 7:
            method = toks[0] if toks[0] in T.HTTP_METHODS else (toks[0].upper() if len(toks) == 2 else "")
            if method in T.HTTP_METHODS and toks[1].startswith(("http://", "https://", "/")):
                t = T.HTTP_METHOD_TIERS.get(method, M)
                raise_to(t, f"http.{method.lower()}", f"HTTP {method} request to {_snippet(toks[1], 60)}")

    def _path_rules(self, action, text, cwd, writes, reads, raise_to):
        """Path rules of actions that write or read the path in their command (tiers.md)."""
        for p in _path_tokens(text):
            cls = P.classify_path(p, cwd, cwd, None)
            if writes:
                if cls in (P.SYSTEM, P.SYSROOT, P.ROOT, P.SENSITIVE, P.BLOCKDEV, P.SYSRQ, P.HOME):
                    raise_to(H, f"action.path_write.{cls}", f"{action} on {_snippet(p, 60)} ({P.label(cls)})")
                elif cls == P.ENV:
                    raise_to(M, "action.path_write.env", f"{action} on {_snippet(p, 60)} (.env file)")
            if reads and (cls in (P.SENSITIVE, P.ENV) or P.is_secret_read(p)):
                what = P.label(cls) if cls in (P.SENSITIVE, P.ENV) else "secrets"
                raise_to(M, "action.path_read.secret", f"{action} reads {_snippet(p, 60)} "
                                                       f"({what}) into the agent's context")

    def _sql_command(self, words, command, raise_to):
        """Actions that run a query (run_query, execute_query, query) read a SQL command as SQL."""
        for w in words:
            if w in T.SQL_RUN_WORDS:
                break
        else:
            return
        head = command.lstrip().split(None, 1)
        if head and head[0].lower().rstrip(";") in T.SQL_STATEMENT_WORDS:
            tier, rule, reason, _ok = classify_sql(command)
            raise_to(tier, rule, f"{reason} in `{_snippet(command)}`")

    def _database_action(self, action: str, info, command: str) -> Classification:
        words, _key = info
        if command.strip():
            tier, rule, reason, _ok = classify_sql(command)
            best = (tier, rule, f"{reason} in `{_snippet(command)}`")
            for cmd in sql_shell_commands(command):
                acc = self._shell_tier(cmd, None)
                t = Tier(max(acc.tier, M))
                if t > best[0]:
                    best = (t, acc.rule if acc.tier >= M else "sql.shell",
                            f"SQL runs a shell command: {acc.reason} in `{_snippet(cmd)}`")
        else:
            best = (M, "action.database", f"database action {_snippet(action, 40)}")
        for w in words:
            t = T.REMOVAL_VERBS.get(w)
            if t is None and w in ("migrate", "migration"):
                t = H
            if t is not None and t > best[0]:
                best = (t, f"action.removal.{w}" if w in T.REMOVAL_VERBS else f"action.word.{w}",
                        f"'{w}' in the database action {_snippet(action, 40)}")
        return Classification(Tier(best[0]), best[2], best[1])

    def _known_action(self, action: str, info, command: str, cwd: str | None) -> Classification:
        tier, rule, reason, words, key = info
        best = [tier, rule, reason]

        def raise_to(t, r, why):
            if t > best[0]:
                best[0], best[1], best[2] = t, r, why

        text = command.strip()
        if text:
            wset = set(words)
            toks = text.split(None, 2)
            first = toks[0].strip("'\"").rsplit("/", 1)[-1].lower()
            runs_code = bool(wset & T.CODE_WORDS)
            # the command line of the program the action is named after (git_push: git …; http_request: curl …)
            named = bool(first) and (first in wset or any(first in T.ACTION_PROGRAMS.get(w, ()) for w in wset))
            if runs_code or named:
                acc = self._shell_tier(command, cwd)
                if runs_code:
                    _scan_code(self._reader, command, _ctx_for(self._reader, cwd), acc)
                if acc.tier > best[0]:
                    raise_to(Tier(acc.tier), acc.rule, _because(acc, command))
            elif key in ("execute_code",) and scan_code(command):
                acc = Acc()
                _scan_code(self._reader, command, _ctx_for(self._reader, cwd), acc)
                if acc.tier > best[0]:
                    raise_to(Tier(acc.tier), acc.rule, _because(acc, command))
            self._http_and_paths(action, words, command, cwd, raise_to)
            self._sql_command(words, command, raise_to)
        return Classification(Tier(best[0]), best[2], best[1])


def _ctx_for(reader: ShellReader, cwd: str | None):
    from core.policy.shell.state import Ctx

    ws = P.normalize(cwd, None) if cwd and cwd[:1] in ("/", "~") else None
    return Ctx(ws, ws, None)


# keys of the JSON arguments of file tools (Claude Code's Read/Write/Edit, MCP filesystem servers)
_PATH_KEYS = frozenset(("path", "file_path", "filepath", "filePath", "file", "filename", "notebook_path", "paths",
                        "target", "destination", "source", "dir", "directory", "uri"))


def _json_paths(text: str) -> list[str] | None:
    """The paths named by a JSON object of tool arguments (``{"file_path": "/etc/x", "content": …}``), or
    None when ``text`` is not one. Values under path keys, and any string value that looks like a path."""
    try:
        obj = json.loads(text)
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    out: list[str] = []
    for key, value in list(obj.items())[:32]:
        values = value if isinstance(value, list) else [value]
        for v in values[:32]:
            if not isinstance(v, str) or not v or len(v) > 4096:
                continue
            if v.startswith("file://"):
                v = v[7:]
            if key in _PATH_KEYS or (" " not in v and "\n" not in v and v.startswith(("/", "~/", "./", "../"))):
                out.append(v)
    return out


def _path_tokens(text: str) -> list[str]:
    if text[:1] == "{":
        paths = _json_paths(text)
        if paths is not None:
            return paths
    out = []
    for tok in text.split()[:8]:
        tok = tok.strip("'\"`,;()[]{}")
        if "=" in tok:  # path=/etc/passwd, --file=~/.bashrc
            tok = tok.rsplit("=", 1)[1].strip("'\"`,;()[]{}")
        if not tok:
            continue
        if tok.startswith(("/", "~", "./", "../", ".env")) or "/" in tok or tok.startswith("."):
            out.append(tok)
    if not out and len(text.split()) == 1:
        out.append(text.strip("'\""))
    return out


_DEFAULT: Policy | None = None


def default_policy() -> Policy:
    """The shared classifier with the built-in tables."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Policy()
    return _DEFAULT


def classify(action: str, command: str | None = None, description: str | None = None,
             cwd: str | None = None) -> Classification:
    """Classify a request with the default tables (see :meth:`Policy.classify`)."""
    return default_policy().classify(action, command, description, cwd)
