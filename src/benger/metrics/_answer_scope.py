"""Which Ja/Nein decisions of a German legal text are *stated as the author's result* (issue 32, item 2).

A Gutachten raises the question first and answers it last; on the way it reports hypotheses and other
people's views. ``stated(text, start, end)`` says whether the decision found at ``text[start:end]`` is the
author's own statement. It is **not** when:

- it is part of a **question**: its sentence ends with ``?`` ("Ist die Frage zu bejahen?");
- its clause (sentence parts split at ``;``, dashes and line ends) names, before it or among its own words,
  an **Obersatz or an indirect question** ("Fraglich ist, ob …", "Zu prüfen ist, ob …", "Es stellt sich die
  Frage …", "ob"),
  a **hypothesis** ("könnte", "müsste", "wäre", "würde", "wenn", "falls", "sofern", "angenommen", "nur dann"),
  or a **reported view** ("Man könnte meinen", "Nach einer Mindermeinung / anderer Ansicht / a.A.",
  "Teilweise wird vertreten", "Vereinzelt", "Manche", "die Gegenansicht", "B meint / trägt vor / behauptet",
  the Konjunktiv I "sei zu bejahen"), unless a turn ("…, doch", "…, aber", "im Ergebnis", "jedoch",
  "richtigerweise") comes between that marker and the decision;
- a condition follows it directly ("ist zu bejahen, wenn …");
- it lies inside a **quotation** of more than a bare answer word („Die Frage ist zu bejahen.“);
- the next sentence **rejects** it ("Das überzeugt nicht.", "Dem ist nicht zu folgen.", "Diese Ansicht ist
  abzulehnen.", "Dagegen spricht …").

A reported view that the next sentence **adopts** ("Dem ist zu folgen.", "Das überzeugt.") counts as stated.
A view that nothing marks as someone else's (the herrschende Meinung, the Rechtsprechung) is the author's.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

_ABBREVIATIONS = frozenset(
    ("abs", "nr", "art", "s", "satz", "var", "alt", "bzw", "vgl", "ggf", "ca", "rn", "rdnr", "lit", "buchst", "hs",
     "zb", "usw", "evtl", "sog", "str", "ua", "u", "a", "m", "z", "b", "h", "i", "v", "d", "f", "ff", "aa", "hm")
)  # fmt: skip
# a sentence ends at . ! ? followed by a space or the end, unless the word before is an abbreviation or a number
_SENTENCE_END = re.compile(r"(?P<word>[\w.]*?)(?P<end>[.!?]+)(?=[\s\"“”»)]|$)|\n")
_CLAUSE_END = re.compile(r";|\s[–—-]\s|\n|:\s*(?=\n)")
_QUOTE = re.compile(r"„[^“”\"\n]{0,400}[“”\"]|“[^“”\n]{0,400}”|\"[^\"\n]{0,400}\"|«[^»\n]{0,400}»|»[^«\n]{0,400}«")

_OBERSATZ = (
    r"fraglich|zu\s+pr(?:ü|ue)fen|zu\s+kl(?:ä|ae)ren|es\s+fragt\s+sich|stellt\s+sich\s+(?:die|eine)\s+frage|"
    r"problematisch\s+ist|zweifelhaft\s+ist|kommt\s+(?:es\s+)?darauf\s+an|umstritten|ob"
)
_HYPOTHESIS = (
    r"k(?:ö|oe)nnten?|m(?:ü|ue)ssten?|w(?:ä|ae)ren?|w(?:ü|ue)rden?|wenn|falls|sofern|soweit|angenommen|"
    r"unterstellt|hypothetisch|nur\s+dann|wollen|lie(?:ß|ss)e\s+sich"
)
_VIEW = (
    r"man\s+k(?:ö|oe)nnte|mindermeinung|mindermeinung|minderansicht|a\.\s?a\.|andere[rn]?\s+(?:ansicht|auffassung|"
    r"meinung)|einer\s+(?:ansicht|auffassung|meinung)|gegen(?:ansicht|auffassung|meinung)|teilweise\s+wird|"
    r"vereinzelt|manche|einige|stimmen|wird\s+(?:auch\s+)?vertreten|vertritt|vertreten\s+werden|meint|meinen|"
    r"behauptet|tr(?:ä|ae)gt\s+vor|macht\s+geltend|argumentiert|seien?\b"
)
_MARKER = re.compile(rf"\b(?:{_OBERSATZ}|{_HYPOTHESIS}|{_VIEW})(?!\w)", re.IGNORECASE)
_TURN = re.compile(
    r",\s*(?:doch|aber|jedoch|dennoch|trotzdem|gleichwohl|indes|letztlich)\b|\bim\s+ergebnis\b|\bjedoch\b|"
    r"\brichtigerweise\b|\bzutreffend\w*\b|\bjedenfalls\b|\bbei\s+(?:n(?:ä|ae)herer|genauerer)\s+\w+\b",
    re.IGNORECASE,
)
_CONDITION_AFTER = re.compile(
    r"^[^\S\n]*,?[^\S\n]*(?:wenn|falls|sofern|soweit|vorausgesetzt|nur\s+dann|nur\s+wenn)\b", re.IGNORECASE
)
_REJECTION = re.compile(
    r"^\W*(?:(?:das|dies|dem|ihr|ihm|diese[rsm]?|er|sie|jene[rs]?)\b[^.!?\n]{0,60}?)?\b(?:(?:ü|ue)berzeugt\s+nicht|"
    r"nicht\s+(?:zu\s+folgen|gefolgt|(?:ü|ue)berzeugen|haltbar|zutreffend)|abzulehnen|greift\s+nicht|"
    r"verf(?:ä|ae)ngt\s+nicht|trifft\s+nicht\s+zu|geht\s+fehl|ist\s+unzutreffend|verkennt|irrt|w(?:ä|ae)re\s+aber"
    r"\s+falsch|ist\s+falsch)|^\W*dagegen\s+spricht|^\W*dem\s+steht\s+entgegen",
    re.IGNORECASE,
)
_ADOPTION = re.compile(
    r"^\W*(?:dem|dieser\s+(?:ansicht|auffassung|meinung)|ihr|das|dies)\s+(?:ist\s+zu\s+folgen|ist\s+zuzustimmen|"
    r"(?:ü|ue)berzeugt)\s*[.!]",
    re.IGNORECASE,
)
_ANSWER_ONLY = re.compile(r"^[\W_]*(?:ja|nein|yes|no)[\W_]*$", re.IGNORECASE)


def _ends_sentence(match: re.Match[str]) -> bool:
    if match.group("end") is None or "?" in match.group("end") or "!" in match.group("end"):
        return True
    word = match.group("word").lower().replace(".", "")
    return not (word in _ABBREVIATIONS or word.isdigit())


@dataclass(frozen=True)
class Scope:
    """Sentence and clause boundaries and quotations of one text, computed once per text."""

    text: str
    sentence_ends: list[int]
    clause_ends: list[int]
    quotes: list[tuple[int, int]]

    @classmethod
    def of(cls, text: str) -> Scope:
        sentence_ends = [m.end() for m in _SENTENCE_END.finditer(text) if _ends_sentence(m)]
        clause_ends = sorted({*sentence_ends, *(m.end() for m in _CLAUSE_END.finditer(text))})
        quotes = [(m.start(), m.end()) for m in _QUOTE.finditer(text) if not _ANSWER_ONLY.match(m.group()[1:-1])]
        return cls(text, sentence_ends, clause_ends, quotes)

    def _bounds(self, ends: list[int], pos: int) -> tuple[int, int]:
        i = bisect.bisect_right(ends, pos)
        return (ends[i - 1] if i else 0), (ends[i] if i < len(ends) else len(self.text))

    def _next_sentence(self, end: int) -> str:
        i = bisect.bisect_left(self.sentence_ends, end)
        if i >= len(self.sentence_ends):
            return ""
        start = self.sentence_ends[i]
        stop = self.sentence_ends[i + 1] if i + 1 < len(self.sentence_ends) else len(self.text)
        return self.text[start:stop]

    def stated(self, start: int, end: int) -> bool:
        """Whether the decision at ``text[start:end]`` is the author's own result (module docstring)."""
        text = self.text
        s0, s1 = self._bounds(self.sentence_ends, start)
        if text[s0:s1].rstrip().endswith("?") or text[end:s1].lstrip().startswith("?"):
            return False
        if any(q0 <= start and end <= q1 for q0, q1 in self.quotes):
            return False
        c0, c1 = self._bounds(self.clause_ends, start)
        c0 = max(c0, s0)
        before = text[c0:end]  # the decision's own words count too ("die Frage, ob … zu bejahen", "wäre zu …")
        after_sentence = self._next_sentence(max(end, s1 - 1))
        if _REJECTION.search(after_sentence):
            return False
        markers = list(_MARKER.finditer(before))
        if markers and not _TURN.search(before, markers[-1].end()):
            return bool(_ADOPTION.search(after_sentence)) and not re.search(
                rf"\b(?:{_OBERSATZ}|{_HYPOTHESIS})(?!\w)", before, re.IGNORECASE
            )
        return not _CONDITION_AFTER.search(text[end:c1])
