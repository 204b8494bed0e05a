"""German-aware normalisation, word tokenisation, sentence splitting and (cached) Snowball stemming.

The word tokenizer is Unicode-aware (umlauts and ß are letters), keeps the section sign ``§``/``§§`` as a token
and keeps legal abbreviations such as ``Abs.``, ``Art.``, ``Nr.`` and ``i.V.m.`` as one token with their period,
so ``"§ 823 Abs. 1 BGB"`` becomes ``["§", "823", "abs.", "1", "bgb"]``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from benger.text import normalise_text

TOKENIZER_ID = "unicode-lower-v1"  # applied after ``benger.text.normalise_text`` (its id is in the signatures)

# Abbreviations common in German legal writing; they keep their trailing period and never end a sentence.
ABBREVIATIONS: frozenset[str] = frozenset(
    {
        "abs",
        "art",
        "nr",
        "lit",
        "var",
        "alt",
        "hs",
        "s",
        "ziff",
        "bzw",
        "vgl",
        "ggf",
        "gem",
        "sog",
        "str",
        "rn",
        "rdnr",
        "aufl",
        "bd",
        "ca",
        "evtl",
        "inkl",
        "insb",
        "max",
        "min",
        "mind",
        "zit",
        "anm",
        "az",
        "abschn",
        "kap",
        "buchst",
        "unstr",
        "vorb",
        "einf",
        "dr",
        "prof",
        "jur",
        "etc",
        "usw",
        "vs",
        "f",
        "ff",
    }
)
# one pass: §/§§, or a word with optional dotted continuations (i.V.m.) and an optional period; the period
# is then kept only for abbreviations (see ``tokenize``)
_TOKEN_RE = re.compile(r"§{1,2}|[^\W_]+(?:\.[^\W\d_]{1,3}(?=\.))*\.?")
_SPACE_RE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """``benger.text.normalise_text`` on one line: line breaks become spaces too (keeps §, Abs., Art. intact)."""
    return _SPACE_RE.sub(" ", normalise_text(text)).strip()


def tokenize(text: str, lowercase: bool = True) -> list[str]:
    """Word tokens of ``text`` (Unicode letters/digits, §, legal abbreviations with their period)."""
    text = normalise(text)
    if lowercase:
        text = text.lower()
    tokens = _TOKEN_RE.findall(text)
    for i, token in enumerate(tokens):
        if token[-1] == ".":
            core = token[:-1]
            if "." not in core and core.lower() not in ABBREVIATIONS:
                tokens[i] = core
    return tokens


class GermanStemmer:
    """nltk's German Snowball stemmer with a cache (long texts repeat their vocabulary)."""

    name = "snowball-de"

    def __init__(self) -> None:
        from nltk.stem.snowball import SnowballStemmer

        self._stem = lru_cache(maxsize=200_000)(SnowballStemmer("german").stem)

    def stem(self, word: str) -> str:
        """Stem ``word``; tokens that are not purely alphabetic (§, 823, abs.) are returned unchanged."""
        return self._stem(word) if word.isalpha() else word


@lru_cache(maxsize=1)
def german_stemmer() -> GermanStemmer:
    """The shared cached German stemmer."""
    return GermanStemmer()


# Sentence boundary: ., ! or ? followed by whitespace and an upper-case letter, digit, quote, § or bracket.
_BOUNDARY_RE = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[§0-9A-ZÄÖÜ])|\n\s*\n")
_ROMAN_RE = re.compile(r"^[IVXLC]+$")
_DOTTED_END_RE = re.compile(r"(?:^|\s|\()(?:[^\W\d_]{1,3}\.){2,}$")


def split_sentences(text: str) -> list[str]:
    """Split German text into sentences without breaking after ``Abs.``, ``Art.``, ``i.V.m.`` or ordinals."""
    text = normalise_text(text)
    sentences: list[str] = []
    start = 0
    for match in _BOUNDARY_RE.finditer(text):
        head = text[start : match.start()].rstrip()
        if match.group(0).strip() == "" and "\n" not in match.group(0) and _ends_with_abbreviation(head):
            continue
        if head.strip():
            sentences.append(_SPACE_RE.sub(" ", head).strip())
        start = match.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(_SPACE_RE.sub(" ", tail))
    return sentences


def _ends_with_abbreviation(head: str) -> bool:
    if not head.endswith("."):
        return False
    if _DOTTED_END_RE.search(head):
        return True
    last = head[:-1].rsplit(None, 1)[-1] if head[:-1].strip() else ""
    last = last.lstrip("([\"'")
    # outline markers (A., I., IV., 1., a.) and abbreviations never end a sentence
    return last.lower() in ABBREVIATIONS or last.isdigit() or len(last) == 1 or bool(_ROMAN_RE.match(last))


def chunk_words(text: str, max_words: int) -> list[str]:
    """Group sentences into consecutive chunks of at most ``max_words`` words (a longer sentence is split)."""
    chunks: list[str] = []
    current: list[str] = []
    for sentence in split_sentences(text):
        words = sentence.split()
        while len(words) > max_words:
            if current:
                chunks.append(" ".join(current))
                current = []
            chunks.append(" ".join(words[:max_words]))
            words = words[max_words:]
        if current and len(current) + len(words) > max_words:
            chunks.append(" ".join(current))
            current = []
        current.extend(words)
    if current:
        chunks.append(" ".join(current))
    return chunks
