"""The local API fuzzed by schemathesis from its own OpenAPI document (``GET /v1/openapi.json``), against the
real daemon over its real Unix socket; and the document itself checked as OpenAPI 3.1 covering every route.

Bounded and deterministic: a fixed number of examples per operation and mode, derandomized, no example
database. Checks: no 5xx, status codes and bodies as documented, every error in the API's error shape.
"""

from __future__ import annotations

import asyncio
import re
import socket
import time

import pytest

pytest.importorskip("schemathesis")  # the dev extra

import requests  # noqa: E402
import schemathesis  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from requests.adapters import HTTPAdapter  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.specs.openapi import checks as oa_checks  # noqa: E402
from urllib3.connection import HTTPConnection  # noqa: E402
from urllib3.connectionpool import HTTPConnectionPool  # noqa: E402

from bot.api import openapi_document  # noqa: E402
from tests.conftest import make_config  # noqa: E402

#: examples per operation and generation mode (positive, negative): 10 operations × 2 × this
EXAMPLES = 50
#: a long-poll is cut to this many seconds (the fuzz must not wait an hour on ?wait=3600)
MAX_FUZZ_WAIT = 0.05


class _UnixConnection(HTTPConnection):
    def __init__(self, path: str, *args, **kwargs):
        super().__init__("signoff", *args, **kwargs)
        self._unix_path = path

    def _new_conn(self) -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(10)
        sock.connect(self._unix_path)
        return sock


class _UnixPool(HTTPConnectionPool):
    def __init__(self, path: str):
        super().__init__("signoff", maxsize=2)
        self._unix_path = path

    def _new_conn(self) -> HTTPConnection:
        return _UnixConnection(self._unix_path, timeout=self.timeout.connect_timeout)


class UnixAdapter(HTTPAdapter):
    """requests over a Unix socket: every URL goes to ``path`` (as ``curl --unix-socket``)."""

    def __init__(self, path: str):
        super().__init__()
        self._pool = _UnixPool(path)

    def get_connection_with_tls_context(self, request, verify, proxies=None, cert=None):
        return self._pool

    def close(self) -> None:
        self._pool.close()
        super().close()


def unix_session(path) -> requests.Session:
    session = requests.Session()
    session.mount("http://", UnixAdapter(str(path)))
    return session


_OPTIONAL = {"already_decided": {"approval"}, "already_acknowledged": {"alert"}}


@schemathesis.check
def error_shape(ctx, response, case) -> bool | None:
    """Every 4xx/5xx answer is ``{"error": {"code": str, "message": str}}`` and nothing else, but for the one
    optional field of a 409 that tells the truth: ``approval`` (already_decided), ``alert`` (already_acknowledged)."""
    if response.status_code < 400:
        return None
    body = response.json()
    assert isinstance(body, dict) and set(body) == {"error"}, body
    assert isinstance(body["error"], dict), body
    optional = _OPTIONAL.get(body["error"].get("code"), set())
    assert {"code", "message"} <= set(body["error"]) <= {"code", "message"} | optional, body
    for name in optional & set(body["error"]):
        assert response.status_code == 409 and isinstance(body["error"][name], dict), body
    assert isinstance(body["error"]["code"], str) and body["error"]["code"], body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"], body
    return True


CHECKS = [schemathesis.checks.not_a_server_error, oa_checks.status_code_conformance,
          oa_checks.content_type_conformance, oa_checks.response_schema_conformance, error_shape]


def _short_wait(case) -> None:
    """Cut a generated ``wait`` to :data:`MAX_FUZZ_WAIT` (an unreadable one is left for the API to refuse)."""
    if not isinstance(case.query, dict) or "wait" not in case.query:
        return
    try:
        if float(case.query["wait"]) > MAX_FUZZ_WAIT:
            case.query["wait"] = str(MAX_FUZZ_WAIT)
    except (TypeError, ValueError):
        pass


def _example(label: str, strategy, examples: int, session, ran: dict, statuses: dict):
    """A hypothesis test of ``examples`` cases of one operation, each sent and checked (:data:`CHECKS`)."""

    @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), phases=["explicit", "generate"])
    @given(case=strategy)
    def run(case):
        _short_wait(case)
        ran[label] = ran.get(label, 0) + 1
        response = case.call_and_validate(session=session, base_url="http://signoff", checks=CHECKS, timeout=10)
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1

    return run


