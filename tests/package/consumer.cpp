// SPDX-License-Identifier: MIT
// Builds against the installed orbis package and checks a small sphere.
#include <orbis/core.hpp>
#include <orbis/gen/sphere.hpp>

#include <cstdio>

int main() {
    const auto s = orbis::gen::make_sphere({.count = 1000});
    if (s.mesh.validate() || s.mesh.vertex_count() != 1000) return 1;
    std::puts("orbis package works");
    return 0;
}
