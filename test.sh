#!/usr/bin/env bash
# Sets everything up and runs the whole test suite: a Release build with every test (the
# benchmarks are built too, so they keep compiling), then the core tests again under
# AddressSanitizer and UndefinedBehaviorSanitizer, and the file readers' tests (io) too.
source "$(dirname "${BASH_SOURCE[0]}")/scripts/common.sh"

orbis_require_packages "${ORBIS_BUILD_PACKAGES[@]}" "${ORBIS_TEST_PACKAGES[@]}"

echo "== Release build and tests"
orbis_build "$ORBIS_ROOT/build/release" -DCMAKE_BUILD_TYPE=Release -DORBIS_BUILD_TESTS=ON \
    -DORBIS_BUILD_BENCHMARKS=ON -DORBIS_WARNINGS_AS_ERRORS=ON
ctest --test-dir "$ORBIS_ROOT/build/release" --output-on-failure -j "$JOBS"

echo "== Sanitizer build (address, undefined): core and io tests"
# -O1 -g1: the sanitizers' instrumentation makes -O2 -g compile about twice as slowly (178 s
# against 83 s for the largest test file) for tests that run in under a minute either way.
ORBIS_TARGET="orbis_core_tests orbis_io_tests" orbis_build "$ORBIS_ROOT/build/sanitize" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
    -DORBIS_BUILD_TESTS=ON -DORBIS_BUILD_BENCHMARKS=OFF -DORBIS_BUILD_CLI=OFF \
    -DORBIS_SANITIZE=address,undefined
ctest --test-dir "$ORBIS_ROOT/build/sanitize" --output-on-failure -j "$JOBS" -L "core|io" \
    -LE interop
