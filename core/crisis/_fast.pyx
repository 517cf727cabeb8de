# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled cold path of the crisis normaliser (built when a C compiler is there; see ``_normalise``).

:func:`chunk_texts` gives, for chunks of folded text, the same token texts as the pure-Python reference
(:func:`core.crisis._normalise.canon_chunk`), one chunk at a time in C: a never-seen 32 KiB text has thousands of
distinct chunks, and the reference's per-chunk steps cost a few microseconds each in Python. Only the easy, common
shapes are read here (letters, digits, leet symbols, punctuation); whatever needs more (apostrophes, masks, known
spellings that a fuzzy match or a glued phrase could make) is handed to the Python functions bound by
:func:`bind`, so there is one definition of every rule. tests/core/test_crisis_perf.py compares the two.
"""

from cpython.unicode cimport PyUnicode_GET_LENGTH

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object)
    void* PyUnicode_DATA(object)

# the Python reference, bound by _normalise (see bind)
cdef object _canon_chunk = None    # chunk -> tuple of tokens
cdef object _fuzzy = None          # word -> tuple | None
cdef object _segment = None        # word -> tuple | None
cdef object _join_letters = None   # run of single letters -> tuple | None
cdef dict _rewrite = {}
cdef frozenset _lexicon = frozenset()
cdef frozenset _maskable = frozenset()
cdef frozenset _fz_pre = frozenset()
cdef frozenset _fz_suf = frozenset()
cdef Py_ssize_t _fz_min = 1 << 30
cdef tuple _glue_stems = ()
# byte tables for cheap necessary conditions, filled by bind (1: may be there)
cdef unsigned char _known_ends[65536]  # first and last characters of the known words
cdef unsigned char _glue_heads[65536]  # first two characters of the glue stems
cdef unsigned char _fz_pre_tab[17576]  # first three letters of the near-miss keys (a-z only)
cdef unsigned char _fz_suf_tab[17576]  # last three letters
cdef bint _fz_tabs = False  # the near-miss tables hold every key (all are three lower-case letters)
cdef object _unmask = None         # leet-read masked piece -> tuple | None
cdef frozenset _mask_heads = frozenset()
cdef frozenset _mask_tails = frozenset()
cdef dict _leet_table = {}
cdef dict _nt_stems = {}
cdef dict _contraction_tails = {}
cdef frozenset _s_is_pronouns = frozenset()
cdef Py_ssize_t _segment_run_max = 0  # longer runs are not segmented (reference: _SEGMENT_RUN_MAX)
cdef bint _stems_any = True  # a stem that is not two letters: every run is handed to the reference
cdef unsigned char _stem_pairs[65536]  # two-letter stems of glued phrases in runs (reference: RUN_STEMS)

# leet reading of one character (0 for "no change"); "1" is read three ways by the caller
cdef unsigned char _LEET[256]
cdef int _k
for _k in range(256):
    _LEET[_k] = 0
for _a, _b in (("0", "o"), ("3", "e"), ("4", "a"), ("5", "s"), ("7", "t"), ("8", "b"), ("@", "a"), ("$", "s"),
               ("!", "i"), ("|", "l"), ("+", "t")):
    _LEET[ord(_a)] = ord(_b)


def bind(*, canon_chunk, fuzzy, segment, join_letters, unmask, rewrite, lexicon, maskable, fz_pre, fz_suf,
         fz_min, glue_stems, mask_heads, mask_tails, leet, nt_stems, contraction_tails, s_is_pronouns, run_stems,
         segment_run_max):
    """Bind the Python reference functions and the tables they read (called once by ``_normalise``)."""
    global _canon_chunk, _fuzzy, _segment, _join_letters, _rewrite, _lexicon, _maskable, _fz_pre
    global _fz_suf, _fz_min, _glue_stems, _unmask, _mask_heads, _mask_tails, _leet_table, _nt_stems
    global _contraction_tails, _s_is_pronouns, _segment_run_max, _stems_any
    _segment_run_max = segment_run_max
    _unmask, _mask_heads, _mask_tails, _leet_table = unmask, frozenset(mask_heads), frozenset(mask_tails), dict(leet)
    _nt_stems, _contraction_tails = dict(nt_stems), dict(contraction_tails)
    _s_is_pronouns = frozenset(s_is_pronouns)
    cdef int k
    for k in range(65536):
        _stem_pairs[k] = 0
    _stems_any = False
    for stem in run_stems:
        if len(stem) == 2 and stem.isascii():
            _stem_pairs[ord(stem[0]) * 256 + ord(stem[1])] = 1
        else:
            _stems_any = True  # (a stem of another length: every run goes to the reference)
    _canon_chunk, _fuzzy, _segment, _join_letters = canon_chunk, fuzzy, segment, join_letters
    _rewrite, _lexicon, _maskable = dict(rewrite), frozenset(lexicon), frozenset(maskable)
    _fz_pre, _fz_suf, _fz_min, _glue_stems = frozenset(fz_pre), frozenset(fz_suf), fz_min, tuple(glue_stems)
    global _fz_tabs
    for k in range(65536):
        _known_ends[k] = 0
        _glue_heads[k] = 0
    for w in list(_rewrite) + list(_lexicon) + list(_maskable):
        if w and w.isascii():
            _known_ends[ord(w[0]) * 256 + ord(w[len(w) - 1])] = 1
        elif w:
            for k in range(65536):
                _known_ends[k] = 1  # (a key outside ASCII: no shortcut)
            break
    for stem in _glue_stems:
        if len(stem) >= 2 and stem.isascii():
            _glue_heads[ord(stem[0]) * 256 + ord(stem[1])] = 1
        else:
            for k in range(65536):
                _glue_heads[k] = 1
            break
    for k in range(17576):
        _fz_pre_tab[k] = 0
        _fz_suf_tab[k] = 0
    _fz_tabs = all(len(x) == 3 and x.isascii() and x.isalpha() and x.islower() for x in _fz_pre | _fz_suf)
    if _fz_tabs:
        for x in _fz_pre:
            _fz_pre_tab[(ord(x[0]) - 97) * 676 + (ord(x[1]) - 97) * 26 + ord(x[2]) - 97] = 1
        for x in _fz_suf:
            _fz_suf_tab[(ord(x[0]) - 97) * 676 + (ord(x[1]) - 97) * 26 + ord(x[2]) - 97] = 1


cdef inline bint _is_letter(unsigned char c):
    return 97 <= c <= 122


cdef inline bint _is_digit(unsigned char c):
    return 48 <= c <= 57


cdef inline str _text(object toks):
    return " ".join(toks)


cdef object _known(str word):
    """The token text of a known word, typo or slang spelling, else None (reference: ``_known``)."""
    hit = _rewrite.get(word)
    if hit is not None:
        return _text(hit)
    if word in _lexicon:
        return word
    return None


cdef str _squeeze(const unsigned char* s, Py_ssize_t n, int keep, unsigned char* buf):
    """``s`` with every run of a letter longer than ``keep`` (1 or 2) cut to ``keep``."""
    cdef Py_ssize_t i, m = 0, run = 0
    cdef unsigned char c, prev = 0
    for i in range(n):
        c = s[i]
        if c == prev and _is_letter(c):
            run += 1
        else:
            run = 1
            prev = c
        if run <= keep:
            buf[m] = c
            m += 1
    return (<char*>buf)[:m].decode("ascii")


cdef bint _has_run(const unsigned char* s, Py_ssize_t n, int length):
    """Whether ``s`` holds a run of one letter of at least ``length``."""
    cdef Py_ssize_t i, run = 1
    for i in range(1, n):
        if s[i] == s[i - 1] and _is_letter(s[i]):
            run += 1
            if run >= length:
                return True
        else:
            run = 1
    return False


cdef bint _is_dose(const unsigned char* s, Py_ssize_t n):
    """A dose, as a full match (reference: ``_DOSE_RE``): digits then mg, mcg or ml, or two digits or more then g."""
    cdef Py_ssize_t i = 0
    while i < n and _is_digit(s[i]):
        i += 1
    if i == 0 or i == n:
        return False
    cdef Py_ssize_t r = n - i
    if r == 1:
        return s[i] == 103 and i >= 2  # g
    if r == 2:
        return s[i] == 109 and (s[i + 1] == 103 or s[i + 1] == 108)  # mg, ml
    if r == 3:
        return s[i] == 109 and s[i + 1] == 99 and s[i + 2] == 103  # mcg
    return False


cdef inline bint _may_be_known(const unsigned char* s, Py_ssize_t n):
    """False only when no known word (nor its squeezed form) can be ``s``: none starts and ends like it."""
    return n > 0 and _known_ends[s[0] * 256 + s[n - 1]]


cdef inline Py_ssize_t _tri(const unsigned char* s):
    return (s[0] - 97) * 676 + (s[1] - 97) * 26 + s[2] - 97


cdef bint _may_be_near_miss(str t, const unsigned char* s, Py_ssize_t n):
    """A near miss of a long keyword keeps its first or its last three letters (reference: _FZ_PRE, _FZ_SUF)."""
    if _fz_tabs and _is_letter(s[0]) and _is_letter(s[1]) and _is_letter(s[2]) and _is_letter(s[n - 3]) \
            and _is_letter(s[n - 2]) and _is_letter(s[n - 1]):
        return _fz_pre_tab[_tri(s)] or _fz_suf_tab[_tri(s + n - 3)]
    return t[:3] in _fz_pre or t[n - 3:] in _fz_suf


cdef bint _may_hold_stem(const unsigned char* s, Py_ssize_t n):
    """False only when no glue stem can be in ``s``: no two neighbours start one."""
    cdef Py_ssize_t i
    for i in range(n - 1):
        if _glue_heads[s[i] * 256 + s[i + 1]]:
            return True
    return False


cdef str _letters_text(str t):
    """Reference ``_canon`` from its pure-letter step on (squeezing, fuzzy match, glued words)."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(t)
    cdef const unsigned char* s = <const unsigned char*>PyUnicode_DATA(t)
    cdef unsigned char buf[64]
    cdef unsigned char* big = NULL
    cdef bytearray hold
    if n > 64:
        hold = bytearray(n)
        big = <unsigned char*>(<char*>hold)
    else:
        big = buf
    if _has_run(s, n, 3):
        sq = _squeeze(s, n, 2, big)
        hit = None
        if _may_be_known(s, n):
            hit = _known(sq)
            if hit is None:
                hit = _known(_squeeze(s, n, 1, big))
        if hit is not None:
            return hit
        t = sq
        n = PyUnicode_GET_LENGTH(t)
        s = <const unsigned char*>PyUnicode_DATA(t)
    elif _has_run(s, n, 2):
        if _may_be_known(s, n):
            sq = _squeeze(s, n, 1, big)
            if sq in _maskable:
                return sq
    if n >= 5 and n >= _fz_min and _may_be_near_miss(t, s, n):
        hit = _fuzzy(t)
        if hit is not None:
            return _text(hit)
    if 7 <= n <= 40 and _may_hold_stem(s, n):
        for stem in _glue_stems:
            if stem in t:
                hit = _segment(t)
                if hit is not None:
                    return _text(hit)
                break
    return t


