"""German correctness and known values of the lexical metrics (BLEU, chrF, ROUGE, METEOR)."""

from __future__ import annotations

import random

import pytest
import sacrebleu
from nltk.translate.meteor_score import single_meteor_score
from rouge_score import rouge_scorer

from benger.metrics import (
    UnicodeRougeTokenizer,
    corpus_bleu,
    german_stemmer,
    lcs_length,
    lexical_scores,
    meteor,
    rouge,
    sentence_bleu,
    sentence_chrf,
    tokenize,
)
from benger.metrics._lexical import _NoWordNet

WORDS_TEXT = (
    "der käufer verkäufer vertrag verträge verträgen anspruch aus § 433 abs. 2 bgb haftet müller möller schuldet "
    "kaufpreis zahlung übergabe sache eigentum fraglich ist ob vorliegt daher ergebnis somit nicht"
)
WORDS = WORDS_TEXT.split()


def test_umlaut_words_stay_distinct() -> None:
    # default rouge-score: "m ller haftet" vs "m ller haftet" -> 1.0; ours: tokens {müller, haftet} vs
    # {möller, haftet}: 1 of 2 unigrams shared -> P = R = F1 = 0.5
    assert rouge_scorer.RougeScorer(["rouge1"]).score("Möller haftet", "Müller haftet")["rouge1"].fmeasure == 1.0
    assert rouge("Müller haftet", "Möller haftet")["rouge1"].value == pytest.approx(0.5)
    assert tokenize("Straße gemäß Übergabe") == ["straße", "gemäß", "übergabe"]


def test_legal_citation_tokens() -> None:
    assert tokenize("§ 823 Abs. 1 BGB") == ["§", "823", "abs.", "1", "bgb"]
    assert tokenize("§§ 280 Abs. 1, 3, 281 BGB i.V.m. Art. 2 GG.") == [
        "§§",
        "280",
        "abs.",
        "1",
        "3",
        "281",
        "bgb",
        "i.v.m.",
        "art.",
        "2",
        "gg",
    ]
    # a sentence-final period is not glued to an ordinary word
    assert tokenize("K haftet.") == ["k", "haftet"]


def test_snowball_stems() -> None:
    stem = german_stemmer().stem
    assert stem("verträge") == stem("verträgen") == "vertrag"
    # stemmed ROUGE-1: {vertrag, sind, wirksam} on both sides -> 1.0; unstemmed: 2 of 3 shared -> 2/3
    assert rouge("Verträge sind wirksam", "Verträgen sind wirksam", stem=True)["rouge1"].value == pytest.approx(1.0)
    assert rouge("Verträge sind wirksam", "Verträgen sind wirksam", stem=False)["rouge1"].value == pytest.approx(2 / 3)


def test_rouge_hand_computed() -> None:
    # cand: a b c d e (5 tokens), ref: a c e f (4 tokens), no stemming (tokens <= 3 chars are never stemmed)
    # ROUGE-1: overlap {a, c, e} = 3 -> P = 3/5, R = 3/4, F = 2*0.6*0.75/1.35 = 2/3
    # ROUGE-2: cand bigrams ab bc cd de, ref bigrams ac ce ef -> overlap 0 -> F = 0
    # ROUGE-L: LCS(a b c d e, a c e f) = a c e = 3 -> same P, R as ROUGE-1 -> 2/3
    scores = rouge("a b c d e", "a c e f")
    assert scores["rouge1"].value == pytest.approx(2 / 3)
    assert scores["rouge2"].value == 0.0
    assert scores["rougeL"].value == pytest.approx(2 / 3)
    assert scores["rouge1"].details == {"precision": pytest.approx(0.6), "recall": pytest.approx(0.75)}


