// SPDX-License-Identifier: MIT
// Umbrella header: the whole core API of Orbis in namespace orbis.
#pragma once

#include "orbis/core/chunked_array.hpp"
#include "orbis/core/delta_recorder.hpp"
#include "orbis/core/dict.hpp"
#include "orbis/core/element.hpp"
#include "orbis/core/face_soup.hpp"
#include "orbis/core/ids.hpp"
#include "orbis/core/interpolation.hpp"
#include "orbis/core/layer.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/core/mesh.hpp"
#include "orbis/core/mesh_arrays.hpp"
#include "orbis/core/mesh_change.hpp"
#include "orbis/core/ranges.hpp"
#include "orbis/core/refusal.hpp"
#include "orbis/core/sphere_geometry.hpp"
#include "orbis/core/world.hpp"
#include "orbis/core/world_delta.hpp"
