// SPDX-License-Identifier: MIT
#include "orbis/gen/flow_routing.hpp"

#include "orbis/gen/parallel_ranges.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <utility>

namespace orbis::gen {

namespace {

// An unsigned key with the order of the float `x` (no NaN): flip the sign bit of positives and
// every bit of negatives.
std::uint32_t ordered_key(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}

// A radix heap (Ahuja, Mehlhorn, Orlin & Tarjan 1990) for monotone keys: no key pushed is
// smaller than the last one popped, which holds in the priority-flood. Each push appends to a
// bucket chosen by the highest bit in which the key differs from the last popped one; a pop
// empties the lowest non-empty bucket into lower ones at most once per bit, so the work is
// sequential appends instead of a binary heap's scattered sift-downs (three times faster on a
// million cells, measured in orbis_water_bench).
class Radix_heap {
public:
    bool empty() const { return size_ == 0; }
    void push(std::uint32_t key, std::uint32_t value) {
        buckets_[bucket(key)].push_back({key, value});
        ++size_;
    }
    // Precondition: !empty().
    std::uint32_t pop() {
        if (buckets_[0].empty()) {
            std::size_t i = 1;
            while (buckets_[i].empty())
                ++i;
            std::uint32_t lowest = buckets_[i].front().key;
            for (const Item& item : buckets_[i])
                lowest = std::min(lowest, item.key);
            last_ = lowest;
            for (const Item& item : buckets_[i])
                buckets_[bucket(item.key)].push_back(item);
            buckets_[i].clear();
        }
        const std::uint32_t value = buckets_[0].back().value;
        buckets_[0].pop_back();
        --size_;
        return value;
    }

private:
    struct Item {
        std::uint32_t key, value;
    };
    std::size_t bucket(std::uint32_t key) const {
        return key == last_ ? 0 : std::size_t(32 - std::countl_zero(key ^ last_));
    }
    std::array<std::vector<Item>, 33> buckets_;
    std::uint32_t last_ = 0;
    std::size_t size_ = 0;
};

} // namespace

Flow_tree route_flow(const Vertex_adjacency& g, const std::vector<float>& elevation,
                     const std::vector<std::uint8_t>& outlet, float outlet_level) {
    const std::uint32_t slots = g.slots();
    Flow_tree t;
    t.filled.assign(elevation.begin(), elevation.begin() + slots);
    t.receiver.resize(slots);
    for (std::uint32_t s = 0; s < slots; ++s)
        t.receiver[s] = s;
    t.order.reserve(slots);

    // Barnes et al.'s "improved" variant: cells found inside a depression (at or below the
    // level being filled) go to a FIFO, which is cheaper than the heap and makes the tree over
    // a flat lake breadth-first, so water takes short paths to the spill point.
    Radix_heap open;
    // A FIFO as a vector and a read position: it empties often, and then starts over at the
    // front, so it stays as long as the largest flat it meets.
    std::vector<std::uint32_t> pit;
    std::size_t pit_front = 0;
    std::vector<std::uint8_t> closed(slots, 0);
    const auto live = [&](std::uint32_t s) { return g.first[s] != g.first[s + 1]; };
    // Outlets inside the outlet region (most of an ocean) are roots that nothing needs to leave
    // through, so only those beside other vertices go on the heap. Which is which is found on
    // two threads; the seeds then go in slot order.
    parallel_ranges(slots, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t s = begin; s < end; ++s)
            if (live(s) && outlet[s]) {
                const auto row = g.neighbours(s);
                closed[s] = std::all_of(row.begin(), row.end(),
                                        [&](std::uint32_t n) { return outlet[n] != 0; })
                                ? 2
                                : 1;
            }
    });
    for (std::uint32_t s = 0; s < slots; ++s)
        if (closed[s]) {
            t.filled[s] = std::max(t.filled[s], outlet_level);
            if (closed[s] == 2)
                t.order.push_back(s);
            else
                open.push(ordered_key(t.filled[s]), s);
        }
    if (open.empty()) {
        std::uint32_t lowest = slots;
        for (std::uint32_t s = 0; s < slots; ++s)
            if (live(s) && (lowest == slots || elevation[s] < elevation[lowest])) lowest = s;
        if (lowest == slots) return t;
        closed[lowest] = 1;
        open.push(ordered_key(t.filled[lowest]), lowest);
    }
    while (!open.empty() || pit_front < pit.size()) {
        std::uint32_t c;
        if (pit_front < pit.size()) {
            c = pit[pit_front++];
            if (pit_front == pit.size()) {
                pit.clear();
                pit_front = 0;
            }
        } else {
            c = open.pop();
        }
        t.order.push_back(c);
        const float level = t.filled[c];
        for (const std::uint32_t n : g.neighbours(c)) {
            if (closed[n]) continue;
            closed[n] = 1;
            t.receiver[n] = c;
            // n's row is read when n leaves the queue, which may be long after: fetch it now,
            // while n's neighbours are still near in memory, so that the pop finds it cached
            // (the pops jump along the coast, and their rows were most of the flood's misses).
            __builtin_prefetch(g.next.data() + g.first[n]);
            if (t.filled[n] <= level) {
                t.filled[n] = level;
                pit.push_back(n);
            } else {
                open.push(ordered_key(t.filled[n]), n);
            }
        }
    }
    return t;
}

} // namespace orbis::gen
