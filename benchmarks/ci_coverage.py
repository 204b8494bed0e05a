"""Coverage of benger's nominal 95 % mean intervals by simulation (issue 24; prints the table for docs/stats.md).

Usage: python benchmarks/ci_coverage.py [--studies 1000] [--resamples 999] [--n 10 15 30 100 600] [--seed 24]

For each n and each score shape (0-100 points: a skewed Beta(5, 2), a symmetric Beta(4, 4), and a two-point
mixture of weak and strong solutions, 30 % at Beta(2, 8), 70 % at Beta(7, 3) — the judge's raw scores are
bounded, skewed and often bimodal), ``--studies`` samples of n are drawn and each method's interval
(``benger.stats.mean_ci``) is checked against the shape's true mean. The share that covers it is averaged
over the shapes. The last line is the ``COVERAGE`` dict to paste into ``benger/stats/_mean_ci.py``, from which
``--ci auto`` chooses the method closest to 95 % at a study's n.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from benger.stats import CI_METHODS, mean_ci

SHAPES = {
    "skewed beta(5,2)": (lambda rng, n: 100 * rng.beta(5, 2, n), 100 * 5 / 7),
    "symmetric beta(4,4)": (lambda rng, n: 100 * rng.beta(4, 4, n), 50.0),
    "mixture": (
        lambda rng, n: 100 * np.where(rng.random(n) < 0.3, rng.beta(2, 8, n), rng.beta(7, 3, n)),
        100 * (0.3 * 0.2 + 0.7 * 0.7),
    ),
}


def coverage(n: int, studies: int, resamples: int, seed: int) -> dict[str, float]:
    hits = {m: 0 for m in CI_METHODS}
    for k, (draw, truth) in enumerate(SHAPES.values()):
        rng = np.random.default_rng([seed, n, k])
        for s in range(studies):
            sample = draw(rng, n)
            for method in CI_METHODS:
                ci, _ = mean_ci(sample, method, n_resamples=resamples, seed=s, bounds=(0.0, 100.0))
                hits[method] += int(ci.low is not None and ci.high is not None and ci.low <= truth <= ci.high)
    return {m: round(h / (studies * len(SHAPES)), 3) for m, h in hits.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=1000)
    parser.add_argument("--resamples", type=int, default=999)
    parser.add_argument("--n", type=int, nargs="+", default=[10, 15, 30, 100, 600])
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args()
    start = time.perf_counter()
    table = {n: coverage(n, args.studies, args.resamples, args.seed) for n in args.n}
    print(f"studies {args.studies} per shape, B = {args.resamples}, seed {args.seed}, "
          f"{time.perf_counter() - start:.0f} s, load average {os.getloadavg()[0]:.2f}")  # fmt: skip
    print("| n | " + " | ".join(CI_METHODS) + " |")
    print("|---" * (len(CI_METHODS) + 1) + "|")
    for n, cells in table.items():
        print(f"| {n} | " + " | ".join(f"{cells[m]:.3f}" for m in CI_METHODS) + " |")
    print("COVERAGE =", table)


if __name__ == "__main__":
    main()
