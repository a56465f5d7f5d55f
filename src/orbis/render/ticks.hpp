// SPDX-License-Identifier: MIT
// Tick values and their labels for the axis of a colour legend.
#pragma once

#include <string>
#include <vector>

namespace orbis::render {

/// "Nice" tick values (1, 2, 2.5 or 5 times a power of ten apart) inside [min, max], about
/// `target` intervals of them (at least 2 ticks when min < max), ascending and evenly spaced.
/// A tick may lie outside [min, max] by a billionth of the step, no more. min > max is read as
/// [max, min]; min == max gives {min}; a NaN or infinite bound gives none. `target` is clamped to
/// [1, 1000]. A range only a few units in the last place wide, where multiples of a nice step
/// cannot be told apart, gives {min, max}.
std::vector<double> nice_ticks(double min, double max, int target = 5);

/// A tick value as short text: no trailing zeros, as many decimals as the tick `step` needs
/// ("0.25" for steps of 0.25, "3" for steps of 1), a plain '-' for negatives and never "-0" (a
/// value within a billionth of a step of zero is "0"); exponent form ("2.5e6", "-4e-5") for
/// |value| >= 1e6 or 0 < step < 1e-4. A step that is not positive and finite formats `value`
/// with up to 15 significant digits; NaN and infinities give "nan", "inf", "-inf".
/// Locale-independent.
std::string format_tick(double value, double step);

} // namespace orbis::render
