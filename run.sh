#!/usr/bin/env bash
# Sets everything up and runs Orbis: the editor, on a planet generated with the default pipeline
# (resources/default_pipeline.json), or on the world file given. Arguments that start with one
# of orbis-cli's commands go to orbis-cli instead (./run.sh --help lists them).
source "$(dirname "${BASH_SOURCE[0]}")/scripts/common.sh"

orbis_require_packages "${ORBIS_BUILD_PACKAGES[@]}"
orbis_build "$ORBIS_ROOT/build/release" -DCMAKE_BUILD_TYPE=Release -DORBIS_BUILD_TESTS=OFF \
    -DORBIS_BUILD_BENCHMARKS=OFF
cli="$ORBIS_ROOT/build/release/src/cli/orbis-cli"
editor="$ORBIS_ROOT/build/release/ui/orbis"
case "${1:-}" in
    generate | modules | replay | map | export | simulate | sphere | info | validate | convert | --help | -h | --version)
        exec "$cli" "$@" ;;
esac
exec "$editor" "$@"
