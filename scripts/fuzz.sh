#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for SECONDS (default
# 180), seeded with the test data. Crash inputs land in build/fuzz/crashes; copy them to
# tests/data/bad (world files) or tests/data/bad_ply (PLY) to keep them as regression tests.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
seconds=${1:-180}
orbis_require_packages "${ORBIS_BUILD_PACKAGES[@]}" clang libclang-rt-dev
CXX=clang++ orbis_build "$ORBIS_ROOT/build/fuzz" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DORBIS_BUILD_FUZZERS=ON -DORBIS_BUILD_TESTS=OFF \
    -DORBIS_BUILD_BENCHMARKS=OFF -DORBIS_BUILD_CLI=OFF
crashes="$ORBIS_ROOT/build/fuzz/crashes"
mkdir -p "$crashes"
run() { # fuzzer, seed folders...
    local fuzzer=$1 corpus="$ORBIS_ROOT/build/fuzz/corpus_$1"
    shift
    mkdir -p "$corpus"
    local seeds=()
    for d in "$@"; do [[ -d $d ]] && seeds+=("$d"); done
    echo "== $fuzzer for $seconds s"
    "$ORBIS_ROOT/build/fuzz/fuzz/$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 \
        -timeout=10 -artifact_prefix="$crashes/$fuzzer-" "$corpus" "${seeds[@]}"
}
run world_file_fuzzer "$ORBIS_ROOT/tests/data/bad" "$ORBIS_ROOT/tests/data/good"
run ply_fuzzer "$ORBIS_ROOT/tests/data/ply" "$ORBIS_ROOT/tests/data/bad_ply"