def test_rouge_equals_rouge_score_with_our_tokenizer() -> None:
    rng = random.Random(3)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=UnicodeRougeTokenizer(stem=True))
    for _ in range(60):
        cand = " ".join(rng.choices(WORDS, k=rng.randint(0, 40)))
        ref = " ".join(rng.choices(WORDS, k=rng.randint(1, 40)))
        ours, theirs = rouge(cand, ref), scorer.score(ref, cand)
        shared = lexical_scores(cand, ref, ["rouge1", "rouge2", "rougeL", "meteor"])
        for key in ours:
            assert ours[key].value == pytest.approx(theirs[key].fmeasure, abs=1e-12), (key, cand, ref)
            assert shared[key].value == pytest.approx(ours[key].value, abs=1e-12)


def test_lcs_matches_dynamic_programming() -> None:
    rng = random.Random(5)
    for _ in range(100):
        a = rng.choices("abcde", k=rng.randint(0, 30))
        b = rng.choices("abcde", k=rng.randint(0, 30))
        table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
        for i in range(len(a)):
            for j in range(len(b)):
                table[i + 1][j + 1] = table[i][j] + 1 if a[i] == b[j] else max(table[i][j + 1], table[i + 1][j])
        assert lcs_length(a, b) == table[-1][-1]


def test_sacrebleu_documented_corpus_example() -> None:
    # sacrebleu README: corpus_bleu of these sys/refs is 48.53 with signature nrefs:2|...|tok:13a|smooth:exp
    refs = [
        ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
        ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
    ]
    sys = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
    assert sacrebleu.corpus_bleu(sys, refs).score == pytest.approx(48.530827)
    score, signature = corpus_bleu(sys, refs[0])
    assert signature.startswith("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:")
    assert 0 < score < 100


def test_sentence_bleu_and_chrf_equal_sacrebleu() -> None:
    rng = random.Random(11)
    for _ in range(40):
        cand = " ".join(rng.choices(WORDS, k=rng.randint(1, 50))).capitalize() + "."
        ref = " ".join(rng.choices(WORDS, k=rng.randint(1, 50))) + "."
        assert sentence_bleu(cand, ref).value * 100 == pytest.approx(sacrebleu.sentence_bleu(cand, [ref]).score)
        assert sentence_chrf(cand, ref).value * 100 == pytest.approx(sacrebleu.sentence_chrf(cand, [ref]).score)
    # identical texts: BLEU 100 and chrF 100
    text = "Der Käufer schuldet nach § 433 Abs. 2 BGB die Zahlung des Kaufpreises."
    assert sentence_bleu(text, text).value == pytest.approx(1.0)
    assert sentence_chrf(text, text).value == pytest.approx(1.0)


def test_meteor_hand_computed() -> None:
    # hyp: "verträge sind nichtig" ; ref: "die verträgen sind nichtig" (3 vs 4 tokens)
    # exact: sind, nichtig (2); stem: verträge~verträgen (1) -> m = 3; P = 3/3, R = 3/4
    # Fmean = P*R / (0.9*P + 0.1*R) = 0.75 / (0.9 + 0.075) = 0.769230...
    # chunks: hyp 0-1-2 aligned to ref 1-2-3 in order -> 1 chunk; penalty = 0.5 * (1/3)^3 = 0.0185185
    # METEOR = 0.769230 * (1 - 0.0185185) = 0.754985...
    expected = (0.75 / 0.975) * (1 - 0.5 * (1 / 3) ** 3)
    assert meteor("Verträge sind nichtig", "Die Verträgen sind nichtig").value == pytest.approx(expected)


def test_meteor_equals_nltk_on_short_texts() -> None:
    rng = random.Random(7)
    stemmer = german_stemmer()
    for _ in range(40):
        cand = rng.choices(WORDS, k=rng.randint(1, 25))
        ref = rng.choices(WORDS, k=rng.randint(1, 25))
        expected = single_meteor_score(ref, cand, preprocess=str, stemmer=stemmer, wordnet=_NoWordNet())
        assert meteor(" ".join(cand), " ".join(ref)).value == pytest.approx(expected)