cdef str _piece_text(str tok):
    """Token text of one word piece (``[a-z0-9@$*'|]+`` with inner ``!``), as the reference ``canon`` gives it."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(tok)
    cdef const unsigned char* s = <const unsigned char*>PyUnicode_DATA(tok)
    cdef Py_ssize_t i
    cdef unsigned char c
    cdef bint letters = True, digits = True, quote = False, mask = False
    for i in range(n):
        c = s[i]
        if _is_letter(c):
            digits = False
        else:
            letters = False
            if c == 39:
                quote = True
            elif c == 42:
                mask = True
            if not _is_digit(c):
                digits = False
    if quote:
        return _quoted_text(tok)
    if n == 0:
        return ""
    if _may_be_known(s, n):
        hit = _known(tok)
        if hit is not None:
            return hit
    if letters:
        return _letters_text(tok)
    if digits:
        return tok if n == 1 else "num"
    if _is_dose(s, n):
        return "mg"
    if mask:
        return _masked_text(tok)
    return _leet_text(tok, False)


cdef str _quoted_text(str tok):
    """Reference ``_canon`` of a piece with apostrophes: those at the ends dropped, a contraction expanded."""
    cdef str t = tok.strip("'")
    if not t:
        return ""
    if "'" not in t:
        return _piece_text(t)
    base, _, tail = t.rpartition("'")
    if not base:
        return _piece_text(tail) if tail else ""
    base = base.replace("'", "")
    if tail == "t" and base.endswith("n"):
        stem = base[:len(base) - 1]
        toks = _nt_stems.get(stem)
        if toks is None:
            toks = (stem, "not")
    elif tail in _contraction_tails:
        known = _rewrite.get(base)
        if known is None:
            known = (base,)
        toks = (*known, _contraction_tails[tail])
    elif tail == "s":
        toks = (base, "is") if base in _s_is_pronouns else (base,)
    else:
        toks = (base + tail,)
    return " ".join([x for x in [_piece_text(w) for w in toks if w] if x])


cdef str _masked_text(str tok):
    """Reference ``_canon`` of a piece with ``*`` masks (not all digits, no apostrophe, not a known word)."""
    cdef str leet = tok.translate(_leet_table)
    cdef Py_ssize_t a = leet.find("*"), b = leet.rfind("*")
    if leet[:a] in _mask_heads and leet[b + 1:] in _mask_tails:
        hit = _unmask(leet)
        if hit is not None:
            return _text(hit)
    cdef str t = tok.replace("*", "")
    if not t:
        return ""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(t), i
    cdef const unsigned char* s = <const unsigned char*>PyUnicode_DATA(t)
    for i in range(n):
        if not _is_digit(s[i]):
            return _leet_text(t, True)
    hit = _known(t)
    return t if hit is None else hit


cdef str _leet_text(str t, bint check_known):
    """Reference ``_canon`` of a piece of letters, digits and leet symbols that is not all letters nor all digits:
    three readings of "1" (i, l, dropped), each tried as a known word, squeezed or not; then the reading with
    1 → i as a word of letters. ``check_known``: ``t`` itself was not tried as a known word yet."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(t), i, m
    cdef const unsigned char* s = <const unsigned char*>PyUnicode_DATA(t)
    cdef unsigned char c, l
    cdef bint one = False
    for i in range(n):
        if s[i] == 49:
            one = True
            break
    cdef unsigned char buf[64]
    cdef unsigned char sq[64]
    cdef unsigned char* rb = buf
    cdef unsigned char* sb = sq
    cdef bytearray hold_r, hold_s
    if n > 64:
        hold_r = bytearray(n)
        hold_s = bytearray(n)
        rb = <unsigned char*>(<char*>hold_r)
        sb = <unsigned char*>(<char*>hold_s)
    cdef int reading
    cdef bint alpha
    first_reading = None
    for reading in range(3 if one else 1):
        m = 0
        alpha = True
        for i in range(n):
            c = s[i]
            if c == 49:
                if reading == 0:
                    l = 105  # i
                elif reading == 1:
                    l = 108  # l
                else:
                    continue
            else:
                l = _LEET[c] or c
            if not _is_letter(l):
                alpha = False
            rb[m] = l
            m += 1
        if not alpha or m == 0:
            continue  # (a reading that is not all letters is no known word)
        if not _may_be_known(rb, m):
            if reading == 0:
                first_reading = (<char*>rb)[:m].decode("ascii")
            continue
        cand = (<char*>rb)[:m].decode("ascii")
        if reading == 0:
            first_reading = cand
        hit = _known(cand)
        if hit is None and _has_run(rb, m, 2):
            hit = _known(_squeeze(rb, m, 1, sb))
        if hit is not None:
            return hit
    if first_reading is not None and not _is_digit(s[0]):
        # (the reading with 1 → i is all letters: known words were tried above)
        return _letters_text(first_reading)
    if check_known:
        hit = _known(t)
        if hit is not None:
            return hit
    return t


