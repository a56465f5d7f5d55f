// SPDX-License-Identifier: MIT
// The kept steps of a simulation run: World snapshots to scrub between, thinned to stay within
// a memory budget.
#include "orbis/edit/timeline.hpp"

#include <algorithm>
#include <cassert>
#include <utility>

namespace orbis::edit {

Timeline::Timeline(std::size_t budget)
    : budget_(budget) {}

void Timeline::clear() {
    kept_.clear();
    bytes_ = 0;
    stride_ = 1;
}

void Timeline::add(std::int64_t step, World world) {
    assert(kept_.empty() || step > kept_.back().step);
    const std::size_t cost =
        kept_.empty() ? world.memory().bytes : world.bytes_not_shared_with(kept_.back().world);
    kept_.push_back(Kept{.step = step, .world = std::move(world), .cost = cost});
    bytes_ += cost;
    thin();
}

void Timeline::drop_after(std::size_t index) {
    assert(index < kept_.size());
    for (std::size_t i = index + 1; i < kept_.size(); ++i)
        bytes_ -= kept_[i].cost;
    kept_.erase(kept_.begin() + std::ptrdiff_t(index + 1), kept_.end());
}

std::size_t Timeline::index_at_or_before(std::int64_t step) const {
    assert(!kept_.empty());
    const auto after = std::upper_bound(kept_.begin(), kept_.end(), step,
                                        [](std::int64_t s, const Kept& k) { return s < k.step; });
    return after == kept_.begin() ? 0 : std::size_t(after - kept_.begin()) - 1;
}

void Timeline::set_budget(std::size_t bytes) {
    budget_ = bytes;
    thin();
}

void Timeline::thin() {
    // Steps added since the last thinning are all kept; once over budget they are thinned to
    // the current stride first, and only when that is not enough does the stride double. So a
    // long run ends up with evenly spaced old steps, never losing where it began or ended.
    while (bytes_ > budget_ && kept_.size() > 2)
        if (!drop_off_stride()) stride_ *= 2;
}

bool Timeline::drop_off_stride() {
    const std::int64_t first = kept_.front().step;
    std::vector<Kept> kept;
    kept.reserve(kept_.size());
    for (std::size_t i = 0; i < kept_.size(); ++i) {
        const bool end = i == 0 || i + 1 == kept_.size();
        if (end || (kept_[i].step - first) % stride_ == 0) kept.push_back(std::move(kept_[i]));
    }
    const bool dropped = kept.size() != kept_.size();
    kept_ = std::move(kept);
    if (dropped) recount();
    return dropped;
}

void Timeline::recount() {
    bytes_ = 0;
    for (std::size_t i = 0; i < kept_.size(); ++i) {
        Kept& k = kept_[i];
        k.cost =
            i == 0 ? k.world.memory().bytes : k.world.bytes_not_shared_with(kept_[i - 1].world);
        bytes_ += k.cost;
    }
}

} // namespace orbis::edit
