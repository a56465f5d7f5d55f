// SPDX-License-Identifier: MIT
// Allocation-free ranges over edge rings; every traversal range of SPEC is an alias of these.
#pragma once

#include "orbis/core/ids.hpp"

#include <cstddef>
#include <iterator>
#include <ranges>

namespace orbis {

/// Steps counterclockwise around the origin.
struct Origin_ccw_step {
    static Edge next(const Mesh& m, Edge e) { return e.origin_next(m); }
};
/// Steps clockwise around the origin.
struct Origin_cw_step {
    static Edge next(const Mesh& m, Edge e) { return e.origin_prev(m); }
};
/// Steps counterclockwise around the left face.
struct Left_next_step {
    static Edge next(const Mesh& m, Edge e) { return e.left_next(m); }
};

/// Yields the edge itself.
struct To_edge {
    using value_type = Edge;
    static Edge get(const Mesh&, Edge e) { return e; }
};
/// Yields the destination vertex of a primal edge.
struct To_dest {
    using value_type = Vertex;
    static Vertex get(const Mesh& m, Edge e) { return e.dest(m); }
};
/// Yields the origin vertex of a primal edge.
struct To_origin {
    using value_type = Vertex;
    static Vertex get(const Mesh& m, Edge e) { return e.origin(m); }
};
/// Yields the face left of a primal edge.
struct To_left_face {
    using value_type = Face;
    static Face get(const Mesh& m, Edge e) { return e.left(m); }
};

/// A ring of edges, walked with `Step` from a first edge until it comes back to where the ring
/// started; yields `Project::get(m, e)` for each edge. Iterators are forward iterators holding
/// only a mesh pointer and two edges, so walking a ring allocates nothing.
template <class Step, class Project>
class Ring_range {
public:
    using value_type = typename Project::value_type;

    /// Forward iterator over the ring.
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = typename Project::value_type;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = value_type;

        iterator() = default;
        iterator(const Mesh* m, Edge current, Edge stop, bool at_start)
            : m_(m)
            , current_(current)
            , stop_(stop)
            , at_start_(at_start) {}

        value_type operator*() const { return Project::get(*m_, current_); }
        /// The edge the iterator stands on, whatever the range yields.
        Edge edge() const { return current_; }
        iterator& operator++() {
            current_ = Step::next(*m_, current_);
            at_start_ = false;
            return *this;
        }
        iterator operator++(int) {
            auto old = *this;
            ++*this;
            return old;
        }
        friend bool operator==(const iterator& a, const iterator& b) {
            return a.current_ == b.current_ && a.at_start_ == b.at_start_;
        }

    private:
        const Mesh* m_ = nullptr;
        Edge current_;
        Edge stop_;
        bool at_start_ = false;
    };

    Ring_range() = default;
    /// The whole ring through `start`; empty when `start` is `no_edge`.
    Ring_range(const Mesh& m, Edge start)
        : m_(&m)
        , first_(start)
        , stop_(start)
        , full_(start.valid()) {}

    iterator begin() const { return {m_, first_, stop_, full_}; }
    iterator end() const { return {m_, stop_, stop_, false}; }
    bool empty() const { return begin() == end(); }
    /// Number of elements. O(ring length).
    std::size_t size() const { return static_cast<std::size_t>(std::distance(begin(), end())); }

    /// The same ring without its first `n` elements (seed 002's `origin_ccw(m).skip(2)`).
    Ring_range skip(std::size_t n) const {
        auto r = *this;
        for (; n > 0 && !r.empty(); --n) {
            r.first_ = Step::next(*m_, r.first_);
            r.full_ = false;
        }
        return r;
    }

private:
    const Mesh* m_ = nullptr;
    Edge first_;
    Edge stop_;
    bool full_ = false;
};

/// A ring range that leaves out `no_face` (the outside of an open mesh).
template <class Range>
class Skip_no_face {
public:
    using value_type = Face;

    /// Forward iterator that steps over `no_face`.
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Face;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Face;

        iterator() = default;
        iterator(typename Range::iterator it, typename Range::iterator end)
            : it_(it)
            , end_(end) {
            settle();
        }
        Face operator*() const { return *it_; }
        iterator& operator++() {
            ++it_;
            settle();
            return *this;
        }
        iterator operator++(int) {
            auto old = *this;
            ++*this;
            return old;
        }
        friend bool operator==(const iterator& a, const iterator& b) { return a.it_ == b.it_; }

    private:
        void settle() {
            while (it_ != end_ && !(*it_).valid())
                ++it_;
        }
        typename Range::iterator it_;
        typename Range::iterator end_;
    };

    Skip_no_face() = default;
    /// Wraps `range`.
    explicit Skip_no_face(Range range)
        : range_(range) {}

    iterator begin() const { return {range_.begin(), range_.end()}; }
    iterator end() const { return {range_.end(), range_.end()}; }
    bool empty() const { return begin() == end(); }
    /// Number of faces. O(ring length).
    std::size_t size() const { return static_cast<std::size_t>(std::distance(begin(), end())); }

private:
    Range range_;
};

/// All ids of one kind in a mesh, skipping deleted elements. `Alive(m, i)` says whether slot i
/// holds a live element; `Make(i)` builds the id.
template <class Id, class Traits>
class Element_range {
public:
    using value_type = Id;

    /// Forward iterator over live elements.
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Id;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Id;

        iterator() = default;
        iterator(const Mesh* m, std::uint32_t i, std::uint32_t end)
            : m_(m)
            , i_(i)
            , end_(end) {
            settle();
        }
        Id operator*() const { return Traits::make(i_); }
        iterator& operator++() {
            ++i_;
            settle();
            return *this;
        }
        iterator operator++(int) {
            auto old = *this;
            ++*this;
            return old;
        }
        friend bool operator==(const iterator& a, const iterator& b) { return a.i_ == b.i_; }

    private:
        void settle() {
            while (i_ < end_ && !Traits::alive(*m_, i_))
                ++i_;
        }
        const Mesh* m_ = nullptr;
        std::uint32_t i_ = 0;
        std::uint32_t end_ = 0;
    };

    Element_range() = default;
    /// Slots [0, end) of `m`.
    Element_range(const Mesh& m, std::uint32_t end)
        : m_(&m)
        , end_(end) {}

    iterator begin() const { return {m_, 0, end_}; }
    iterator end() const { return {m_, end_, end_}; }

private:
    const Mesh* m_ = nullptr;
    std::uint32_t end_ = 0;
};

} // namespace orbis

// The iterators hold a mesh pointer, not the range, so they outlive a temporary range.
template <class Step, class Project>
inline constexpr bool std::ranges::enable_borrowed_range<orbis::Ring_range<Step, Project>> = true;
template <class Range>
inline constexpr bool std::ranges::enable_borrowed_range<orbis::Skip_no_face<Range>> = true;
template <class Id, class Traits>
inline constexpr bool std::ranges::enable_borrowed_range<orbis::Element_range<Id, Traits>> = true;