cdef inline bint _is_word_char(unsigned char c):
    # [a-z0-9@$*'|]
    return _is_letter(c) or _is_digit(c) or c == 64 or c == 36 or c == 42 or c == 39 or c == 124


cdef inline bint _is_punct(unsigned char c):
    # [.?!;:,]
    return c == 46 or c == 63 or c == 33 or c == 59 or c == 58 or c == 44


cdef object _join_run(str joined):
    """Reference ``_join_letters`` of a run of single letters: its three readings ("1" kept, read as i, read as
    l) are tried here as known words and for the stems of glued phrases; only a run where one of them is there is
    handed to the reference (which then finds the same words, or None)."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(joined), i
    if _stems_any or not PyUnicode_IS_ASCII(joined) or n > 256:
        return _join_letters(joined)
    cdef const unsigned char* s = <const unsigned char*>PyUnicode_DATA(joined)
    cdef unsigned char rb[256]
    cdef unsigned char c
    cdef bint one = False
    for i in range(n):
        if s[i] == 49:
            one = True
    cdef int reading
    for reading in range(3 if one else 1):
        for i in range(n):
            c = s[i]
            if c == 49:
                rb[i] = 49 if reading == 0 else (105 if reading == 1 else 108)
            else:
                rb[i] = _LEET[c] or c
        if _known((<char*>rb)[:n].decode("ascii")) is not None:
            return _join_letters(joined)
        if 3 < n <= _segment_run_max:
            for i in range(n - 1):
                if _stem_pairs[rb[i] * 256 + rb[i + 1]]:
                    return _join_letters(joined)
    return None


cdef void _flush(list letters, list out):
    if not letters:
        return
    words = _join_run("".join(letters)) if len(letters) >= 3 else None
    if words is not None:
        out.append(_text(words))
    else:
        for w in letters:
            out.append(_piece_text(w))
    del letters[:]


cdef str _chunk_text(str chunk):
    """Token text of one chunk of folded text (reference: ``canon_chunk``)."""
    if not PyUnicode_IS_ASCII(chunk):
        return _text(_canon_chunk(chunk))
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(chunk)
    cdef const unsigned char* s = <const unsigned char*>PyUnicode_DATA(chunk)
    cdef Py_ssize_t k = 0
    while k < n and _is_word_char(s[k]):
        k += 1
    if k == n and (n > 1 or not (_is_letter(s[0]) or _is_digit(s[0]))):
        return _piece_text(chunk)  # one word piece (a single letter or digit is a run of one, read the same)
    cdef Py_ssize_t p = k
    cdef bint commas = True
    if k > 1 or (k == 1 and not (_is_letter(s[0]) or _is_digit(s[0]))):
        # one word piece, then punctuation to the end ("end.", "$v1x;", "me,"): its tokens, then a comma when
        # the punctuation is only commas, else a sentence end
        while p < n and _is_punct(s[p]):
            if s[p] != 44:
                commas = False
            p += 1
        if p == n:
            w = _piece_text(chunk[:k])
            return (w + (" ," if commas else " .")) if w else ("," if commas else ".")
    cdef list out = []
    cdef list letters = []  # single letters separated by dots: s.u.i.c.i.d.e
    cdef Py_ssize_t i = 0, a, j
    cdef bint sentence, comma, only_commas
    cdef unsigned char c
    while i < n:
        c = s[i]
        if _is_word_char(c):
            # a word piece: [a-z0-9@$*'|]+ joined by runs of "!" followed by more of them
            a = i
            while i < n and _is_word_char(s[i]):
                i += 1
            while i < n and s[i] == 33:
                j = i
                while j < n and s[j] == 33:
                    j += 1
                if j < n and _is_word_char(s[j]):
                    i = j
                    while i < n and _is_word_char(s[i]):
                        i += 1
                else:
                    break
            if i - a == 1 and (_is_letter(s[a]) or _is_digit(s[a])):
                letters.append(chunk[a:i])
            else:
                _flush(letters, out)
                out.append(_piece_text(chunk[a:i]))
        elif _is_punct(c):
            a = i
            sentence = False
            comma = False
            only_commas = True
            while i < n and _is_punct(s[i]):
                if s[i] == 63 or s[i] == 33 or s[i] == 59:
                    sentence = True
                if s[i] == 44:
                    comma = True
                else:
                    only_commas = False
                i += 1
            if i >= n or sentence:
                # the last piece, or one ending a sentence: a token of its own
                _flush(letters, out)
                out.append("," if only_commas else ".")
            elif comma:
                _flush(letters, out)
                out.append(",")
            # otherwise a dot or colon inside a chunk only separates words (s.u.i.c.i.d.e, file.txt)
        else:
            i += 1  # (no such character in folded text; the reference's pattern skips it too)
    _flush(letters, out)
    return " ".join([t for t in out if t])


def chunk_texts(chunks):
    """``{chunk: token text}`` for the chunks (of folded text, no whitespace) whose tokens are not the chunk
    itself alone; the token text is the tokens joined by spaces, ``""`` for none (see ``_normalise._Memo``)."""
    cdef dict out = {}
    cdef str c, t
    for c in chunks:
        t = _chunk_text(c)
        if t != c:
            out[c] = t
    return out


cdef inline bint _is_single(str c):
    """A chunk of one letter, digit, ``@`` or ``$`` (reference: ``_SINGLE``): a candidate letter of a spelled-out
    word (``k i l l``)."""
    if PyUnicode_GET_LENGTH(c) != 1 or not PyUnicode_IS_ASCII(c):
        return False
    cdef unsigned char ch = (<const unsigned char*>PyUnicode_DATA(c))[0]
    return _is_letter(ch) or _is_digit(ch) or ch == 64 or ch == 36


cdef inline bint _is_tail(str c):
    """A letter then punctuation only (``e.``): it may end a run (reference: ``_is_tail``)."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(c), i
    if n < 2 or not PyUnicode_IS_ASCII(c):
        return False
    cdef const unsigned char* s = <const unsigned char*>PyUnicode_DATA(c)
    if not (_is_letter(s[0]) or _is_digit(s[0]) or s[0] == 64 or s[0] == 36):
        return False
    for i in range(1, n):
        if not _is_punct(s[i]):
            return False
    return True


