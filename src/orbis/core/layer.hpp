// SPDX-License-Identifier: MIT
// A typed data layer: one value per vertex, face or edge, stored in copy-on-write chunks
// (SPEC "Layers", seed 003). Layers live in a World, which creates them, hands out locks for
// writing and makes them follow every mesh edit; this file holds the storage and the rules.
#pragma once

#include "orbis/core/chunked_array.hpp"
#include "orbis/core/ids.hpp"
#include "orbis/core/interpolation.hpp"
#include "orbis/core/layer_info.hpp"
#include "orbis/core/mesh.hpp"
#include "orbis/core/mesh_change.hpp"

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace orbis {

class World;
class Mesh_lock;

/// Misuse of a layer or a World (type mismatch, a layer locked twice, a refused setting, a
/// value out of range); the message names the layer and the problem.
class Layer_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A fresh version stamp: unique over the whole process, increasing. Mesh and layers take one
/// on every modification, so "version differs" means "may have changed" even across snapshots.
std::uint64_t next_version() noexcept;

/// The id type that indexes a layer of the given Layer_type: Vertex, Face or Edge.
template <Layer_type Type>
using Layer_key = std::conditional_t<Type == Layer_type::vertex, Vertex,
                                     std::conditional_t<Type == Layer_type::face, Face, Edge>>;

/// True for edge layers that hold one value per direction.
constexpr bool is_directed(Layer_type type) {
    return type == Layer_type::edge_primal_directed || type == Layer_type::edge_dual_directed;
}
/// True for layers of primal or dual edges.
constexpr bool is_edge_layer(Layer_type type) {
    return type != Layer_type::vertex && type != Layer_type::face;
}

/// What a layer asks of the World after following a mesh edit.
enum class Layer_action {
    none,         ///< done
    reset_all,    ///< reset every value to the initial value (reset_all mode)
    remove_layer, ///< remove the layer (remove_layer mode)
};

/// The part of a layer that does not depend on its value type: what the World, the editor's
/// inspector and the file formats need without knowing T.
class Layer_base {
public:
    virtual ~Layer_base() = default;

    /// The layer's name, unique in its World.
    const std::string& name() const { return name_; }
    /// The elements the layer binds values to.
    Layer_type type() const { return type_; }
    /// The value type's name ("float", "vec3", ...).
    virtual std::string_view value_name() const = 0;
    /// The value type as a tag (with_value_type turns it back into a type).
    virtual Value_type value_tag() const = 0;
    /// Stamp of the last modification (see next_version).
    std::uint64_t version() const { return version_; }
    /// Stamp of the last write through a lock: changes that only follow a mesh edit
    /// (interpolated, merged or reset values) leave it alone. Provenance compares it, so that
    /// a brush makes layers computed from this one stale but a flip does not.
    std::uint64_t values_version() const { return values_version_; }
    /// Number of slots: the mesh's slot count for this element kind (deleted ids included).
    virtual std::size_t size() const = 0;
    /// The value in `slot` as text ("0.25", "(1, 0, 0)"), for inspectors and messages.
    virtual std::string format_value(std::size_t slot) const = 0;
    /// The element of `slot` as text ("v12", "f3", "e6", "e6*").
    std::string element_name(std::size_t slot) const;
    /// Bytes of value chunks this layer refers to, shared or not.
    virtual std::size_t bytes() const = 0;
    /// Bytes of value chunks no other copy of the layer refers to.
    virtual std::size_t private_bytes() const = 0;
    /// Bytes of value chunks of this layer that `other` does not share (all of them when
    /// `other` is of another type). O(chunks).
    virtual std::size_t bytes_not_shared_with(const Layer_base& other) const = 0;
    /// True when chunk `c` of both layers is the same memory (copy-on-write sharing).
    virtual bool shares_chunk(const Layer_base& other, std::size_t c) const = 0;
    /// Same name, type, value type, settings and values, bit for bit (every slot, deleted ones
    /// included; a NaN equals itself).
    virtual bool equals(const Layer_base& other) const = 0;

protected:
    Layer_base(std::string name, Layer_type type)
        : name_(std::move(name))
        , type_(type) {}
    Layer_base(const Layer_base&) = default;
    Layer_base& operator=(const Layer_base&) = default;

    /// "layer 'name' (float, vertex)", the start of every message about this layer.
    std::string describe() const;

private:
    friend class World;
    friend class Mesh_lock;

    // The World's side: copying, following mesh edits, checking values.
    virtual std::shared_ptr<Layer_base> clone() const = 0;
    virtual std::shared_ptr<Layer_base> deep_clone() const = 0; // shares no chunk
    virtual void reset(const Mesh& m) = 0; // every slot initial, sized to the mesh
    virtual bool follows_flip() const = 0; // whether a flip can change any of its values
    virtual void on_added(const Mesh& m, const Added_elements& a) = 0;
    virtual Layer_action on_flip(const Mesh& m, const Flip_change& c) = 0;
    virtual Layer_action on_split(const Mesh& m, const Split_change& c) = 0;
    virtual Layer_action on_collapse(const Mesh& m, const Collapse_change& c) = 0;
    // The first value out of range, looking only at chunks not shared with `before` (the
    // layer as the lock found it; nullptr: every chunk).
    virtual std::optional<std::string> check_range(const Layer_base* before) const = 0;
    virtual bool validates() const = 0;
    void touch() { version_ = next_version(); }
    void touch_values() { values_version_ = version_ = next_version(); }

    std::string name_;
    Layer_type type_;
    std::uint64_t version_ = next_version();
    std::uint64_t values_version_ = version_;
};

/// One value of type T per element named by Type, readable by id. Obtained from a World
/// (`world.layer(info)` to read, `world.lock_layer(info)` to write); a Layer holds the settings
/// of the info it was created with.
///
/// Indexing: vertex layers by Vertex, face layers by Face, edge layers by Edge: undirected
/// layers give e and e.sym() one value, directed layers one value each. Primal layers take
/// primal edges and dual layers dual edges (precondition, checked by assert).
template <class T, Layer_type Type>
class Layer final : public Layer_base {
public:
    /// The type of one value.
    using value_type = T;
    /// The id type that indexes the layer.
    using key_type = Layer_key<Type>;
    /// The info type that names layers like this one.
    using info_type = Layer_info<T, Type>;

    /// A layer for the mesh `m` with every value initial.
    Layer(const info_type& info, const Mesh& m)
        : Layer_base(std::string(info.name()), Type)
        , info_(settings_of(info)) {
        values_.resize(slot_count(m), info.initial_value());
    }

    /// The value of element `k`. Precondition: k is an id of this layer's kind below size().
    const T& operator[](key_type k) const { return values_[slot(k)]; }
    /// The value in slot `i` (for iteration over ids by index).
    const T& at_slot(std::size_t i) const { return values_[i]; }
    std::size_t size() const override { return values_.size(); }
    /// True when the layer has no slots.
    bool empty() const { return values_.empty(); }

    /// Iterates over every slot's value in slot order (deleted elements included).
    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = const T*;
        using reference = const T&;
        const_iterator() = default;
        const_iterator(const Chunked_array<T>* values, std::size_t i)
            : values_(values)
            , i_(i) {}
        reference operator*() const { return (*values_)[i_]; }
        const_iterator& operator++() {
            ++i_;
            return *this;
        }
        const_iterator operator++(int) {
            auto copy = *this;
            ++i_;
            return copy;
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) {
            return a.i_ == b.i_;
        }

    private:
        const Chunked_array<T>* values_ = nullptr;
        std::size_t i_ = 0;
    };
    /// First slot's value.
    const_iterator begin() const { return {&values_, 0}; }
    /// One past the last slot.
    const_iterator end() const { return {&values_, values_.size()}; }

    /// The settings the layer was created with (name, initial value, range, modes).
    const info_type& info() const { return info_; }
    std::string_view value_name() const override { return layer_value_name<T>(); }
    Value_type value_tag() const override { return value_type_of<T>; }
    /// Number of storage chunks (Chunked_array<T>::chunk_size values each, the last partial).
    std::size_t chunk_count() const { return values_.chunk_count(); }
    /// The values of chunk `c`, for bulk reading (file formats, renderers).
    std::span<const T> chunk(std::size_t c) const {
        const std::size_t first = c * Chunked_array<T>::chunk_size;
        return {values_.chunk_data(c), std::min(Chunked_array<T>::chunk_size, size() - first)};
    }
    std::string format_value(std::size_t slot) const override { return format(values_[slot]); }
    std::size_t bytes() const override { return values_.chunk_bytes(); }
    std::size_t private_bytes() const override { return values_.private_chunk_bytes(); }
    std::size_t bytes_not_shared_with(const Layer_base& other) const override {
        const auto* o = dynamic_cast<const Layer*>(&other);
        return o ? values_.chunk_bytes_not_shared_with(o->values_) : bytes();
    }
    bool shares_chunk(const Layer_base& other, std::size_t c) const override {
        const auto* o = dynamic_cast<const Layer*>(&other);
        return o && values_.shares_chunk(o->values_, c);
    }
    bool equals(const Layer_base& other) const override {
        const auto* o = dynamic_cast<const Layer*>(&other);
        return o && name() == o->name() && same_settings(info_, o->info_) && same_values(*o);
    }

    /// The slot of element `k`.
    static std::size_t slot(key_type k) {
        if constexpr (Type == Layer_type::vertex || Type == Layer_type::face) {
            return k.index();
        } else {
            assert((Type == Layer_type::edge_primal || Type == Layer_type::edge_primal_directed) ==
                   k.is_primal());
            return is_directed(Type) ? k.index() : k.quad_index();
        }
    }
    /// The element of `slot`, the inverse of slot(): for undirected edge layers the quad-edge's
    /// base edge (primal, or dual for dual layers).
    static key_type key(std::size_t slot) {
        const auto i = static_cast<std::uint32_t>(slot);
        if constexpr (Type == Layer_type::vertex || Type == Layer_type::face) {
            return key_type(i);
        } else {
            const bool dual =
                Type == Layer_type::edge_dual || Type == Layer_type::edge_dual_directed;
            const std::uint32_t index = is_directed(Type) ? i : 2 * i;
            return key_type(dual ? (index | Edge::dual_bit) : index);
        }
    }
    /// The number of slots a layer of this kind has on mesh `m`.
    static std::size_t slot_count(const Mesh& m) {
        switch (Type) {
        case Layer_type::vertex:
            return m.vertex_slots();
        case Layer_type::face:
            return m.face_slots();
        case Layer_type::edge_primal:
        case Layer_type::edge_dual:
            return m.edge_slots() / 2;
        default:
            return m.edge_slots();
        }
    }

private:
    template <class, Layer_type>
    friend class Layer_lock;
    friend class World;

    struct Unfilled {};
    // A layer for `m` whose values are unspecified until written (see World::lock_new_layer):
    // its chunks are not touched here, so their page faults fall to whoever fills them.
    Layer(const info_type& info, const Mesh& m, Unfilled)
        : Layer_base(std::string(info.name()), Type)
        , info_(settings_of(info)) {
        values_.assign_to_fill(slot_count(m));
    }

    // The info's name is a view; the layer keeps its own string and points the copy at it.
    info_type settings_of(const info_type& info) const {
        return info_type(name())
            .initial(info.initial_value())
            .min(info.min_value())
            .max(info.max_value())
            .validate(info.validation())
            .on_mesh_change(info.mesh_change())
            .interpolation(info.interpolation_mode());
    }
    // Bitwise, so that a NaN setting or value equals itself: equality means "the same state",
    // which is what undo and the tests ask.
    static bool same_bits(const T& a, const T& b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }
    static bool same_settings(const info_type& a, const info_type& b) {
        return same_bits(a.initial_value(), b.initial_value()) &&
               same_bits(a.min_value(), b.min_value()) && same_bits(a.max_value(), b.max_value()) &&
               a.validation() == b.validation() && a.mesh_change() == b.mesh_change() &&
               a.interpolation_mode() == b.interpolation_mode();
    }
    bool same_values(const Layer& o) const {
        if (values_.size() != o.values_.size()) return false;
        constexpr std::size_t chunk = Chunked_array<T>::chunk_size;
        for (std::size_t c = 0; c < values_.chunk_count(); ++c) {
            if (values_.shares_chunk(o.values_, c)) continue;
            const std::size_t n = std::min(chunk, values_.size() - c * chunk);
            if (std::memcmp(values_.chunk_data(c), o.values_.chunk_data(c), n * sizeof(T)) != 0)
                return false;
        }
        return true;
    }

    Layer(const Layer& other)
        : Layer_base(other)
        , info_(settings_of(other.info_))
        , values_(other.values_) {}

    static std::string format(const T& v) {
        std::ostringstream out;
        out.precision(std::is_same_v<Layer_component_t<T>, double> ? 17 : 9);
        if constexpr (std::is_same_v<T, bool>) {
            out << (v ? "true" : "false");
        } else if constexpr (Layer_scalar<T>) {
            out << v;
        } else {
            out << '(';
            for (int i = 0; i < layer_value_length<T>; ++i)
                out << (i ? ", " : "") << v[i];
            out << ')';
        }
        return out.str();
    }

    const T& initial() const { return info_.initial_value(); }
    T ip(const T& src, const T& dest, float t) const {
        return interpolate(info_.interpolation_mode(), src, dest, t, initial());
    }
    void fit(const Mesh& m) {
        const std::size_t n = slot_count(m);
        if (values_.size() < n) values_.resize(n, initial());
    }
    // What On_mesh_change asks for the affected slots: nothing, resets, or a whole-layer action.
    template <class Slots>
    Layer_action changed(const Slots& slots) {
        switch (info_.mesh_change()) {
        case On_mesh_change::keep:
            return Layer_action::none;
        case On_mesh_change::reset_affected:
            for (const std::size_t s : slots)
                values_.set(s, initial());
            return Layer_action::none;
        case On_mesh_change::reset_all:
            return Layer_action::reset_all;
        case On_mesh_change::remove_layer:
            return Layer_action::remove_layer;
        }
        return Layer_action::none;
    }
    Layer_action interpolation_action() const {
        switch (info_.interpolation_mode()) {
        case Interpolation::reset_all:
            return Layer_action::reset_all;
        case Interpolation::remove_layer:
            return Layer_action::remove_layer;
        default:
            return Layer_action::none;
        }
    }
    // Slots of a quad-edge for this layer: one for undirected layers, both directions else.
    struct Edge_slots {
        std::size_t s[2];
        int n;
        const std::size_t* begin() const { return s; }
        const std::size_t* end() const { return s + n; }
    };
    static Edge_slots slots_of(Edge x) {
        if constexpr (is_directed(Type))
            return {{x.base().index(), x.base().index() + 1}, 2};
        else
            return {{x.quad_index(), 0}, 1};
    }
    static std::size_t at(Edge x) { return is_directed(Type) ? x.index() : x.quad_index(); }
    // Sets the value of the new or merged edge `x` from the a-side edge `src` and the b-side
    // edge `dest` (all directed the same way); the reverse directions follow for directed
    // layers. Dual layers use the same slots: the dual edge x.rot() has x's index.
    void merge_edge(Edge x, Edge src, Edge dest, float t) {
        if constexpr (is_directed(Type)) {
            const T fwd = ip(values_[at(src)], values_[at(dest)], t);
            const T bwd = ip(values_[at(src.sym())], values_[at(dest.sym())], t);
            values_.set(at(x), fwd);
            values_.set(at(x.sym()), bwd);
        } else {
            values_.set(at(x), ip(values_[at(src)], values_[at(dest)], t));
        }
    }

    std::shared_ptr<Layer_base> clone() const override {
        return std::shared_ptr<Layer_base>(new Layer(*this));
    }
    std::shared_ptr<Layer_base> deep_clone() const override {
        auto copy = std::shared_ptr<Layer>(new Layer(*this));
        copy->values_ = values_.deep_copy();
        return copy;
    }
    void reset(const Mesh& m) override { values_ = Chunked_array<T>(slot_count(m), initial()); }
    bool follows_flip() const override {
        return Type != Layer_type::vertex && info_.mesh_change() != On_mesh_change::keep;
    }
    void on_added(const Mesh& m, const Added_elements& a) override {
        fit(m);
        if constexpr (Type == Layer_type::vertex) {
            for (std::uint32_t i = 0; i < a.vertex_count; ++i)
                values_.set(a.first_vertex.index() + i, initial());
        } else if constexpr (Type == Layer_type::face) {
            if (a.face.valid()) values_.set(a.face.index(), initial());
        } else {
            for (int i = 0; i < a.edge_count; ++i)
                for (const std::size_t s : slots_of(a.edges[i]))
                    values_.set(s, initial());
        }
    }
    Layer_action on_flip(const Mesh& m, const Flip_change& c) override {
        fit(m);
        if constexpr (Type == Layer_type::vertex) {
            return Layer_action::none;
        } else if constexpr (Type == Layer_type::face) {
            const std::size_t faces[] = {c.left.index(), c.right.index()};
            return changed(faces);
        } else {
            return changed(slots_of(c.edge));
        }
    }
    Layer_action on_split(const Mesh& m, const Split_change& c) override {
        fit(m);
        if (const auto action = interpolation_action(); action != Layer_action::none) return action;
        const float t = c.t;
        if constexpr (Type == Layer_type::vertex) {
            values_.set(c.m.index(), ip(values_[c.a.index()], values_[c.b.index()], t));
        } else if constexpr (Type == Layer_type::face) {
            // Both halves copy the face's value: interpolated between the value and itself.
            auto halve = [&](Face old_half, Face new_half) {
                if (!old_half.valid()) return;
                const T v = values_[old_half.index()];
                const T w = ip(v, v, t);
                values_.set(old_half.index(), w);
                values_.set(new_half.index(), w);
            };
            halve(c.left, c.new_left);
            halve(c.right, c.new_right);
        } else {
            // New edges first: they read e1..e4 and e, which are not written before.
            if (c.g.valid()) merge_edge(c.g, c.e2.sym(), c.e1, t); // m-c from a-c and b-c
            if (c.h.valid()) merge_edge(c.h, c.e3, c.e4.sym(), t); // m-d from a-d and b-d
            merge_edge(c.n, c.e, c.e, t);                          // both halves of e copy it
            merge_edge(c.e, c.e, c.e, t);
        }
        return Layer_action::none;
    }
    Layer_action on_collapse(const Mesh& m, const Collapse_change& c) override {
        fit(m);
        const float t = c.t;
        if constexpr (Type == Layer_type::vertex) {
            if (const auto action = interpolation_action(); action != Layer_action::none)
                return action;
            values_.set(c.a.index(), ip(values_[c.a.index()], values_[c.b.index()], t));
            const std::size_t gone[] = {c.b.index()};
            return changed(gone);
        } else if constexpr (Type == Layer_type::face) {
            std::size_t gone[2];
            int n = 0;
            if (c.left.valid()) gone[n++] = c.left.index();
            if (c.right.valid()) gone[n++] = c.right.index();
            if (const auto action =
                    changed(std::span<const std::size_t>(gone, static_cast<std::size_t>(n)));
                action != Layer_action::none)
                return action;
            struct Face_slots {
                std::span<const Face> faces;
                struct It {
                    const Face* f;
                    std::size_t operator*() const { return f->index(); }
                    It& operator++() {
                        ++f;
                        return *this;
                    }
                    bool operator!=(const It& o) const { return f != o.f; }
                };
                It begin() const { return {faces.data()}; }
                It end() const { return {faces.data() + faces.size()}; }
            };
            return changed(Face_slots{c.moved_faces});
        } else {
            if (const auto action = interpolation_action(); action != Layer_action::none)
                return action;
            // a-c absorbs b-c and a-d absorbs b-d, all directed away from the survivor's side.
            if (c.e2.valid()) merge_edge(c.e2.sym(), c.e2.sym(), c.e1, t);
            if (c.e3.valid()) merge_edge(c.e3, c.e3, c.e4.sym(), t);
            if (info_.mesh_change() == On_mesh_change::keep) return Layer_action::none;
            Layer_action action = changed(slots_of(c.e));
            if (action == Layer_action::none && c.e1.valid()) action = changed(slots_of(c.e1));
            if (action == Layer_action::none && c.e4.valid()) action = changed(slots_of(c.e4));
            for (const Edge x : c.moved_edges)
                if (action == Layer_action::none) action = changed(slots_of(x));
            return action;
        }
    }
    bool validates() const override { return info_.validation() == Validation::range; }
    std::optional<std::string> check_range(const Layer_base* before) const override {
        const auto* old = dynamic_cast<const Layer*>(before);
        constexpr std::size_t chunk = Chunked_array<T>::chunk_size;
        for (std::size_t c = 0; c < values_.chunk_count(); ++c) {
            if (old && values_.shares_chunk(old->values_, c)) continue;
            const std::size_t end = std::min(values_.size(), (c + 1) * chunk);
            for (std::size_t i = c * chunk; i < end; ++i) {
                if (info_.in_range(values_[i])) continue;
                return describe() + ": " + element_name(i) + " = " + format(values_[i]) +
                       " is outside [" + format(info_.min_value()) + ", " +
                       format(info_.max_value()) + "]";
            }
        }
        return std::nullopt;
    }

    info_type info_;
    Chunked_array<T> values_;
};

