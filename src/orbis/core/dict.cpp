// SPDX-License-Identifier: MIT
#include "orbis/core/dict.hpp"

#include <algorithm>
#include <cstring>

namespace orbis {

namespace {

auto lower(const std::vector<Dict_entry>& entries, std::string_view key) {
    return std::lower_bound(entries.begin(), entries.end(), key,
                            [](const Dict_entry& e, std::string_view k) { return e.key < k; });
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

} // namespace

const Dict_value* Dict::find(std::string_view key) const {
    const auto it = lower(entries_, key);
    return it != entries_.end() && it->key == key ? &it->value : nullptr;
}

Dict_value* Dict::find(std::string_view key) {
    return const_cast<Dict_value*>(std::as_const(*this).find(key));
}

const Dict_value& Dict::at(std::string_view key) const {
    if (const Dict_value* v = find(key)) return *v;
    throw Dict_error("dict has no key '" + std::string(key) + "'");
}

Dict_value& Dict::operator[](std::string_view key) {
    auto it = lower(entries_, key);
    if (it != entries_.end() && it->key == key) return entries_[it - entries_.begin()].value;
    const auto at = it - entries_.begin();
    entries_.insert(entries_.begin() + at, Dict_entry{std::string(key), Dict_value{}});
    return entries_[at].value;
}

void Dict::set(std::string_view key, Dict_value value) { (*this)[key] = std::move(value); }

bool Dict::erase(std::string_view key) {
    const auto it = lower(entries_, key);
    if (it == entries_.end() || it->key != key) return false;
    entries_.erase(it);
    return true;
}

std::string_view Dict_value::kind_name(std::size_t index) {
    static constexpr std::string_view names[] = {"null",   "bool", "int",   "double",
                                                 "string", "vec3", "array", "dict"};
    return index < std::size(names) ? names[index] : "unknown";
}

bool operator==(const Dict_value& a, const Dict_value& b) {
    if (a.value_.index() != b.value_.index()) return false;
    if (const double* x = std::get_if<double>(&a.value_))
        return same_bits(*x, std::get<double>(b.value_));
    if (const glm::dvec3* x = std::get_if<glm::dvec3>(&a.value_)) {
        const glm::dvec3& y = std::get<glm::dvec3>(b.value_);
        return same_bits(x->x, y.x) && same_bits(x->y, y.y) && same_bits(x->z, y.z);
    }
    return a.value_ == b.value_;
}

} // namespace orbis