def fuzz(schema, socket_path, ids: list[str], examples: int) -> tuple[dict[str, int], dict[int, int]]:
    """Run every operation of ``schema`` against the daemon; returns ({operation: examples run},
    {status: answers})."""
    ran: dict[str, int] = {}
    statuses: dict[int, int] = {}
    session = unix_session(socket_path)
    try:
        for result in schema.get_all_operations():
            operation = result.ok()
            strategies = []
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                strategies.append(operation.as_strategy(generation_mode=mode))
                if "{id}" in operation.path:  # also the ids of real approvals (pending, then decided)
                    strategies += [operation.as_strategy(generation_mode=mode, path_parameters={"id": i})
                                   for i in ids]
            label = f"{operation.method.upper()} {operation.path}"
            run = _example(label, st.one_of(strategies), examples, session, ran, statuses)
            run()
    finally:
        session.close()
    return ran, statuses


async def test_schemathesis_finds_no_server_error_nor_undocumented_answer(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    ids = []
    for cmd in ("git push origin main", "rm -r build", "ls"):
        _, a = await api.call("POST", "/v1/approvals", json={"action": "terminal", "command": cmd})
        ids.append(a["id"])
    status, document = await api.call("GET", "/v1/openapi.json")
    assert status == 200
    schema = schemathesis.openapi.from_dict(document)
    started = time.monotonic()
    ran, statuses = await asyncio.to_thread(fuzz, schema, daemon.socket_path, ids, EXAMPLES)
    took = time.monotonic() - started
    print(f"schemathesis: {sum(ran.values())} examples over {len(ran)} operations in {took:.1f} s; "
          f"answers {dict(sorted(statuses.items()))}")
    assert set(ran) == {f"{m} {p}" for m, p in document_operations(document)}, ran
    assert {200, 202, 400, 404, 409} <= set(statuses)  # positive and negative examples both reached the API
    # The daemon still serves, and the approvals it kept are all readable.
    assert (await api.call("GET", "/v1/health"))[0] == 200
    status, listed = await api.call("GET", "/v1/approvals?limit=1000")
    assert status == 200 and {a["id"] for a in listed["approvals"]} >= set(ids)


def document_operations(document: dict) -> set[tuple[str, str]]:
    return {(method.upper(), path) for path, ops in document["paths"].items() for method in ops}


async def test_openapi_document_is_valid_3_1_and_lists_every_route(start_daemon, short_tmp):
    daemon, api = await start_daemon(make_config(short_tmp))
    status, document = await api.call("GET", "/v1/openapi.json")
    assert status == 200 and document == openapi_document(document["info"]["version"])
    assert document["openapi"] == "3.1.0"
    # every route the app serves is in the document, and nothing else
    served = {(r.method, r.resource.canonical) for r in daemon.api.app.router.routes() if r.method != "HEAD"}
    assert served == document_operations(document)
    # structurally OpenAPI 3.1: every operation answers JSON for each status, every $ref resolves
    schemas = document["components"]["schemas"]
    text = str(document)
    for ref in re.findall(r"#/components/schemas/([A-Za-z0-9_.-]+)", text):
        assert ref in schemas, ref
    for path, ops in document["paths"].items():
        params = set(re.findall(r"{(\w+)}", path))
        for method, op in ops.items():
            assert method in ("get", "post") and op["operationId"] and op["responses"]
            declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert declared == params, (path, method)
            for code, answer in op["responses"].items():
                assert re.fullmatch(r"[1-5]\d\d", code) and answer["description"]
                assert set(answer["content"]) == {"application/json"}
            assert {"400", "405", "503"} <= set(op["responses"])
    ops = {(m.upper(), p): op for p, o in document["paths"].items() for m, op in o.items()}
    assert {"200", "202", "400", "408", "409", "413", "415"} <= set(ops["POST", "/v1/approvals"]["responses"])
    assert {"403", "404", "409"} <= set(ops["POST", "/v1/approvals/{id}/decision"]["responses"])
    listing = {p["name"] for p in ops["GET", "/v1/approvals"]["parameters"]}
    assert listing == {"status", "limit", "before"}
    assert "wait" in {p["name"] for p in ops["GET", "/v1/approvals/{id}"]["parameters"]}
    # schemathesis reads it as OpenAPI 3.1 (it refuses a document it cannot resolve)
    schema = schemathesis.openapi.from_dict(document)
    assert sum(1 for r in schema.get_all_operations() if r.ok()) == len(ops)