/// Calls `X(T, Type)` for `T` with each of the six element kinds.
#define ORBIS_FOR_EACH_LAYER_KIND(X, T)                                                            \
    X(T, Layer_type::vertex)                                                                       \
    X(T, Layer_type::face)                                                                         \
    X(T, Layer_type::edge_primal)                                                                  \
    X(T, Layer_type::edge_primal_directed)                                                         \
    X(T, Layer_type::edge_dual)                                                                    \
    X(T, Layer_type::edge_dual_directed)
/// Calls `X(T, Type)` for every layer class there is (12 value types by 6 kinds); for explicit
/// instantiations.
#define ORBIS_FOR_EACH_LAYER(X)                                                                    \
    ORBIS_FOR_EACH_LAYER_KIND(X, bool)                                                             \
    ORBIS_FOR_EACH_LAYER_KIND(X, std::int32_t)                                                     \
    ORBIS_FOR_EACH_LAYER_KIND(X, std::uint32_t)                                                    \
    ORBIS_FOR_EACH_LAYER_KIND(X, std::int64_t)                                                     \
    ORBIS_FOR_EACH_LAYER_KIND(X, float)                                                            \
    ORBIS_FOR_EACH_LAYER_KIND(X, double)                                                           \
    ORBIS_FOR_EACH_LAYER_KIND(X, glm::vec2)                                                        \
    ORBIS_FOR_EACH_LAYER_KIND(X, glm::vec3)                                                        \
    ORBIS_FOR_EACH_LAYER_KIND(X, glm::vec4)                                                        \
    ORBIS_FOR_EACH_LAYER_KIND(X, glm::dvec2)                                                       \
    ORBIS_FOR_EACH_LAYER_KIND(X, glm::dvec3)                                                       \
    ORBIS_FOR_EACH_LAYER_KIND(X, glm::dvec4)

// Every layer class is compiled once, in layer.cpp. Without this, each file that dispatches over
// every value type and kind (the loader, run_on_part) compiled all 72 classes' virtual members
// again: run_on_part.cpp, 78 lines, took 79 s at -O3 and 183 s in the sanitizer build.
#define ORBIS_EXTERN_LAYER(T, Type) extern template class Layer<T, Type>;
ORBIS_FOR_EACH_LAYER(ORBIS_EXTERN_LAYER)
#undef ORBIS_EXTERN_LAYER

} // namespace orbis
