# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled scorer of the crisis model: the same features and score as ``_model.feature_buckets`` and
``Model.score_folded`` (the reference; tests/core/test_crisis_model.py compares the two), in C.

One pass over the folded text: each feature is hashed with CRC-32 (the polynomial of zlib.crc32) and its two
weights are added at once; a small set made per call remembers the words and pairs already read (each counts
once), so callers on several threads share only the read-only weights.
"""

from libc.math cimport sqrt
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport calloc, free

cdef uint32_t _TABLE[256]


cdef void _init_table():
    cdef uint32_t c
    cdef int i, k
    for i in range(256):
        c = i
        for k in range(8):
            c = (0xEDB88320 ^ (c >> 1)) if (c & 1) else (c >> 1)
        _TABLE[i] = c


_init_table()


cdef inline uint32_t _crc_update(uint32_t crc, const unsigned char* p, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        crc = _TABLE[(crc ^ p[i]) & 0xFF] ^ (crc >> 8)
    return crc


cdef inline bint _is_space(unsigned char c) noexcept nogil:
    return c == 32 or (9 <= c <= 13)  # what bytes.split() splits at


cdef inline bint _is_strip(unsigned char c) noexcept nogil:
    return c == 46 or c == 63 or c == 59 or c == 58 or c == 44 or c == 33  # . ? ; : , !


cdef inline void _add(const float* w, uint32_t b, double* acc) noexcept nogil:
    """One feature's weights: ``idf·coef`` to the dot product, ``idf²`` to the squared norm."""
    acc[0] += w[2 * b]
    acc[1] += w[2 * b + 1]


cdef inline bint _is_identifier(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """8 bytes or more, with both digits and letters (``_model.is_identifier``)."""
    cdef bint digit = False, letter = False
    cdef Py_ssize_t i
    if n < 8:
        return False
    for i in range(n):
        if 48 <= p[i] <= 57:
            digit = True
        elif 97 <= p[i] <= 122:
            letter = True
        if digit and letter:
            return True
    return False


cdef inline bint _first(uint64_t* seen, Py_ssize_t size, uint64_t key) noexcept nogil:
    """Add ``key`` (non-zero) to the set; True when it was not there."""
    cdef Py_ssize_t i = <Py_ssize_t> ((key * 11400714819323198485u) >> 40) & (size - 1)
    while seen[i] != 0:
        if seen[i] == key:
            return False
        i = (i + 1) & (size - 1)
    seen[i] = key
    return True


cdef class Scorer:
    """``Scorer(weights, intercept, floor)``: ``weights`` is the model's float32 array (``idf·coef`` and ``idf²``
    of each of the ``2**16`` buckets), ``floor`` the smallest norm a text is divided by; :meth:`score` gives the score of one folded text as UTF-8 bytes."""

    cdef const float[:] w
    cdef double intercept
    cdef double floor
    cdef object _keep

    def __init__(self, weights, double intercept, double floor):
        if len(weights) != (2 << 16):
            raise ValueError("the model's weights must hold 2 * 2**16 entries")
        self._keep = weights
        self.w = weights
        self.intercept = intercept
        self.floor = floor

    def score(self, bytes folded):
        """The score (a logit) of ``folded`` (``fold(text).encode()``)."""
        cdef const unsigned char* s = folded
        cdef Py_ssize_t n = len(folded)
        cdef Py_ssize_t i = 0, ws, we, cs, ce, j, k, m
        cdef Py_ssize_t ps = -1, pe = -1  # the previous word's core
        cdef uint32_t crc, mask = (1 << 16) - 1
        cdef unsigned char one = 1, two = 2, space = 32, c
        cdef double acc[2]  # the dot product and the squared norm
        cdef double norm
        cdef const float* w = &self.w[0]
        acc[0] = acc[1] = 0.0
        # one set of the words and pairs seen (their CRC-32 + 1, pairs tagged by bit 33; 0 is empty)
        cdef Py_ssize_t size = 16
        while size < n + 8:
            size <<= 1
        cdef uint64_t* seen = <uint64_t*> calloc(size, sizeof(uint64_t))
        if seen == NULL:
            raise MemoryError()
        try:
            while i < n:
                while i < n and _is_space(s[i]):
                    i += 1
                if i >= n:
                    break
                ws = i
                while i < n and not _is_space(s[i]):
                    i += 1
                we = i
                if _is_identifier(s + ws, we - ws):
                    continue
                cs, ce = ws, we  # the word without its end punctuation
                while cs < ce and _is_strip(s[cs]):
                    cs += 1
                while ce > cs and _is_strip(s[ce - 1]):
                    ce -= 1
                if _first(seen, size, <uint64_t> (~_crc_update(0xFFFFFFFF, s + ws, we - ws)) + 1):
                    # n-grams of " word[:32] ": position 0 and m - 1 of the padded word are spaces
                    m = (we - ws if we - ws < 32 else 32) + 2
                    for j in range(m - 1):
                        crc = 0xFFFFFFFF
                        for k in range(5):
                            if j + k >= m:
                                break
                            c = 32 if (j + k == 0 or j + k == m - 1) else s[ws + j + k - 1]
                            crc = _TABLE[(crc ^ c) & 0xFF] ^ (crc >> 8)
                            if k >= 1:
                                _add(w, (~crc) & mask, acc)
                    if ce > cs:
                        crc = _crc_update(0xFFFFFFFF, &one, 1)
                        _add(w, (~_crc_update(crc, s + cs, ce - cs)) & mask, acc)
                if ce > cs:
                    if ps >= 0:
                        crc = _crc_update(0xFFFFFFFF, &two, 1)
                        crc = _crc_update(crc, s + ps, pe - ps)
                        crc = _crc_update(crc, &space, 1)
                        crc = ~_crc_update(crc, s + cs, ce - cs)
                        if _first(seen, size, ((<uint64_t> crc) + 1) | (<uint64_t> 1 << 33)):
                            _add(w, crc & mask, acc)
                    ps, pe = cs, ce
        finally:
            free(seen)
        norm = sqrt(acc[1])
        return self.intercept + acc[0] / (norm if norm > self.floor else self.floor)
