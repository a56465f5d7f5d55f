#!/usr/bin/env bash
# Shared by run.sh and test.sh: install missing Debian packages, configure and build.
set -euo pipefail

ORBIS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JOBS=${JOBS:-$(nproc)}

# Installs the given Debian packages that are missing (as root), or says how to and stops.
orbis_require_packages() {
    local missing=()
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -eq 0 ]; then
        echo "orbis: installing ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "orbis: missing Debian packages. Install them with:"
        echo "  sudo apt-get install ${missing[*]}"
        exit 1
    fi
}

# Packages every build needs (the editor: Qt 5 with its OpenGL parts, Mesa's drivers and a font).
ORBIS_BUILD_PACKAGES=(g++ cmake ninja-build libglm-dev libcgal-dev libgmp-dev libmpfr-dev libzstd-dev
                      libpng-dev libboost-dev libcli11-dev nlohmann-json3-dev qtbase5-dev
                      libqt5opengl5-dev libgl1-mesa-dri fonts-dejavu-core)
# Packages the tests and benchmarks need on top (the editor's tests run under Xvfb; GDAL's ogrinfo
# reads the GeoJSON export back).
ORBIS_TEST_PACKAGES=(libgtest-dev libbenchmark-dev libopenmesh-dev python3-open3d clang xvfb xauth
                     gdal-bin)

# Configures and builds into $1 with the remaining arguments passed to cmake; ORBIS_TARGET
# limits the build to the targets it names (separated by spaces).
orbis_build() {
    local dir=$1
    shift
    cmake -S "$ORBIS_ROOT" -B "$dir" -G Ninja "$@" >/dev/null
    local targets=()
    [[ -n ${ORBIS_TARGET:-} ]] && targets=(--target $ORBIS_TARGET)
    cmake --build "$dir" -j "$JOBS" "${targets[@]}"
}
