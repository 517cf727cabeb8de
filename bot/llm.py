"""The LLM behind ``llm.*``, through the official ``openai`` client (any OpenAI-compatible server).

Used for the crisis second opinion (``crisis.second_opinion: true``): grey-zone messages and requests are
asked with the fixed prompt of :mod:`core.crisis._second`; the answer can only add an alert.
"""

from __future__ import annotations

from core.crisis._second import PROMPT, SecondOpinion, parse_answer, user_message


def crisis_second_opinion(cfg) -> SecondOpinion:
    """An ``async (text) -> bool`` asking ``cfg`` (an ``LLMConfig`` with ``base_url`` and ``model``) whether a
    text shows a person at risk. It raises on any failure (``openai.APIError``, a timeout after
    ``cfg.timeout`` seconds and ``cfg.max_retries`` retries); :func:`core.crisis._second.ask` turns that into
    "no change"."""
    from openai import AsyncOpenAI

    key = cfg.api_key.get_secret_value() if cfg.api_key is not None else "none"
    client = AsyncOpenAI(base_url=cfg.base_url, api_key=key, timeout=cfg.timeout, max_retries=cfg.max_retries)
    model = cfg.model

    async def ask(text: str) -> bool:
        reply = await client.chat.completions.create(
            model=model, temperature=0, max_tokens=3,
            messages=[{"role": "system", "content": PROMPT}, {"role": "user", "content": user_message(text)}],
        )
        return parse_answer(reply.choices[0].message.content if reply.choices else None)

    return ask
