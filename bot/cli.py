"""The ``signoff`` command line (``shared/spec/interfaces.md`` "The command line").

Imports are local to each command so that ``signoff request`` and ``signoff classify`` start fast.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_UNREACHABLE, EXIT_PENDING = 0, 1, 2, 3, 4
FINAL = {"approved", "denied", "expired", "cancelled", "crisis"}
#: Seconds per long-poll call while waiting; the whole wait is unbounded unless --wait is given.
POLL_SECONDS = 300.0


def _parser() -> argparse.ArgumentParser:
    config_help = ("config file (default: $SIGNOFF_CONFIG, else ~/.config/signoff/config.yaml, "
                   "else built-in defaults)")
    # --config is accepted before or after the command; the subcommands' copy must not overwrite
    # a value given before the command with its default (SUPPRESS leaves it alone).
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", metavar="PATH", default=argparse.SUPPRESS, help=config_help)
    p = argparse.ArgumentParser(prog="signoff",
                                description="Human approval for AI agents: ask, wait, and let a person decide.")
    p.add_argument("--config", metavar="PATH", default=None, help=config_help)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    sub.add_parser("run", parents=[common], help="run the daemon in the foreground until SIGINT/SIGTERM")

    r = sub.add_parser("request", parents=[common], help="ask for approval and wait for the decision",
                       usage="signoff request --action NAME [--description TEXT] [--agent NAME] "
                             "[--wait SECONDS] [--json] [-- COMMAND...]")
    r.add_argument("--action", required=True, help="what the agent wants to do, e.g. terminal or deploy")
    r.add_argument("--description", help="free text shown on the card")
    r.add_argument("--agent", help="the agent's name, shown on the card")
    r.add_argument("--session", help="the agent's session id")
    r.add_argument("--idempotency-key", help="re-attach to the same approval when asking again")
    r.add_argument("--wait", type=float, metavar="SECONDS", help="give up waiting after this long (exit 4)")
    r.add_argument("--json", action="store_true", help="print the final approval as JSON on stdout")

    w = sub.add_parser("wait", parents=[common], help="wait for an approval made earlier (re-attach by id)")
    w.add_argument("id")
    w.add_argument("--wait", type=float, metavar="SECONDS", help="give up waiting after this long (exit 4)")
    w.add_argument("--json", action="store_true", help="print the final approval as JSON on stdout")

    ca = sub.add_parser("cancel", parents=[common], help="cancel your own pending approval")
    ca.add_argument("id")

    pe = sub.add_parser("pending", parents=[common], help="list pending approvals")
    pe.add_argument("--json", action="store_true")

    ak = sub.add_parser("ack", parents=[common],
                        help="acknowledge a crisis alert from the terminal (\"I'm on it\": no more re-alerts)")
    ak.add_argument("id", help="the alert's id, or the id of the crisis request that raised it")

    for name, verb in (("approve", "approve"), ("deny", "deny")):
        d = sub.add_parser(name, parents=[common], help=f"{verb} a pending approval from the terminal")
        d.add_argument("id")
        d.add_argument("--note", help="a note recorded with the decision")

    c = sub.add_parser("classify", parents=[common], help="print the tier and reason of a request (no daemon)",
                       usage="signoff classify [--action NAME] [--description TEXT] [--cwd DIR] [--json] [--batch] "
                             "[-- COMMAND...]")
    c.add_argument("--action", default="terminal", help="the action name (default: terminal)")
    c.add_argument("--description")
    c.add_argument("--cwd")
    c.add_argument("--json", action="store_true")
    c.add_argument("--batch", action="store_true", help="read JSON Lines requests on stdin, write one result per line")

    sub.add_parser("doctor", parents=[common], help="check config, socket, ledger and channels; exit 1 on a problem")

    lg = sub.add_parser("ledger", parents=[common], help="show recorded approvals and their events")
    lg.add_argument("--status", choices=sorted(FINAL | {"pending"}))
    lg.add_argument("--since", metavar="T", help="RFC 3339 time, or an age such as 30m, 12h, 7d")
    lg.add_argument("--limit", type=int, default=None, help="at most this many approvals (newest)")
    lg.add_argument("--json", action="store_true")
    lsub = lg.add_subparsers(dest="ledger_command", metavar="{verify}")
    v = lsub.add_parser("verify", parents=[common], formatter_class=argparse.RawDescriptionHelpFormatter,
                        help="check the ledger's hash chain and that every approval agrees with its events",
                        description=VERIFY_HELP)
    v.add_argument("--json", dest="verify_json", action="store_true", help="print the report as one JSON object")
    return p


VERIFY_HELP = """\
Check the ledger's hash chain and that every approval and crisis alert row agrees with its events.
Reads the ledger file of the config (ledger.url) directly, read-only: no daemon needed.

