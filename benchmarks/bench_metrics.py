"""Benchmark the automatic metrics on long German solutions (not a test; prints numbers for docs/metrics.md).

Usage: python benchmarks/bench_metrics.py [--n 1000] [--words 2000] [--workers 2] [--embed-n 20]

Texts: random 2,000-word windows of the released Musterlösungen (read in place from ../shared; a synthetic
German word list is used when the release is absent); each candidate shares about half of its sentences with
its reference. Lexical metrics run on ``--workers`` processes; embedding metrics are timed on ``--embed-n``
pairs and reported as throughput. Peak memory is the max RSS of this process and of its worker processes.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time
from pathlib import Path

from benger.metrics import LEXICAL_METRICS, EmbeddingOptions, compute

SYNTHETIC_TEXT = (
    "der käufer verkäufer vertrag anspruch aus § 433 abs. 2 bgb schuldet kaufpreis zahlung übergabe sache "
    "eigentum fraglich ist ob vorliegt daher ergebnis somit nicht willenserklärung angebot annahme zugang "
    "anfechtung irrtum rücktritt mangel nacherfüllung frist schadensersatz pflichtverletzung vertreten müssen"
)


def corpus_words(release: Path) -> list[str]:
    path = release / "data" / "interim" / "benchathon.json"
    if path.exists():
        return " ".join(t["musterlösung"] for t in json.loads(path.read_text("utf-8"))).split()
    rng = random.Random(0)
    vocab = SYNTHETIC_TEXT.split()
    return [rng.choice(vocab) + ("." if rng.random() < 0.07 else "") for _ in range(60_000)]


def make_pairs(words: list[str], n: int, length: int, seed: int = 1) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    cands, refs = [], []
    for _ in range(n):
        a, b = rng.randrange(len(words) - length), rng.randrange(len(words) - length)
        ref = words[a : a + length]
        other = words[b : b + length]
        cut = rng.randrange(length // 4, 3 * length // 4)
        cands.append(" ".join(ref[:cut] + other[cut:]))
        refs.append(" ".join(ref))
    return cands, refs


def cpu_seconds() -> float:
    """User + system CPU time of this process and its finished worker processes."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def peak_mib() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--words", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--embed-n", type=int, default=20, help="pairs for the embedding metrics (0: skip them)")
    parser.add_argument("--encoder", default=None, help="local HF model directory for BERTScore/MoverScore")
    parser.add_argument(
        "--release", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "benger-release"
    )
    args = parser.parse_args()
    cands, refs = make_pairs(corpus_words(args.release), args.n, args.words)
    print(f"{args.n} pairs of {args.words} words; lexical on {args.workers} worker processes")
    for metric in LEXICAL_METRICS:
        t0 = time.perf_counter()
        compute(cands[:100], refs[:100], [metric], workers=1)
        print(f"  {metric:8s} single process: {(time.perf_counter() - t0) * 10:.1f} ms/pair")
    t0, c0 = time.perf_counter(), cpu_seconds()
    rows = compute(cands, refs, "lexical", workers=args.workers)
    lex_s, lex_cpu = time.perf_counter() - t0, cpu_seconds() - c0
    print(
        f"all lexical metrics (BLEU, chrF, ROUGE-1/2/L, METEOR), {args.n} pairs: {lex_s:.1f} s wall, "
        f"{lex_cpu:.1f} CPU-s (= {lex_cpu / args.workers:.1f} s on {args.workers} dedicated cores; "
        f"{len(rows)} values); peak RSS parent/worker {peak_mib()[0]:.0f}/{peak_mib()[1]:.0f} MiB"
    )
    k = min(args.embed_n, args.n)
    options = EmbeddingOptions(encoder=args.encoder)
    for metric in ("semantic_similarity", "bertscore", "moverscore"):
        if k == 0:
            break
        compute(cands[-1:], refs[-1:], [metric], embedding=options)  # load the model once
        t0, c0 = time.perf_counter(), cpu_seconds()
        compute(cands[:k], refs[:k], [metric], embedding=options)
        dt, cpu = time.perf_counter() - t0, cpu_seconds() - c0
        print(
            f"{metric}: {k} pairs in {dt:.1f} s wall, {cpu:.1f} CPU-s = {k / dt:.2f} pairs/s "
            f"({2 * k * args.words / dt:.0f} words/s); peak RSS {peak_mib()[0]:.0f} MiB"
        )


if __name__ == "__main__":
    main()
