// SPDX-License-Identifier: MIT
#include "orbis/render/picture_cache.hpp"

#include "orbis/core/world.hpp"

#include <algorithm>
#include <cmath>

namespace orbis::render {

World_stamp world_stamp(const World& world) {
    World_stamp stamp;
    stamp.mesh_version = world.mesh_version();
    const std::vector<std::string> names = world.layer_names();
    stamp.layers.reserve(names.size());
    for (const std::string& name : names)
        stamp.layers.emplace_back(name, world.version_of(name).value_or(0));
    stamp.hints = world.all_hints();
    return stamp;
}

namespace {

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(a)); }

} // namespace

bool View_place::same_as(const View_place& other) const {
    if (width != other.width || height != other.height ||
        !close(field_of_view, other.field_of_view))
        return false;
    for (int i = 0; i < 3; ++i)
        if (!close(eye_in_radii[i], other.eye_in_radii[i])) return false;
    // q and -q are the same turn.
    const double d = std::abs(glm::dot(orientation, other.orientation));
    return std::abs(1.0 - d) <= 1e-12;
}

View_place view_place(const Camera& camera, int width, int height) {
    View_place place;
    place.eye_in_radii = camera.eye() / camera.radius();
    place.orientation = camera.orientation();
    place.field_of_view = camera.field_of_view();
    place.width = width;
    place.height = height;
    return place;
}

std::shared_ptr<const Picture> Picture_cache::find(const World_stamp& world,
                                                   const View_options& options,
                                                   const View_place& place) {
    if (entries_.empty() || !(options == options_) || !place.same_as(place_)) return nullptr;
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->world == world) {
            entries_.splice(entries_.begin(), entries_, it);
            return entries_.front().picture;
        }
    }
    return nullptr;
}

bool Picture_cache::has(const World_stamp& world, const View_options& options,
                        const View_place& place) const {
    if (!(options == options_) || !place.same_as(place_)) return false;
    return std::any_of(entries_.begin(), entries_.end(),
                       [&](const Entry& e) { return e.world == world; });
}

void Picture_cache::put(World_stamp world, const View_options& options, const View_place& place,
                        std::shared_ptr<const Picture> picture) {
    if (!picture) return;
    if (!(options == options_) || !place.same_as(place_)) {
        clear();
        options_ = options;
        place_ = place;
    }
    std::erase_if(entries_, [&](const Entry& e) {
        if (!(e.world == world)) return false;
        bytes_ -= e.picture->bytes();
        return true;
    });
    if (picture->bytes() > budget_) return;
    shrink_to(budget_ - picture->bytes());
    bytes_ += picture->bytes();
    entries_.push_front({std::move(world), std::move(picture)});
}

void Picture_cache::set_budget(std::size_t budget) {
    budget_ = budget;
    shrink_to(budget);
}

void Picture_cache::shrink_to(std::size_t budget) {
    while (bytes_ > budget && !entries_.empty()) {
        bytes_ -= entries_.back().picture->bytes();
        entries_.pop_back();
    }
}

} // namespace orbis::render
