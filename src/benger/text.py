"""The one text normalisation of benger: what every metric and tokenizer sees (issue 11, item 6).

German texts copied from PDFs, Word exports or web forms carry invisible differences that change no word:
decomposed umlauts (NFD ``u`` + combining diaeresis), soft hyphens from line breaking, zero-width characters,
a byte-order mark, typographic quotes and dashes, exotic spaces. ``normalise_text`` removes exactly these and
nothing else, so two texts that a reader cannot tell apart score as identical. It is idempotent
(``normalise_text(normalise_text(t)) == normalise_text(t)``), and text that is already normal comes back
unchanged, so metric values on such text equal the underlying libraries' (sacrebleu etc.).

The steps, in order:

1. Unicode NFC (canonical composition; *not* NFKC, which would rewrite ``§``-adjacent ligatures, superscripts
   and fractions that carry meaning in legal citations).
2. Removed: soft hyphen U+00AD, zero-width space U+200B, zero-width non-joiner U+200C, zero-width joiner U+200D,
   word joiner U+2060, byte-order mark / zero-width no-break space U+FEFF.
3. Quotes: „ “ ” ‟ « » ″ → ``"``; ‚ ‘ ’ ‛ ‹ › ′ → ``'``.
4. Dashes: hyphen U+2010, non-breaking hyphen U+2011, figure dash U+2012, en dash U+2013, em dash U+2014,
   horizontal bar U+2015, minus sign U+2212 → ``-``.
5. Whitespace: ``\\r\\n`` and ``\\r`` → ``\\n``; every other Unicode space (tab, no-break space U+00A0, narrow
   no-break space U+202F, thin/em/en spaces, ...) → a plain space; runs of spaces become one; spaces at the
   start and end of each line and blank lines beyond one are dropped (paragraph breaks stay, sentence splitting
   uses them); the text is stripped.

``TEXT_NORMALISATION_ID`` names this recipe; it is part of every metric signature (``norm:...``), so a change
to the steps above must change the id.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

TEXT_NORMALISATION_ID = "benger-text-v1"

_REMOVED = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
_QUOTE_DOUBLE = "„“”‟«»″"
_QUOTE_SINGLE = "‚‘’‛‹›′"
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"

_TABLE: dict[int, str | None] = {ord(c): None for c in _REMOVED}
_TABLE.update({ord(c): '"' for c in _QUOTE_DOUBLE})
_TABLE.update({ord(c): "'" for c in _QUOTE_SINGLE})
_TABLE.update({ord(c): "-" for c in _DASHES})

# every whitespace character except the line feed
_SPACES_RE = re.compile(r"[^\S\n]+")
_LINE_EDGE_RE = re.compile(r" ?\n ?")
_BLANK_LINES_RE = re.compile(r"\n{3,}")


def normalise_text(text: str) -> str:
    """The normalised form of ``text`` (steps in the module docstring); ``str`` in, ``str`` out.

    Raises ``TypeError`` for a non-string. Idempotent; already-normal text is returned unchanged.
    """
    if not isinstance(text, str):
        raise TypeError(f"normalise_text expects a str, not {type(text).__name__}")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # translate before NFC: removing a soft hyphen between a letter and a combining mark lets NFC compose them
    text = unicodedata.normalize("NFC", text.translate(_TABLE))
    text = _SPACES_RE.sub(" ", text)
    text = _LINE_EDGE_RE.sub("\n", text)
    text = _BLANK_LINES_RE.sub("\n\n", text)
    return text.strip()


def nfc(value: Any) -> Any:
    """``value`` with every string in it (keys too) in Unicode NFC: a JSON or YAML escape (``"O\\u0308"``) writes
    a decomposed umlaut that normalising the file's text does not reach. Lists and dicts are changed in place
    (a YAML alias may make them share or contain themselves: each is visited once); NFC strings are kept."""
    if isinstance(value, str):
        return _nfc_text(value)
    stack, seen = [value], set()
    while stack:
        node = stack.pop()
        if not isinstance(node, (list, dict)) or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict) and any(isinstance(k, str) and _nfc_text(k) is not k for k in node):
            items = list(node.items())
            node.clear()
            node.update((_nfc_text(k) if isinstance(k, str) else k, v) for k, v in items)
        for key, item in node.items() if isinstance(node, dict) else enumerate(node):
            if isinstance(item, str):
                node[key] = _nfc_text(item)
            else:
                stack.append(item)
    return value


def _nfc_text(text: str) -> str:
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)