cdef str _tail_token(str c):
    """The token of a tail's punctuation: a comma when it is only commas, else a sentence end."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(c), i
    cdef const unsigned char* s = <const unsigned char*>PyUnicode_DATA(c)
    for i in range(1, n):
        if s[i] != 44:
            return "."
    return ","


def chunk_tokens(list chunks, dict text, Py_ssize_t run_max):
    """Canonical tokens of learnt chunks (``text``: the memo's token texts; absent: the chunk itself), runs of
    three or more single letters joined into words where they make some, cut every ``run_max`` letters; a run
    may end on a letter that ends a sentence (``d i e.``) (reference: ``_normalise._chunk_tokens``)."""
    cdef Py_ssize_t n = len(chunks), i = 0, a, b, s0, e, k
    cdef list per = [None] * n
    cdef str c
    cdef bint tail
    while i < n:
        c = chunks[i]
        if not _is_single(c):
            per[i] = text.get(c, c)
            i += 1
            continue
        a = i
        while i < n and _is_single(chunks[i]):
            per[i] = text.get(chunks[i], chunks[i])
            i += 1
        b = i
        if b - a < 2:
            continue
        for s0 in range(a, b, run_max):
            e = min(s0 + run_max, b)
            tail = e == b and e - s0 < run_max and b < n and _is_tail(chunks[b])
            if tail:
                e += 1
                per[b] = text.get(chunks[b], chunks[b])
            if e - s0 < 3:
                continue
            words = _join_run("".join([(<str>chunks[k])[0] for k in range(s0, e)]))
            if words is not None:
                per[s0] = _text(words)
                for k in range(s0 + 1, e):
                    per[k] = ""
                if tail:
                    per[e - 1] = _tail_token(chunks[e - 1])
        if b < n and per[b] is not None:
            i = b + 1  # (the tail, read with its run)
    # the tokens: a text without a space is one token (the memo's own string: no new one is made)
    cdef list toks = []
    cdef str t
    for t in per:
        if PyUnicode_GET_LENGTH(t) == 0:
            continue
        if " " in t:
            toks.extend(t.split())
        else:
            toks.append(t)
    return toks


cdef inline bint _is_dot(str t):
    return PyUnicode_GET_LENGTH(t) == 1 and PyUnicode_IS_ASCII(t) and (<const unsigned char*>PyUnicode_DATA(t))[0] == 46


def finish(list toks, frozenset multi_last, frozenset multi_pairs, object join_multi):
    """Reference ``_normalise._finish``: the dots between one-word sentences dropped (``end. my. life.``, when the
    tokens hold three dots or more), then multi-token spellings joined (by ``join_multi``, the reference, only
    when a token and the one before it end one: ``multi_pairs``)."""
    cdef Py_ssize_t n = len(toks), i, dots = 0
    cdef list kept
    cdef str t
    for t in toks:
        if _is_dot(t):
            dots += 1
    cdef bytearray marks
    cdef unsigned char* dot
    if dots >= 3:
        # a dot with a non-dot token on each side, and beyond those a dot or the text's edge, is dropped
        marks = bytearray(n + 2)
        dot = <unsigned char*>(<char*>marks)
        dot[0] = 1
        dot[n + 1] = 1
        for i in range(n):
            dot[i + 1] = _is_dot(<str>toks[i])
        kept = []
        for i in range(n):
            if dot[i + 1] and 1 <= i < n - 1 and dot[i - 1] and not dot[i] and not dot[i + 2] and dot[i + 3]:
                continue
            kept.append(toks[i])
        toks = kept
        n = len(toks)
    for i in range(1, n):
        if toks[i] in multi_last and (toks[i - 1], toks[i]) in multi_pairs:
            return join_multi(toks, None)[0]
    return toks
