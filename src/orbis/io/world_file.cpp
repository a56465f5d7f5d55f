// SPDX-License-Identifier: MIT
#include "orbis/io/world_file.hpp"
