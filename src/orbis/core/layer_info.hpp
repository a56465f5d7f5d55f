// SPDX-License-Identifier: MIT
// What a data layer looks like and how it reacts to mesh edits (SPEC "Layers", seeds 002/003).
//
// A Layer_info is a description, not storage: it is meant to be a `constexpr` global that every
// module names the same layer with. The World remembers the info a layer was created with; later
// lookups only have to match name, T and Layer_type, their other settings are ignored.
//
// Defaults, where SPEC and the seeds are silent (also listed in docs by the lead):
// - initial value: T{} (false, 0, 0.0, the zero vector), as seed 003 says "normally 0".
// - range: the whole type. Floating types use [-inf, +inf] so that infinities stay valid and
//   only NaN is out of range; integers and bool use [lowest, max]; vectors apply this per
//   component.
// - validation: Validation::none. Setting .min()/.max() does not switch validation on by itself,
//   because seed 003 lists the range and whether to validate against it as separate settings.
// - on_mesh_change: On_mesh_change::keep, the only choice that never loses data silently.
// - interpolation: Interpolation::dont_care, valid for every value type.
#pragma once

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <concepts>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace orbis {

/// The mesh element a layer binds one value to.
enum class Layer_type {
    vertex,               ///< one value per vertex
    face,                 ///< one value per face
    edge_primal,          ///< one value per primal edge pair (e and e.sym() share it)
    edge_primal_directed, ///< one value per directed primal edge
    edge_dual,            ///< one value per dual edge pair (e and e.sym() share it)
    edge_dual_directed,   ///< one value per directed dual edge
};

/// What happens to a value whose element was deleted, or whose endpoints / corners changed.
enum class On_mesh_change {
    keep,           ///< the value stays as it is
    reset_affected, ///< the affected value goes back to the initial value
    reset_all,      ///< every value of the layer goes back to the initial value
    remove_layer,   ///< the whole layer is removed from the World
};

/// How a value is computed for an element created by split or merged by collapse.
/// src is the origin side (weight 1 - t), dest the destination side (weight t).
enum class Interpolation {
    dont_care,      ///< any value will do; the World may leave the slot untouched
    reset_affected, ///< the initial value
    reset_all,      ///< every value of the layer reset to the initial value
    remove_layer,   ///< the whole layer is removed from the World
    keep_src,       ///< src
    keep_dest,      ///< dest
    lerp,           ///< src * (1 - t) + dest * t
    slerp,          ///< direction slerped by angle, length lerped (3-component vectors only)
    min_value,      ///< the smaller of src and dest (scalars only)
    max_value,      ///< the larger of src and dest (scalars only)
    min_weight,     ///< the lighter side: src if t >= 0.5, else dest
    max_weight,     ///< the heavier side: dest if t >= 0.5, else src
};

/// Whether the World checks a layer's values against its range when a lock is released.
enum class Validation {
    none,  ///< no check
    range, ///< every value (every component of a vector) must lie in [min, max]; NaN never does
};

/// The value types a layer may hold.
template <class T>
concept Layer_value =
    std::same_as<T, bool> || std::same_as<T, std::int32_t> || std::same_as<T, std::uint32_t> ||
    std::same_as<T, std::int64_t> || std::same_as<T, float> || std::same_as<T, double> ||
    std::same_as<T, glm::vec2> || std::same_as<T, glm::vec3> || std::same_as<T, glm::vec4> ||
    std::same_as<T, glm::dvec2> || std::same_as<T, glm::dvec3> || std::same_as<T, glm::dvec4>;

/// A layer value with a single component (bool, integers, float, double).
template <class T>
concept Layer_scalar = Layer_value<T> && std::is_arithmetic_v<T>;

/// A layer value that is a glm vector of float or double.
template <class T>
concept Layer_vector = Layer_value<T> && !Layer_scalar<T>;

namespace detail {
template <class T>
struct Layer_component {
    using type = T;
};
template <glm::length_t L, class S, glm::qualifier Q>
struct Layer_component<glm::vec<L, S, Q>> {
    using type = S;
};
} // namespace detail

/// The component type of a layer value: T itself for scalars, float or double for vectors.
template <Layer_value T>
using Layer_component_t = typename detail::Layer_component<T>::type;

/// How many components a layer value has: 1 for scalars, 2 to 4 for vectors.
template <Layer_value T>
inline constexpr int layer_value_length = [] {
    if constexpr (Layer_scalar<T>)
        return 1;
    else
        return static_cast<int>(T::length());
}();

/// The value types of layers as a runtime tag, for file formats and type-erased code.
enum class Value_type {
    boolean,
    int32,
    uint32,
    int64,
    float32,
    float64,
    vec2,
    vec3,
    vec4,
    dvec2,
    dvec3,
    dvec4
};

/// The Value_type tag of T.
template <Layer_value T>
inline constexpr Value_type value_type_of = [] {
    if constexpr (std::same_as<T, bool>)
        return Value_type::boolean;
    else if constexpr (std::same_as<T, std::int32_t>)
        return Value_type::int32;
    else if constexpr (std::same_as<T, std::uint32_t>)
        return Value_type::uint32;
    else if constexpr (std::same_as<T, std::int64_t>)
        return Value_type::int64;
    else if constexpr (std::same_as<T, float>)
        return Value_type::float32;
    else if constexpr (std::same_as<T, double>)
        return Value_type::float64;
    else if constexpr (std::same_as<T, glm::vec2>)
        return Value_type::vec2;
    else if constexpr (std::same_as<T, glm::vec3>)
        return Value_type::vec3;
    else if constexpr (std::same_as<T, glm::vec4>)
        return Value_type::vec4;
    else if constexpr (std::same_as<T, glm::dvec2>)
        return Value_type::dvec2;
    else if constexpr (std::same_as<T, glm::dvec3>)
        return Value_type::dvec3;
    else
        return Value_type::dvec4;
}();

/// Calls `f.template operator()<T>()` with the T whose tag is `type`, returning its result.
/// \throws std::invalid_argument for a value outside the enum (e.g. read from a file).
template <class F>
decltype(auto) with_value_type(Value_type type, F&& f) {
    switch (type) {
    case Value_type::boolean:
        return f.template operator()<bool>();
    case Value_type::int32:
        return f.template operator()<std::int32_t>();
    case Value_type::uint32:
        return f.template operator()<std::uint32_t>();
    case Value_type::int64:
        return f.template operator()<std::int64_t>();
    case Value_type::float32:
        return f.template operator()<float>();
    case Value_type::float64:
        return f.template operator()<double>();
    case Value_type::vec2:
        return f.template operator()<glm::vec2>();
    case Value_type::vec3:
        return f.template operator()<glm::vec3>();
    case Value_type::vec4:
        return f.template operator()<glm::vec4>();
    case Value_type::dvec2:
        return f.template operator()<glm::dvec2>();
    case Value_type::dvec3:
        return f.template operator()<glm::dvec3>();
    case Value_type::dvec4:
        return f.template operator()<glm::dvec4>();
    }
    throw std::invalid_argument("unknown layer value type " +
                                std::to_string(static_cast<int>(type)));
}

/// Calls `f.template operator()<Type>()` with the Layer_type `type` as a constant.
/// \throws std::invalid_argument for a value outside the enum.
template <class F>
decltype(auto) with_layer_type(Layer_type type, F&& f) {
    switch (type) {
    case Layer_type::vertex:
        return f.template operator()<Layer_type::vertex>();
    case Layer_type::face:
        return f.template operator()<Layer_type::face>();
    case Layer_type::edge_primal:
        return f.template operator()<Layer_type::edge_primal>();
    case Layer_type::edge_primal_directed:
        return f.template operator()<Layer_type::edge_primal_directed>();
    case Layer_type::edge_dual:
        return f.template operator()<Layer_type::edge_dual>();
    case Layer_type::edge_dual_directed:
        return f.template operator()<Layer_type::edge_dual_directed>();
    }
    throw std::invalid_argument("unknown layer type " + std::to_string(static_cast<int>(type)));
}

/// The name of a value type as it appears in error messages ("float", "dvec3", ...).
template <Layer_value T>
constexpr std::string_view layer_value_name() {
    if constexpr (std::same_as<T, bool>)
        return "bool";
    else if constexpr (std::same_as<T, std::int32_t>)
        return "int32";
    else if constexpr (std::same_as<T, std::uint32_t>)
        return "uint32";
    else if constexpr (std::same_as<T, std::int64_t>)
        return "int64";
    else if constexpr (std::same_as<T, float>)
        return "float";
    else if constexpr (std::same_as<T, double>)
        return "double";
    else if constexpr (std::same_as<T, glm::vec2>)
        return "vec2";
    else if constexpr (std::same_as<T, glm::vec3>)
        return "vec3";
    else if constexpr (std::same_as<T, glm::vec4>)
        return "vec4";
    else if constexpr (std::same_as<T, glm::dvec2>)
        return "dvec2";
    else if constexpr (std::same_as<T, glm::dvec3>)
        return "dvec3";
    else
        return "dvec4";
}

/// The name of a Layer_type as it appears in error messages ("vertex", "edge_dual", ...).
constexpr std::string_view layer_type_name(Layer_type type) {
    switch (type) {
    case Layer_type::vertex:
        return "vertex";
    case Layer_type::face:
        return "face";
    case Layer_type::edge_primal:
        return "edge_primal";
    case Layer_type::edge_primal_directed:
        return "edge_primal_directed";
    case Layer_type::edge_dual:
        return "edge_dual";
    case Layer_type::edge_dual_directed:
        return "edge_dual_directed";
    }
    return "unknown";
}

/// Description of a layer of T bound to the elements named by Type; constexpr and chainable.
template <class T, Layer_type Type>
class Layer_info {
    static_assert(Layer_value<T>, "Layer_info: T must be bool, int32_t, uint32_t, int64_t, "
                                  "float, double, or a glm vec2/3/4 or dvec2/3/4");

public:
    /// The type of one value of the layer.
    using value_type = T;
    /// The mesh elements the layer binds values to.
    static constexpr Layer_type type = Type;

    /// An info with every default (see the top of this file).
    /// Precondition: `name` outlives the info; it is stored as a view (use a string literal).
    constexpr explicit Layer_info(std::string_view name)
        : name_(name) {}

    /// A copy whose initial value (for new layers and reset values) is `v`.
    [[nodiscard]] constexpr Layer_info initial(const T& v) const {
        auto copy = *this;
        copy.initial_ = v;
        return copy;
    }
    /// A copy whose lower bound (per component for vectors) is `v`; not checked against max.
    [[nodiscard]] constexpr Layer_info min(const T& v) const {
        auto copy = *this;
        copy.min_ = v;
        return copy;
    }
    /// A copy whose upper bound (per component for vectors) is `v`; not checked against min.
    [[nodiscard]] constexpr Layer_info max(const T& v) const {
        auto copy = *this;
        copy.max_ = v;
        return copy;
    }
    /// A copy with the given validation mode.
    [[nodiscard]] constexpr Layer_info validate(Validation mode) const {
        auto copy = *this;
        copy.validation_ = mode;
        return copy;
    }
    /// A copy that reacts to deleted or changed elements with `mode`.
    [[nodiscard]] constexpr Layer_info on_mesh_change(On_mesh_change mode) const {
        auto copy = *this;
        copy.mesh_change_ = mode;
        return copy;
    }
    /// A copy that fills split / collapsed elements with `mode`. Whether the mode suits T is
    /// checked when the layer is created (why_not in interpolation.hpp), not here, so that the
    /// refusal can carry a message instead of being a compile error.
    [[nodiscard]] constexpr Layer_info interpolation(Interpolation mode) const {
        auto copy = *this;
        copy.interpolation_ = mode;
        return copy;
    }

    /// The layer's name.
    constexpr std::string_view name() const { return name_; }
    /// The value of new elements and of reset values.
    constexpr const T& initial_value() const { return initial_; }
    /// The lower bound of the valid range.
    constexpr const T& min_value() const { return min_; }
    /// The upper bound of the valid range.
    constexpr const T& max_value() const { return max_; }
    /// Whether values are checked against the range.
    constexpr Validation validation() const { return validation_; }
    /// The reaction to deleted or changed elements.
    constexpr On_mesh_change mesh_change() const { return mesh_change_; }
    /// The reaction to split and collapse.
    constexpr Interpolation interpolation_mode() const { return interpolation_; }

    /// Whether `v` lies in [min, max] (every component for vectors). NaN is never in range,
    /// so validation catches it. Independent of validation(): the caller decides when to ask.
    constexpr bool in_range(const T& v) const {
        for (int i = 0; i < layer_value_length<T>; ++i) {
            const auto c = component(v, i);
            if (!(c >= component(min_, i) && c <= component(max_, i))) return false;
        }
        return true;
    }

    /// Equal when every setting is equal (a NaN initial value makes an info unequal to itself).
    friend constexpr bool operator==(const Layer_info&, const Layer_info&) = default;

private:
    using Component = Layer_component_t<T>;

    static constexpr Component component(const T& v, int i) {
        if constexpr (Layer_scalar<T>) {
            (void)i;
            return v;
        } else {
            return v[i];
        }
    }
    static constexpr Component lowest_component() {
        if constexpr (std::numeric_limits<Component>::has_infinity)
            return -std::numeric_limits<Component>::infinity();
        else
            return std::numeric_limits<Component>::lowest();
    }
    static constexpr Component highest_component() {
        if constexpr (std::numeric_limits<Component>::has_infinity)
            return std::numeric_limits<Component>::infinity();
        else
            return std::numeric_limits<Component>::max();
    }

    std::string_view name_;
    // Built from a component rather than `T{}`: glm's default constructor leaves vectors
    // uninitialised unless GLM_FORCE_CTOR_INIT is set.
    T initial_{Component{}};
    T min_{lowest_component()};
    T max_{highest_component()};
    Validation validation_ = Validation::none;
    On_mesh_change mesh_change_ = On_mesh_change::keep;
    Interpolation interpolation_ = Interpolation::dont_care;
};

/// The layer that holds each vertex's point in space (on the sphere for generated worlds).
/// Split and collapse place new and merged vertices on the great circle between the ends:
/// slerp turns the direction and interpolates the length. File formats read and write vertex
/// positions from and to this layer.
inline constexpr auto position_layer =
    Layer_info<glm::vec3, Layer_type::vertex>("position").interpolation(Interpolation::slerp);

} // namespace orbis
