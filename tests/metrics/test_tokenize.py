"""Sentence splitting and chunking of German legal text."""

from __future__ import annotations

from benger.metrics import chunk_words, normalise, split_sentences


def test_split_keeps_abbreviations_and_ordinals() -> None:
    text = (
        "K könnte einen Anspruch aus § 823 Abs. 1 BGB haben. Fraglich ist, ob Art. 2 Abs. 1 GG i.V.m. "
        "Art. 1 GG greift. Das geschah am 3. Mai. Ergebnis: Der Anspruch besteht!"
    )
    assert split_sentences(text) == [
        "K könnte einen Anspruch aus § 823 Abs. 1 BGB haben.",
        "Fraglich ist, ob Art. 2 Abs. 1 GG i.V.m. Art. 1 GG greift.",
        "Das geschah am 3. Mai.",
        "Ergebnis: Der Anspruch besteht!",
    ]


def test_paragraph_breaks_split() -> None:
    assert split_sentences("A. Anspruch\n\nI. Vertrag") == ["A. Anspruch", "I. Vertrag"]


def test_chunk_words_covers_every_word() -> None:
    text = " ".join(f"Satz {i} hat fünf Wörter." for i in range(30))  # 30 sentences x 5 words = 150 words
    chunks = chunk_words(text, 12)
    assert all(len(c.split()) <= 12 for c in chunks)
    assert " ".join(chunks).split() == text.split()
    # 2 sentences (10 words) fit in 12, a third would not -> 15 chunks of 10 words
    assert len(chunks) == 15


def test_normalise_quotes_and_spaces() -> None:
    assert normalise("„Abs.\u00a01“  §\u202f5") == '"Abs. 1" § 5'
