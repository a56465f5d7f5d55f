// SPDX-License-Identifier: MIT
// The GLSL sources of shaders/, compiled into the library so that no file is looked up at run
// time.
#pragma once

#include <string_view>

namespace orbis::render::gl {

/// shaders/surface.vert: every scene part, positions scaled radially for overlays.
std::string_view surface_vertex_shader();
/// shaders/surface.frag: camera-following Lambert light, or exact colours.
std::string_view surface_fragment_shader();
/// shaders/bare.vert: the benchmark baseline, transform only.
std::string_view bare_vertex_shader();
/// shaders/bare.frag: the benchmark baseline, one constant colour.
std::string_view bare_fragment_shader();

} // namespace orbis::render::gl
