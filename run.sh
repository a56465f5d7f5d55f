#!/usr/bin/env bash
# Sets everything up and runs Orbis: until the editor exists, orbis-cli generates a planet with
# the default pipeline (resources/default_pipeline.json: 1,000,000 points, plates, elevation,
# adaptive resolution), saves it to world.orbis and draws its elevation to world.png.
# With arguments, they go to orbis-cli instead.
source "$(dirname "${BASH_SOURCE[0]}")/scripts/common.sh"

orbis_require_packages "${ORBIS_BUILD_PACKAGES[@]}"
orbis_build "$ORBIS_ROOT/build/release" -DCMAKE_BUILD_TYPE=Release -DORBIS_BUILD_TESTS=OFF \
    -DORBIS_BUILD_BENCHMARKS=OFF
cli="$ORBIS_ROOT/build/release/src/cli/orbis-cli"
if [ $# -gt 0 ]; then exec "$cli" "$@"; fi
"$cli" generate --timings -o world.orbis
"$cli" map world.orbis --layer elevation -o world.png