Names the first edited, inserted, reordered or deleted event, and each approval or crisis alert
whose row disagrees with its events (with the fields that differ). Events written before the
chain existed (ledgers from before this version) are counted as unchained, not as tampering.

exit codes: 0 intact, 1 tampering found, 2 cannot read the ledger (missing, unreadable, not a ledger)

--json prints one object:
  {"intact": true|false, "ledger": URL, "chained_schema": bool,
   "events": {"total": N, "chained": N, "unchained": N},
   "head": {"seq": N, "hash": HEX} | null,
   "approvals": {"total": N, "unchained": N}, "crisis_alerts": {"total": N},
   "first_bad_event": {"id": EVENT_ID | null, "seq": N | null,
                       "problem": "edited"|"inserted"|"deleted"|"reordered", "message": TEXT} | null,
   "disagreeing": [{"kind": "approval"|"crisis_alert", "id": ID,
                    "problem": "disagrees"|"no_events"|"deleted", "fields": [NAME, ...], "message": TEXT}]}
and, when the ledger cannot be read, {"intact": null, "ledger": URL, "error": TEXT} (exit 2).
See docs/ledger.md.
"""


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``signoff`` command. Returns the exit code (see the spec's table)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    trailing: list[str] | None = None
    if "--" in argv:
        i = argv.index("--")
        argv, trailing = argv[:i], argv[i + 1 :]
    args = _parser().parse_args(argv)
    if trailing is not None and args.command not in ("request", "classify"):
        print(f"signoff {args.command}: unexpected arguments after --", file=sys.stderr)
        return EXIT_USAGE
    args.trailing = trailing
    handler = globals()[f"_cmd_{args.command}"]
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `signoff ledger | head`: the reader left; not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


def _command_text(trailing: list[str] | None) -> str | None:
    if not trailing:
        return None
    if len(trailing) == 1:
        return trailing[0]
    import shlex

    return shlex.join(trailing)


def _load(args, secrets: bool = False):
    from bot.config import ConfigError, load_config

    try:
        return load_config(args.config, secrets=secrets)
    except ConfigError as exc:
        print(f"signoff: bad config: {exc}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE) from None


def _connection(args):
    from bot.connection import DaemonConnection

    config = _load(args)
    return DaemonConnection(config.server.path(), config.server.expected_uid)


# run -----------------------------------------------------------------------------------------


def _cmd_run(args) -> int:
    import asyncio
    import logging

    config = _load(args, secrets=True)  # before the heavy imports: a bad config fails fast (exit 2)
    from bot.app import AlreadyRunning, Daemon, LedgerUnavailable

    logging.basicConfig(level=os.environ.get("SIGNOFF_LOG_LEVEL", "INFO"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("httpx", "alembic", "apscheduler", "discord"):  # their INFO lines drown the cards
        logging.getLogger(noisy).setLevel(logging.WARNING)
    try:
        asyncio.run(Daemon(config).run_until_signal())
    except (AlreadyRunning, LedgerUnavailable) as exc:
        print(f"signoff: {exc}", file=sys.stderr)
        return EXIT_NO
    except OSError as exc:
        print(f"signoff: cannot start: {exc}", file=sys.stderr)
        return EXIT_NO
    return EXIT_OK


# request -------------------------------------------------------------------------------------


def _cmd_request(args) -> int:
    from bot.connection import DaemonUnreachable

    if args.wait is not None and args.wait < 0:
        print("signoff request: --wait must be 0 or more seconds", file=sys.stderr)
        return EXIT_USAGE
    body: dict[str, Any] = {"action": args.action, "cwd": os.getcwd()}
    for key in ("description", "agent", "session", "idempotency_key"):
        if getattr(args, key):
            body[key] = getattr(args, key)
    command = _command_text(args.trailing)
    if command is not None:
        body["command"] = command
    conn = _connection(args)
    try:
        status, approval = conn.call("POST", "/v1/approvals?wait=0", body)
    except DaemonUnreachable as exc:
        print(f"signoff request: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE
    if status >= 400:
        err = (approval or {}).get("error", {})
        print(f"signoff request: refused ({status} {err.get('code')}): {err.get('message')}", file=sys.stderr)
        return EXIT_USAGE if status in (400, 413, 415) else EXIT_NO
    from core.text import one_line

    print(f"signoff: {approval['id']} {approval['tier']} {approval['status']}: {one_line(approval['reason'])}",
          file=sys.stderr, flush=True)
    return _await_outcome(conn, approval, args.wait, args.json, "request")


def _cmd_wait(args) -> int:
    from bot.connection import DaemonUnreachable

    conn = _connection(args)
    try:
        status, approval = conn.call("GET", f"/v1/approvals/{args.id}")
    except DaemonUnreachable as exc:
        print(f"signoff wait: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE
    if status == 404:
        print(f"signoff wait: no approval with id {args.id!r}", file=sys.stderr)
        return EXIT_NO
    return _await_outcome(conn, approval, args.wait, args.json, "wait")


#: Seconds a waiting client keeps trying when the daemon goes away (a restart keeps the approval).
RECONNECT_SECONDS = 60.0


def _await_outcome(conn, approval: dict, wait: float | None, as_json: bool, verb: str) -> int:
    """Long-poll until the approval is final (or ``wait`` seconds); print and map it to an exit code."""
    from bot.connection import DaemonUnreachable

    approval_id = approval["id"]
    give_up = None if wait is None else time.monotonic() + wait
    lost_since: float | None = None
    try:
        while approval["status"] not in FINAL:
            left = POLL_SECONDS if give_up is None else give_up - time.monotonic()
            if left <= 0:
                break
            chunk = min(left, POLL_SECONDS)
            polled = time.monotonic()
            try:
                status, latest = conn.call("GET", f"/v1/approvals/{approval_id}?wait={chunk:.3f}", timeout=chunk + 30)
            except DaemonUnreachable as exc:
                # The outage starts when the daemon was last seen serving: a poll it held for a while and
                # then cut (a restart) starts a new one, however long ago an earlier outage began. (A
                # connection closed at once, as by a daemon refusing connections, does not.)
                held = exc.connected and time.monotonic() - polled >= 1.0
                lost_since = time.monotonic() if held or lost_since is None else lost_since
                if time.monotonic() - lost_since > RECONNECT_SECONDS:
                    raise
                time.sleep(1.0)  # the daemon may be restarting; the approval is in its ledger
                continue
            if status == 404:  # the daemon no longer knows it (another ledger?): not approved
                print(f"signoff {verb}: the daemon does not know {approval_id} any more; not approved",
                      file=sys.stderr)
                return EXIT_NO
            if status not in (200, 202):  # a daemon error: retry as if it were restarting
                lost_since = lost_since or time.monotonic()
                if time.monotonic() - lost_since > RECONNECT_SECONDS:
                    raise DaemonUnreachable(f"the daemon keeps answering {status}")
                time.sleep(1.0)
                continue
            lost_since = None
            approval = latest
    except DaemonUnreachable as exc:
        print(f"signoff {verb}: {exc}\nsignoff: {approval_id} stays pending in the ledger; "
              f"re-attach with `signoff wait {approval_id}`", file=sys.stderr)
        return EXIT_UNREACHABLE
    except KeyboardInterrupt:
        print(f"\nsignoff {verb}: stopped waiting; {approval_id} stays pending. Re-attach with "
              f"`signoff wait {approval_id}`, or cancel it with `signoff cancel {approval_id}`", file=sys.stderr)
        return 130

    if as_json:
        print(json.dumps(approval, ensure_ascii=False))
    outcome = approval["status"]
    if outcome == "crisis":
        if not as_json:
            print(_resources_text(approval))
        print("signoff: crisis language was found; help is available now (see above).", file=sys.stderr)
        return EXIT_NO
    from core.text import one_line

    who = one_line(approval.get("decided_by_name") or approval.get("decided_by") or "")
    note = f" — note: {one_line(approval['note'])}" if approval.get("note") else ""
    print(f"signoff: {approval_id} {outcome}" + (f" by {who}" if who and outcome in ("approved", "denied") else "")
          + note, file=sys.stderr)
    if outcome == "approved":
        return EXIT_OK
    if outcome == "pending":
        return EXIT_PENDING
    return EXIT_NO


def _cmd_cancel(args) -> int:
    return _change(args, "cancel", f"/v1/approvals/{args.id}/cancel", None)


def _resources_text(approval: dict) -> str:
    lines = ["You are not alone, and help is available right now:"]
    for r in approval.get("resources") or []:
        lines.append(f"  • {r['name']}: {r['contact']}")
    return "\n".join(lines)


# pending / approve / deny ----------------------------------------------------------------------


def _cmd_pending(args) -> int:
    from urllib.parse import quote

    from bot.connection import DaemonUnreachable

    conn, approvals, before = _connection(args), [], None
    try:
        while True:  # the API pages newest first; every page, shown oldest first
            path = "/v1/approvals?status=pending&limit=1000" + (f"&before={quote(before)}" if before else "")
            status, data = conn.call("GET", path)
            page = data.get("approvals", []) if isinstance(data, dict) else []
            approvals.extend(page)
            before = data.get("next") if status == 200 and isinstance(data, dict) else None
            if not before or not page:
                break
    except DaemonUnreachable as exc:
        print(f"signoff pending: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE
    approvals.reverse()
    if args.json:
        print(json.dumps({"approvals": approvals}, ensure_ascii=False))
        return EXIT_OK
    if not approvals:
        print("no pending approvals")
    from core.text import one_line

    for a in approvals:
        cmd = one_line(a.get("command") or "")
        agent = one_line(a.get("agent") or "-")
        print(f"{a['id']}  {a['tier']:<8}  {agent[:16]:<16}  {one_line(a['action'])[:30]:<30}  {cmd[:70]}")
    return EXIT_OK


def _decide(args, decision: str) -> int:
    body = {"decision": decision}
    if args.note:
        body["note"] = args.note
    return _change(args, args.command, f"/v1/approvals/{args.id}/decision", body)


def _change(args, name: str, path: str, body: dict | None, outcome=None) -> int:
    """POST a change (a decision, a cancel, an acknowledgement) and print its outcome (``outcome(answer)``, by
    default the approval's status); returns the exit code."""
    from bot.connection import DaemonUnreachable

    try:
        status, data = _connection(args).call("POST", path, body)
    except DaemonUnreachable as exc:
        print(f"signoff {name}: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE
    if status == 200:
        print(f"{data['id']}: {outcome(data) if outcome else data['status']}")
        return EXIT_OK
    msg = (data or {}).get("error", {}).get("message", f"HTTP {status}")
    print(f"signoff {name}: refused: {msg}", file=sys.stderr)
    return EXIT_NO


def _cmd_ack(args) -> int:
    """``signoff ack ID``: a terminal approver acknowledges a crisis alert (exit 0; 1 refused or already
    acknowledged by someone else; 3 daemon unreachable)."""
    return _change(args, "ack", f"/v1/crisis/{args.id}/ack", None,
                   lambda a: f"acknowledged by {a.get('acknowledged_by_name') or a.get('acknowledged_by')}")


def _cmd_approve(args) -> int:
    return _decide(args, "approve")


def _cmd_deny(args) -> int:
    return _decide(args, "deny")


# classify ------------------------------------------------------------------------------------


def _classification_json(c) -> dict:
    out = {"tier": c.tier.name, "tier_level": int(c.tier), "crisis": c.crisis is not None, "reason": c.reason,
           "rule": c.rule}
    if c.concern:
        out["concern"] = True  # (possible crisis language: the request needs a person; an optional key)
    return out


_BATCH_FIELDS = ("action", "command", "description", "cwd")


def _field_typos(req: dict) -> list[str]:
    """Warnings for ignored fields that look like a misspelt field of a batch request (``comand``)."""
    import difflib

    out = []
    for key in list(req)[:32]:
        if key in _BATCH_FIELDS or not isinstance(key, str):
            continue
        close = difflib.get_close_matches(key.lower(), _BATCH_FIELDS, n=1, cutoff=0.75)
        if close and close[0] not in req:
            out.append(f"field {key!r} is ignored (did you mean {close[0]!r}?)")
    return out


def _classify(policy, deep, action, command, description, cwd):
    """The daemon's verdict on one request: the policy's, with the deep crisis reader's (where on) added."""
    c = policy.classify(action, command, description, cwd)
    if deep is not None and c.crisis is None:
        text = policy.prose_of(action, command, description)
        if text is not None:
            try:
                c = policy.deepen(c, deep.verdict(deep.score(text)))
            except RuntimeError:  # the reader could not load (logged): the fast verdict stands, as in the daemon
                pass
    return c


def _cmd_classify(args) -> int:
    from core.crisis._deep import reader
    from core.policy import Policy

    cfg = _config_if_any(args)
    policy = Policy(cfg.policy.tables()) if cfg is not None else Policy()
    deep = reader() if cfg is None or cfg.crisis.deep_reader else None  # (crisis.deep_reader: false: off)
    if args.batch:
        out = sys.stdout
        for n, line in enumerate(sys.stdin, 1):
            if not line.strip():
                out.write(json.dumps({"error": f"line {n}: empty"}) + "\n")  # one result per line, in order
                continue
            try:
                req = json.loads(line)
                if not isinstance(req, dict):
                    raise ValueError("each line must be a JSON object")
                req.setdefault("action", "terminal")  # as `signoff classify` without --action
                if not isinstance(req["action"], str):
                    raise ValueError("'action' must be a string")
                fields = [req.get(k) for k in ("command", "description", "cwd")]
                if any(f is not None and not isinstance(f, str) for f in fields):
                    raise ValueError("command, description and cwd must be strings")
                result = _classification_json(_classify(policy, deep, req["action"], *fields))
                typos = _field_typos(req)
                if typos:
                    result["warnings"] = typos  # (other fields are ignored, as the spec says; likely typos named)
            except ValueError as exc:
                result = {"error": f"line {n}: {exc}"}
            out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
        return EXIT_OK
    c = _classify(policy, deep, args.action, _command_text(args.trailing), args.description, args.cwd)
    if args.json:
        print(json.dumps(_classification_json(c), ensure_ascii=False))
    else:
        label = "CRISIS" if c.crisis else c.tier.name
        print(f"{label}: {c.reason}")
    return EXIT_OK


def _config_if_any(args):
    """The config when one is given or at its default place, else None (classify needs none)."""
    if args.config is None and not os.environ.get("SIGNOFF_CONFIG"):
        from pathlib import Path

        if not (Path.home() / ".config" / "signoff" / "config.yaml").is_file():
            return None
    return _load(args)


# doctor --------------------------------------------------------------------------------------


def _cmd_doctor(args) -> int:
    from bot.doctor import check

    report = check(args.config)
    print(report.render())
    return EXIT_NO if report.problems else EXIT_OK


# ledger --------------------------------------------------------------------------------------


def _parse_since(text: str):
    from datetime import UTC, datetime, timedelta

    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    if text and text[-1] in units and text[:-1].replace(".", "", 1).isdigit():
        return datetime.now(UTC) - timedelta(seconds=float(text[:-1]) * units[text[-1]])
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _crisis_json(row) -> dict:
    from core.models import rfc3339

    return {"id": row.id, "created_at": rfc3339(row.created_at), "category": row.category, "source": row.source,
            "chat": row.chat, "user": row.user_ref, "user_name": row.user_name, "agent": row.agent,
            "session": row.session, "approval_id": row.approval_id, "text": row.text,
            "acknowledged_by": row.acknowledged_by, "acknowledged_by_name": row.acknowledged_by_name,
            "acknowledged_at": rfc3339(row.acknowledged_at), "realerts": row.realerts}


def _cmd_ledger(args) -> int:
    if getattr(args, "ledger_command", None) == "verify":
        return _cmd_ledger_verify(args)
    import asyncio

    from core.ledger import Ledger
    from core.models import Status

    config = _load(args)
    try:
        since = _parse_since(args.since) if args.since else None
    except ValueError:
        print(f"signoff ledger: --since {args.since!r} is neither an RFC 3339 time nor an age like 12h",
              file=sys.stderr)
        return EXIT_USAGE

    async def read():
        ledger = await Ledger.open(config.ledger.resolved_url())
        try:
            approvals = await ledger.list(status=Status(args.status) if args.status else None, since=since)
            if args.limit is not None:
                approvals = approvals[-args.limit :]
            events = await ledger.events([a.id for a in approvals]) if approvals else {}
            crises = await ledger.crises(since) if args.status in (None, "crisis") else []
            crisis_events = await ledger.crisis_events([c.id for c in crises]) if crises else {}
        finally:
            await ledger.close()
        return approvals, events, crises, crisis_events

    try:
        approvals, events, crises, crisis_events = asyncio.run(read())
    except Exception as exc:  # unreadable file, no permission, not a ledger: one line, not a traceback
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"signoff ledger: cannot read the ledger ({config.ledger.resolved_url()}): {reason}", file=sys.stderr)
        return EXIT_NO
    if args.json:
        out = [a.to_api() | {"events": [e.to_api() for e in events.get(a.id, [])]} for a in approvals]
        alerts = [_crisis_json(c) | {"events": [e.to_api() for e in crisis_events.get(c.id, [])]} for c in crises]
        print(json.dumps({"approvals": out, "crisis_alerts": alerts}, ensure_ascii=False))
        return EXIT_OK
    from core.text import one_line

    for a in approvals:
        d = a.to_api()
        print(f"{d['created_at']}  {a.id}  {a.tier.name:<8}  {a.status.value:<9}  {one_line(a.agent or '-')[:16]:<16}  "
              f"{one_line(a.action)}" + (f"  $ {one_line(a.command)[:80]}" if a.command else ""))
        for e in events.get(a.id, []):
            ev = e.to_api()
            extra = f" {one_line(json.dumps(e.details, ensure_ascii=False))}" if e.details else ""
            print(f"    {ev['at']}  {e.kind:<16} {one_line(e.actor or ''):<20} {e.channel or ''}{extra}")
    if not approvals:
        print("no approvals match" if (args.status or args.since) else "no approvals recorded")
    for c in crises:
        d = _crisis_json(c)
        who = c.acknowledged_by_name or c.acknowledged_by
        print(f"{d['created_at']}  {c.id}  CRISIS    {c.category:<12} from {one_line(c.source)}"
              f"{' ' + one_line(c.user_ref) if c.user_ref else ''}{' agent ' + one_line(c.agent) if c.agent else ''}  "
              + (f"acknowledged by {one_line(who)}" if who else f"NOT acknowledged ({c.realerts} re-alerts)"))
    return EXIT_OK


def _cmd_ledger_verify(args) -> int:
    """``signoff ledger verify [--json]``: exit 0 intact, 1 tampering found, 2 cannot read (VERIFY_HELP)."""
    from core.ledger_verify import LedgerUnreadable, verify_ledger

    config = _load(args)
    url = config.ledger.resolved_url()
    as_json = args.verify_json or args.json
    try:
        report = verify_ledger(url)
    except Exception as exc:  # LedgerUnreadable, or any driver error: never a verdict either way
        reason = str(exc) if isinstance(exc, LedgerUnreadable) else (str(exc).splitlines() or [repr(exc)])[0]
        print(f"signoff ledger verify: cannot read the ledger ({url}): {reason}", file=sys.stderr)
        if as_json:
            print(json.dumps({"intact": None, "ledger": url, "error": reason}, ensure_ascii=False))
        return EXIT_USAGE
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        from core.text import one_line

        print(f"ledger {url}")
        for line in report.lines():
            print(one_line(line))
    return EXIT_OK if report.intact else EXIT_NO


if __name__ == "__main__":
    raise SystemExit(main())
