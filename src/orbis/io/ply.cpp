// SPDX-License-Identifier: MIT
#include "orbis/io/ply.hpp"
