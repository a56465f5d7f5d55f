// SPDX-License-Identifier: MIT
// Unstructured layers (SPEC "World"): a tree of string keys to bool / int / double / string /
// vec3 / arrays / dicts, for data that belongs to the world as a whole (generator settings,
// plate parameters, notes) rather than to its elements.
#pragma once

#include <glm/vec3.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace orbis {

class Dict_value;
struct Dict_entry;

/// A value of the wrong kind was read from a Dict, or a key is missing; the message says which.
class Dict_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A list of Dict values of any kinds.
using Dict_array = std::vector<Dict_value>;

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
    std::size_t size() const;
    /// True when there are no keys.
    bool empty() const { return size() == 0; }
    /// The entries in key order.
    const std::vector<Dict_entry>& entries() const { return entries_; }

    /// Same keys with equal values (doubles compared bit for bit, so NaN equals itself).
    friend bool operator==(const Dict& a, const Dict& b);

private:
    std::vector<Dict_entry> entries_;
};

/// One value in a Dict: null, bool, int64, double, string, dvec3, an array or a nested dict.
class Dict_value {
public:
    /// The alternatives, in this order.
    using Storage = std::variant<std::monostate, bool, std::int64_t, double, std::string,
                                 glm::dvec3, Dict_array, Dict>;

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
    /// A vector (vec3 values are widened to dvec3).
    Dict_value(glm::dvec3 v)
        : value_(v) {}
    /// An array.
    Dict_value(Dict_array v)
        : value_(std::move(v)) {}
    /// A nested dict.
    Dict_value(Dict v)
        : value_(std::move(v)) {}

    /// True for the default (null) value.
    bool is_null() const { return std::holds_alternative<std::monostate>(value_); }
    /// True when the value holds an X (one of the Storage alternatives).
    template <class X>
    bool is() const {
        return std::holds_alternative<X>(value_);
    }
    /// The X held. \throws Dict_error saying what was asked for and what is there.
    template <class X>
    const X& as() const {
        if (const X* x = std::get_if<X>(&value_)) return *x;
        throw Dict_error(std::string("dict value is ") + std::string(kind_name()) + ", not " +
                         std::string(kind_name(Storage(X{}).index())));
    }
    /// The X held, for changing it. \throws Dict_error as the const version.
    template <class X>
    X& as() {
        return const_cast<X&>(std::as_const(*this).template as<X>());
    }
    /// The alternatives' storage.
    const Storage& storage() const { return value_; }
    /// The name of the held kind ("null", "bool", "int", "double", "string", "vec3", "array",
    /// "dict").
    std::string_view kind_name() const { return kind_name(value_.index()); }
    /// The name of the kind with variant index `index`.
    static std::string_view kind_name(std::size_t index);

    /// Same kind and equal value (doubles bit for bit).
    friend bool operator==(const Dict_value& a, const Dict_value& b);

private:
    Storage value_;
};

/// A key and its value.
struct Dict_entry {
    std::string key;  ///< the key
    Dict_value value; ///< its value
    /// Same key and value.
    friend bool operator==(const Dict_entry&, const Dict_entry&) = default;
};

} // namespace orbis
