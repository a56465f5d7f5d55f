// SPDX-License-Identifier: MIT
// Pictures the viewport already drew, kept by what they show, so that going back to a World
// state (scrubbing a timeline, undoing a run) shows its picture at once while the scene for it
// is built again.
#pragma once

#include "orbis/core/layer_hints.hpp"
#include "orbis/render/camera.hpp"
#include "orbis/render/scene.hpp"

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace orbis {
class World;
} // namespace orbis

namespace orbis::render {

/// What a World shows, by stamps: the mesh's version, each layer's name and values version,
/// and the display hints. Versions come from one process-wide counter and every write stamps a
/// new one, so two Worlds with equal stamps hold the same mesh and values (one is a snapshot of
/// the other, or both of a third).
struct World_stamp {
    std::uint64_t mesh_version = 0;                            ///< World::mesh_version()
    std::vector<std::pair<std::string, std::uint64_t>> layers; ///< name, version; by name
    std::map<std::string, Layer_hints, std::less<>> hints;     ///< World::all_hints()
    /// Equal when every part is equal.
    friend bool operator==(const World_stamp&, const World_stamp&) = default;
};

/// The stamps of `world`. O(layers + hints).
World_stamp world_stamp(const World& world);

/// Where a picture was taken from: the camera relative to the planet's radius (which the
/// Camera keeps when the radius changes, as it does between a World's states with relief) and
/// the picture's size in device pixels.
struct View_place {
    glm::dvec3 eye_in_radii{0.0};       ///< Camera::eye() / Camera::radius()
    glm::dquat orientation{1, 0, 0, 0}; ///< Camera::orientation()
    double field_of_view = 0.0;         ///< Camera::field_of_view()
    int width = 0;                      ///< device pixels
    int height = 0;                     ///< device pixels
    /// The same place: sizes equal, and eye and orientation within 1e-9 (relative), which is
    /// far below what a float framebuffer can show.
    bool same_as(const View_place& other) const;
};

/// The place of `camera` for a picture of `width` x `height` device pixels.
View_place view_place(const Camera& camera, int width, int height);

/// A picture of the view: rows from the top, RGBA, 4 bytes a pixel.
struct Picture {
    int width = 0;                    ///< pixels
    int height = 0;                   ///< pixels
    std::vector<std::uint8_t> pixels; ///< width * height * 4 bytes
    /// The bytes it holds.
    std::size_t bytes() const { return pixels.size(); }
};

/// Pictures by World_stamp for one view (options and place) at a time, the least recently
/// used given up first beyond a budget of bytes.
///
/// A picture is only as good as its key: the caller must take it when the framebuffer holds
/// exactly the scene of that World and options seen from that place, with nothing drawn over
/// it that is not part of the scene (hover highlights, tool previews, selections).
class Picture_cache {
public:
    /// A cache that holds at most `budget` bytes of pictures.
    explicit Picture_cache(std::size_t budget = default_budget)
        : budget_(budget) {}

    /// The picture of `world` with `options` from `place`, or nullptr. Marks it used.
    /// O(pictures kept) comparisons of stamps.
    std::shared_ptr<const Picture> find(const World_stamp& world, const View_options& options,
                                        const View_place& place);
    /// Whether find() would give a picture (without marking it used).
    bool has(const World_stamp& world, const View_options& options, const View_place& place) const;
    /// Keeps `picture` of `world` with `options` from `place`. Pictures of any other options
    /// or place are given up first (a view that moved will not come back to the same pixel),
    /// then the least recently used until the budget holds. A picture larger than the budget is
    /// not kept.
    void put(World_stamp world, const View_options& options, const View_place& place,
             std::shared_ptr<const Picture> picture);
    /// Gives up every picture.
    void clear() {
        entries_.clear();
        bytes_ = 0;
    }
    /// How many pictures are kept.
    std::size_t count() const { return entries_.size(); }
    /// The bytes of the pictures kept.
    std::size_t bytes() const { return bytes_; }
    /// The budget in bytes.
    std::size_t budget() const { return budget_; }
    /// Sets the budget, giving up the least recently used pictures beyond it.
    void set_budget(std::size_t budget);

    /// 256 MB: about 60 pictures of a 1280 x 800 view, 8 of a 4K one.
    static constexpr std::size_t default_budget = std::size_t{256} << 20;

private:
    struct Entry {
        World_stamp world;
        std::shared_ptr<const Picture> picture;
    };
    void shrink_to(std::size_t budget);

    std::size_t budget_;
    std::size_t bytes_ = 0;
    View_options options_;
    View_place place_;
    std::list<Entry> entries_; // most recently used first
};

} // namespace orbis::render
