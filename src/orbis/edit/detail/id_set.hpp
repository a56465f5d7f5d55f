// SPDX-License-Identifier: MIT
// A set of 32-bit element ids sized to what it holds, for floods and selection edits: "seen?" and
// "inside?" in O(1) without an array as large as the world, which would make every dab or edit of
// a small region O(world).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace orbis::edit::detail {

/// Open-addressing set of 32-bit ids (any id but the two top values, which no mesh reaches).
/// Linear probing, at most half full; erase leaves a tombstone that insert reuses.
class Id_set {
public:
    /// A set with room for about `expected` ids before it grows. O(expected).
    explicit Id_set(std::size_t expected = 0) {
        std::size_t n = 16;
        while (n < 2 * expected)
            n *= 2;
        reset(n);
    }
    /// Adds `k`; true when it was not in the set yet. O(1) expected, amortised.
    bool insert(std::uint32_t k) {
        if (2 * (used_ + 1) > slots_.size()) grow();
        std::size_t i = home(k), tomb = slots_.size();
        for (;; i = (i + 1) & mask_) {
            const std::uint32_t s = slots_[i];
            if (s == k) return false;
            if (s == empty_) break;
            if (s == tombstone_ && tomb == slots_.size()) tomb = i;
        }
        if (tomb != slots_.size()) {
            slots_[tomb] = k;
        } else {
            slots_[i] = k;
            ++used_;
        }
        ++size_;
        return true;
    }
    /// True when `k` is in the set. O(1) expected.
    bool contains(std::uint32_t k) const {
        for (std::size_t i = home(k);; i = (i + 1) & mask_) {
            if (slots_[i] == k) return true;
            if (slots_[i] == empty_) return false;
        }
    }
    /// Removes `k`; true when it was in the set. O(1) expected.
    bool erase(std::uint32_t k) {
        for (std::size_t i = home(k);; i = (i + 1) & mask_) {
            if (slots_[i] == k) {
                slots_[i] = tombstone_;
                --size_;
                return true;
            }
            if (slots_[i] == empty_) return false;
        }
    }
    /// Number of ids in the set.
    std::size_t size() const { return size_; }

private:
    static constexpr std::uint32_t empty_ = UINT32_MAX;
    static constexpr std::uint32_t tombstone_ = UINT32_MAX - 1;

    // A full mixer, not Fibonacci hashing: the vertices of a region of a Fibonacci sphere differ
    // by Fibonacci numbers, which golden-ratio multiplication sends to adjacent slots.
    std::size_t home(std::uint32_t k) const {
        std::uint64_t x = k;
        x ^= x >> 16;
        x *= 0x45d9f3b3335b369ull;
        x ^= x >> 29;
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 32;
        return static_cast<std::size_t>(x) & mask_;
    }
    void reset(std::size_t n) {
        slots_.assign(n, empty_);
        mask_ = n - 1;
        used_ = size_ = 0;
    }
    void grow() {
        std::vector<std::uint32_t> old = std::move(slots_);
        // Mostly tombstones: rehashing at the same size makes room.
        reset(size_ * 2 >= old.size() / 2 ? old.size() * 2 : old.size());
        for (const std::uint32_t s : old)
            if (s != empty_ && s != tombstone_) insert(s);
    }

    std::vector<std::uint32_t> slots_;
    std::size_t mask_ = 0;
    std::size_t used_ = 0; // live ids and tombstones
    std::size_t size_ = 0; // live ids
};

} // namespace orbis::edit::detail
