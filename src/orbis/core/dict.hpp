// SPDX-License-Identifier: MIT
// Unstructured layers (SPEC "World"): a tree of string keys to bool / int / double / string /
// vec3 / arrays / dicts, for data that belongs to the world as a whole (generator settings,
// plate parameters, notes) rather than to its elements.
#pragma once

#include <glm/vec3.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace orbis {

class Dict;
class Dict_value;

/// A value of the wrong kind was read from a Dict, or a key is missing; the message says which.
class Dict_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A list of Dict values of any kinds.
using Dict_array = std::vector<Dict_value>;

namespace detail {
// A value held through a pointer, copied deeply: lets Dict_value contain arrays and dicts of
// itself (a variant needs complete alternatives; a Box of an incomplete type is complete).
template <class T>
class Box {
public:
    explicit Box(T value);
    Box(const Box& other);
    Box(Box&&) noexcept = default;
    Box& operator=(const Box& other);
    Box& operator=(Box&&) noexcept = default;
    ~Box() = default;
    T& get() { return *p_; }
    const T& get() const { return *p_; }

private:
    std::unique_ptr<T> p_;
};
} // namespace detail

/// One value in a Dict: null, bool, int64, double, string, dvec3, an array or a nested dict.
class Dict_value {
public:
    /// The alternatives, in this order (arrays and dicts boxed).
    using Storage = std::variant<std::monostate, bool, std::int64_t, double, std::string,
                                 glm::dvec3, detail::Box<Dict_array>, detail::Box<Dict>>;

    /// Null.
    Dict_value() = default;
    /// A bool.
    Dict_value(bool v)
        : value_(v) {}
    /// An integer (any integer type is stored as int64).
    template <class I>
    requires(std::is_integral_v<I> && !std::is_same_v<I, bool>) Dict_value(I v)
        : value_(static_cast<std::int64_t>(v)) {}
    /// A double (floats are widened).
    Dict_value(double v)
        : value_(v) {}
    /// A string.
    Dict_value(std::string v)
        : value_(std::move(v)) {}
    /// A string.
    Dict_value(const char* v)
        : value_(std::string(v)) {}
    /// A vector.
    Dict_value(glm::dvec3 v)
        : value_(v) {}
    /// An array.
    Dict_value(Dict_array v);
    /// A nested dict.
    Dict_value(Dict v);

    /// True for the default (null) value.
    bool is_null() const { return std::holds_alternative<std::monostate>(value_); }
    /// True when the value holds an X: bool, std::int64_t, double, std::string, glm::dvec3,
    /// Dict_array or Dict.
    template <class X>
    bool is() const {
        return std::holds_alternative<Stored<X>>(value_);
    }
    /// The X held. \throws Dict_error saying what was asked for and what is there.
    template <class X>
    const X& as() const {
        if (const auto* x = std::get_if<Stored<X>>(&value_)) {
            if constexpr (std::is_same_v<X, Dict> || std::is_same_v<X, Dict_array>)
                return x->get();
            else
                return *x;
        }
        throw Dict_error(std::string("dict value is ") + std::string(kind_name()) + ", not " +
                         std::string(kind_name(index_of<X>())));
    }
    /// The X held, for changing it. \throws Dict_error as the const version.
    template <class X>
    X& as() {
        return const_cast<X&>(std::as_const(*this).template as<X>());
    }
    /// The alternative's index in Storage (0 null ... 7 dict), the kind in files.
    std::size_t kind() const { return value_.index(); }
    /// The name of the held kind ("null", "bool", "int", "double", "string", "vec3", "array",
    /// "dict").
    std::string_view kind_name() const { return kind_name(value_.index()); }
    /// The name of the kind with variant index `index`.
    static std::string_view kind_name(std::size_t index);

    /// Same kind and equal value (doubles bit for bit).
    friend bool operator==(const Dict_value& a, const Dict_value& b);

private:
    template <class X>
    using Stored = std::conditional_t<
        std::is_same_v<X, Dict>, detail::Box<Dict>,
        std::conditional_t<std::is_same_v<X, Dict_array>, detail::Box<Dict_array>, X>>;
    template <class X>
    static constexpr std::size_t index_of() {
        using S = Stored<X>;
        if constexpr (std::is_same_v<S, bool>)
            return 1;
        else if constexpr (std::is_same_v<S, std::int64_t>)
            return 2;
        else if constexpr (std::is_same_v<S, double>)
            return 3;
        else if constexpr (std::is_same_v<S, std::string>)
            return 4;
        else if constexpr (std::is_same_v<S, glm::dvec3>)
            return 5;
        else if constexpr (std::is_same_v<S, detail::Box<Dict_array>>)
            return 6;
        else if constexpr (std::is_same_v<S, detail::Box<Dict>>)
            return 7;
        else
            return 0;
    }

    Storage value_;
};

/// A key and its value.
struct Dict_entry {
    std::string key;  ///< the key
    Dict_value value; ///< its value
    /// Same key and value.
    friend bool operator==(const Dict_entry&, const Dict_entry&) = default;
};

/// A map from string keys to Dict values, kept sorted by key (iteration is in key order).
class Dict {
public:
    /// An empty dict.
    Dict() = default;

    /// True when `key` is present.
    bool contains(std::string_view key) const { return find(key) != nullptr; }
    /// The value of `key`, or nullptr. O(log size).
    const Dict_value* find(std::string_view key) const;
    /// The value of `key`, or nullptr. O(log size).
    Dict_value* find(std::string_view key);
    /// The value of `key`. \throws Dict_error naming the key when it is missing.
    const Dict_value& at(std::string_view key) const;
    /// The value of `key`, inserting a null value when it is missing. O(size) on insertion.
    Dict_value& operator[](std::string_view key);
    /// Sets `key` to `value`, replacing any previous value.
    void set(std::string_view key, Dict_value value);
    /// Removes `key`; false when it was not there.
    bool erase(std::string_view key);
    /// Number of keys.
    std::size_t size() const { return entries_.size(); }
    /// True when there are no keys.
    bool empty() const { return entries_.empty(); }
    /// The entries in key order.
    const std::vector<Dict_entry>& entries() const { return entries_; }

    /// Same keys with equal values (doubles compared bit for bit, so NaN equals itself).
    friend bool operator==(const Dict& a, const Dict& b) { return a.entries_ == b.entries_; }

private:
    std::vector<Dict_entry> entries_;
};

// ---- definitions that need Dict complete ----

inline Dict_value::Dict_value(Dict_array v)
    : value_(detail::Box<Dict_array>(std::move(v))) {}
inline Dict_value::Dict_value(Dict v)
    : value_(detail::Box<Dict>(std::move(v))) {}

namespace detail {
template <class T>
Box<T>::Box(T value)
    : p_(std::make_unique<T>(std::move(value))) {}
template <class T>
Box<T>::Box(const Box& other)
    : p_(std::make_unique<T>(*other.p_)) {}
template <class T>
Box<T>& Box<T>::operator=(const Box& other) {
    if (this != &other) p_ = std::make_unique<T>(*other.p_);
    return *this;
}
template <class T>
bool operator==(const Box<T>& a, const Box<T>& b) {
    return a.get() == b.get();
}
} // namespace detail

} // namespace orbis
