#!/usr/bin/env bash
# Sets everything up and runs Orbis: until the editor exists, orbis-cli generates a Fibonacci
# sphere (1,000,000 points unless arguments say otherwise) and prints its statistics.
source "$(dirname "${BASH_SOURCE[0]}")/scripts/common.sh"

orbis_require_packages "${ORBIS_BUILD_PACKAGES[@]}"
orbis_build "$ORBIS_ROOT/build/release" -DCMAKE_BUILD_TYPE=Release -DORBIS_BUILD_TESTS=OFF \
    -DORBIS_BUILD_BENCHMARKS=OFF
if [ $# -eq 0 ]; then set -- sphere --points 1000000; fi
exec "$ORBIS_ROOT/build/release/src/cli/orbis-cli" "$@"
