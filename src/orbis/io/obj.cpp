// SPDX-License-Identifier: MIT
#include "orbis/io/obj.hpp"
