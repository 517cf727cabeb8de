"""A loopback fake of the OpenAI chat completions API (``POST /v1/chat/completions``) for the real ``openai``
client: it answers with ``reply`` (a string), or fails with ``status``, or stalls ``delay`` seconds, and records
every request body."""

from __future__ import annotations

import asyncio
import time

from aiohttp import web


class FakeOpenAI:
    def __init__(self) -> None:
        self.reply: str = "NO"
        self.status: int = 200
        self.delay: float = 0.0
        self.requests: list[dict] = []
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    async def __aenter__(self) -> FakeOpenAI:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._completions)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        return self

    async def __aexit__(self, *exc) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _completions(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.requests.append(body)
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.status != 200:
            return web.json_response({"error": {"message": "boom", "type": "server_error"}}, status=self.status)
        return web.json_response({
            "id": "chatcmpl-1", "object": "chat.completion", "created": int(time.time()), "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": self.reply}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        })
