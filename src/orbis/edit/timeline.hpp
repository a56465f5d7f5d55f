// SPDX-License-Identifier: MIT
// The kept steps of a simulation run (plates that move): World snapshots to scrub between,
// thinned to stay within a memory budget.
#pragma once

#include "orbis/core/world.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace orbis::edit {

/// The steps of a run that are kept, as (step number, World snapshot), oldest first. A snapshot
/// shares its chunks with its neighbours (copy-on-write), so a kept step costs only what it
/// changed; showing one is a copy of O(layers). When the kept steps cost more than the budget,
/// the old ones are thinned: every 2nd is kept, then every 4th, and so on (the stride that
/// thinning() reports), never the first or the newest. Not thread-safe; snapshots it hands out
/// may be used on any thread.
class Timeline {
public:
    /// An empty timeline with a memory budget of `budget` bytes.
    explicit Timeline(std::size_t budget = std::size_t{512} << 20);

    /// Forgets every kept step; the stride goes back to 1.
    void clear();
    /// Keeps `world` as step `step`, then thins if over budget. Precondition: `step` is
    /// greater than step_at(count() - 1). O(chunks), plus O(count() × chunks) when it thins.
    void add(std::int64_t step, World world);
    /// Drops the kept steps after index `index` (the run goes on from there instead).
    /// Precondition: index < count(). O(dropped).
    void drop_after(std::size_t index);

    /// How many steps are kept.
    std::size_t count() const { return kept_.size(); }
    /// True when no step is kept.
    bool empty() const { return kept_.empty(); }
    /// The step number of kept step `i`. Precondition: i < count().
    std::int64_t step_at(std::size_t i) const { return kept_[i].step; }
    /// The World of kept step `i`, equal to the one given to add. Precondition: i < count().
    const World& world_at(std::size_t i) const { return kept_[i].world; }
    /// The index of the kept step at or before step number `step` (0 before the first).
    /// Precondition: !empty(). O(log count()).
    std::size_t index_at_or_before(std::int64_t step) const;

    /// Estimated bytes the kept steps hold: all the first one refers to, plus for each later
    /// one what it does not share with the kept step before it.
    std::size_t bytes() const { return bytes_; }
    /// The memory budget in bytes.
    std::size_t budget() const { return budget_; }
    /// Sets the budget and thins at once if the kept steps exceed it. O(count() × chunks).
    void set_budget(std::size_t bytes);
    /// The thinning stride: 1 while every step is kept, else 2, 4, 8, … (kept steps between the
    /// first and the newest have step numbers first + a multiple of it, except those added
    /// since the last thinning).
    std::int64_t thinning() const { return stride_; }

private:
    struct Kept {
        std::int64_t step;
        World world;
        std::size_t cost; // bytes beyond the kept step before it (all of it for the first)
    };
    void thin();
    bool drop_off_stride();
    void recount();

    std::vector<Kept> kept_;
    std::size_t budget_;
    std::size_t bytes_ = 0;
    std::int64_t stride_ = 1;
};

} // namespace orbis::edit
