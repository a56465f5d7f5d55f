// SPDX-License-Identifier: MIT
// Equirectangular maps: locate each pixel's direction by walking the mesh, interpolate, colour;
// water drawn over them from the GeoJSON export's lines and polygons.
#include "orbis/io/equirectangular.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace orbis::io {

namespace {

using Positions = Layer<glm::vec3, Layer_type::vertex>;

constexpr std::uint64_t max_pixels = std::uint64_t{1} << 28;

// The corners of the face a direction lies in, with their weights (summing to 1).
struct Hit {
    std::array<Vertex, 3> corners;
    std::array<double, 3> weights;
};

// Runs work(begin, end) on `threads` consecutive slices of [0, count), in parallel, and
// rethrows the first exception any slice threw.
template <class Work>
void in_parallel(unsigned threads, std::uint32_t count, const Work& work) {
    threads = std::max(1u, std::min<unsigned>(threads, count));
    if (threads == 1) {
        work(std::uint32_t{0}, count);
        return;
    }
    std::vector<std::exception_ptr> errors(threads);
    std::vector<std::thread> pool;
    const auto slice = [&](unsigned i) {
        try {
            work(static_cast<std::uint32_t>(std::uint64_t{count} * i / threads),
                 static_cast<std::uint32_t>(std::uint64_t{count} * (i + 1) / threads));
        } catch (...) {
            errors[i] = std::current_exception();
        }
    };
    for (unsigned i = 1; i < threads; ++i)
        pool.emplace_back(slice, i);
    slice(0);
    for (std::thread& t : pool)
        t.join();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
}

// What the walk needs of each face, in one 24-byte record: its corners and the faces across
// its edges. Walking the quad-edge records instead costs three dependent cache misses per
// step (edge, next edge, origin) on a large mesh; with this copy a step reads one record, and
// the records of the next faces are prefetched while the current one is tested. Face ids of
// generated spheres follow latitude, so rows of pixels stay in a narrow band of records.
class Face_table {
public:
    static constexpr std::uint32_t none = UINT32_MAX; // a dead face's corners, no face across

    struct Record {
        std::array<std::uint32_t, 3> corner; // edge k runs from corner k to corner k + 1
        std::array<std::uint32_t, 3> across; // the face right of edge k, or none
    };

    Face_table(const Mesh& mesh, unsigned threads)
        : records_(mesh.face_slots()) {
        in_parallel(threads, mesh.face_slots(), [&](std::uint32_t begin, std::uint32_t end) {
            for (std::uint32_t i = begin; i < end; ++i) {
                Record& r = records_[i];
                if (!mesh.contains(Face{i})) {
                    r.corner.fill(none);
                    r.across.fill(none);
                    continue;
                }
                Edge e = Face{i}.edge(mesh);
                for (int k = 0; k < 3; ++k) {
                    r.corner[k] = e.origin(mesh).index();
                    r.across[k] = e.right(mesh).index(); // no_face's index is `none`
                    e = e.left_next(mesh);
                }
            }
        });
    }
    const Record& operator[](std::uint32_t f) const { return records_[f]; }
    std::uint32_t size() const { return static_cast<std::uint32_t>(records_.size()); }
    bool alive(std::uint32_t f) const { return records_[f].corner[0] != none; }

private:
    std::vector<Record> records_;
};

// Finds the face that contains a direction by a visibility walk from the face of the previous
// query. Each step tests the direction against the current face's edges with the exact
// orientation predicate and crosses an edge the direction lies strictly right of; which one,
// when there are two, is chosen at random, because a deterministic choice can cycle forever on
// meshes that are not Delaunay. A walk longer than any sensible one falls back to testing
// every face, so a folded mesh costs time but never hangs.
class Face_walker {
public:
    Face_walker(const Face_table& faces, const Positions& positions, std::uint32_t start,
                std::uint64_t step_limit)
        : faces_(faces)
        , positions_(positions)
        , step_limit_(step_limit) {
        enter(start);
    }

    // The face containing `d` with its corner weights; false when no face covers `d`.
    bool locate(const glm::vec3& d, Hit& hit) {
        const glm::dvec3 q(d);
        for (std::uint64_t step = 0; step < step_limit_; ++step) {
            double det[3];
            int side[3];
            test(q, det, side);
            if (contains(side)) {
                weigh(det, hit);
                return true;
            }
            // Cross a random one of the edges d lies strictly right of, skipping the boundary
            // of open meshes (no face beyond).
            int candidates[3];
            int n = 0;
            for (int k = 0; k < 3; ++k)
                if (side[k] < 0 && face_->across[k] != Face_table::none) candidates[n++] = k;
            if (n == 0) return false; // outside an open mesh, as far as the walk can tell
            enter(face_->across[candidates[n == 1 ? 0 : next_random() % n]]);
        }
        return search_all(d, hit);
    }

private:
    // Per edge k (corner k to k + 1, as floats promoted to double): the normal a x b of its
    // plane through the origin, and per component the sum of the magnitudes of the two
    // products that component is the difference of.
    struct Edge_plane {
        glm::dvec3 normal;
        glm::dvec3 magnitude;
    };

    void enter(std::uint32_t f) {
        face_ = &faces_[f];
        for (int k = 0; k < 3; ++k)
            point_[k] = positions_[Vertex{face_->corner[k]}];
        for (int k = 0; k < 3; ++k)
            if (face_->across[k] != Face_table::none) __builtin_prefetch(&faces_[face_->across[k]]);
        for (int k = 0; k < 3; ++k) {
            const glm::dvec3 a(point_[k]), b(point_[(k + 1) % 3]);
            // Products of two floats are exact in double; each difference is rounded once.
            const double p0 = a.y * b.z, q0 = a.z * b.y, p1 = a.z * b.x, q1 = a.x * b.z;
            const double p2 = a.x * b.y, q2 = a.y * b.x;
            plane_[k] = {{p0 - q0, p1 - q1, p2 - q2},
                         {std::abs(p0) + std::abs(q0), std::abs(p1) + std::abs(q1),
                          std::abs(p2) + std::abs(q2)}};
        }
        face_sign_ = unknown_sign;
    }

    // det[k] = d . (corner k x corner k + 1) and its sign where rounding cannot change it: the
    // filter of gen::orientation_on_sphere (one rounding in each minor, product and sum: at
    // most 4 * 2^-53 times the permanent, 5 with a margin), with the minors of the face's edges
    // computed once per face instead of once per pixel. An undecided sign counts as 0, "on the
    // edge": a pixel that close to an edge may take either face's value, and 0 never sends the
    // walk across, so no exact arithmetic (and no dependency on orbis::gen) is needed.
    void test(const glm::dvec3& q, double (&det)[3], int (&side)[3]) const {
        const glm::dvec3 size = glm::abs(q);
        for (int k = 0; k < 3; ++k) {
            det[k] = glm::dot(q, plane_[k].normal);
            const double bound = 5.0 * 0x1p-53 * glm::dot(size, plane_[k].magnitude);
            side[k] = det[k] > bound ? 1 : det[k] < -bound ? -1 : 0;
        }
    }

    // Whether the current face contains the direction with these sides of its edges. A face
    // smaller than a hemisphere (positive orientation) is the intersection of the three
    // half-spheres left of its edges; a larger one is the complement of the small triangle on
    // the right of all three.
    bool contains(const int (&side)[3]) {
        if (side[0] >= 0 && side[1] >= 0 && side[2] >= 0) return true;
        if (face_sign_ == unknown_sign) {
            // The face's own orientation, from the same filter (0 when undecided: such a face
            // is degenerate and treated as small).
            double det[3];
            int side_of_0[3];
            test(glm::dvec3(point_[0]), det, side_of_0);
            face_sign_ = side_of_0[1];
        }
        return face_sign_ < 0 && (side[0] >= 0 || side[1] >= 0 || side[2] >= 0);
    }

    // Barycentric coordinates of the ray through d with the plane of the face: the weight of
    // a corner is the volume d spans with the opposite edge, det[k + 1]. Clamped to the face
    // (rounding, or a face larger than a hemisphere, can make one slightly negative).
    void weigh(const double (&det)[3], Hit& hit) const {
        const double w[3] = {std::max(0.0, det[1]), std::max(0.0, det[2]), std::max(0.0, det[0])};
        const double sum = w[0] + w[1] + w[2];
        for (int k = 0; k < 3; ++k) {
            hit.corners[k] = Vertex{face_->corner[k]};
            hit.weights[k] = sum > 0.0 ? w[k] / sum : 1.0 / 3.0;
        }
    }

    bool search_all(const glm::vec3& d, Hit& hit) {
        const glm::dvec3 q(d);
        for (std::uint32_t f = 0; f < faces_.size(); ++f) {
            if (!faces_.alive(f)) continue;
            enter(f);
            double det[3];
            int side[3];
            test(q, det, side);
            if (contains(side)) {
                weigh(det, hit);
                return true;
            }
        }
        return false;
    }

    // xorshift32: only needs to break the symmetry of cycles, not to be good.
    std::uint32_t next_random() {
        random_ ^= random_ << 13;
        random_ ^= random_ >> 17;
        random_ ^= random_ << 5;
        return random_;
    }

    static constexpr int unknown_sign = 2;

    const Face_table& faces_;
    const Positions& positions_;
    std::uint64_t step_limit_;
    const Face_table::Record* face_ = nullptr;
    std::array<glm::vec3, 3> point_{};
    std::array<Edge_plane, 3> plane_{};
    int face_sign_ = unknown_sign;
    std::uint32_t random_ = 0x9E3779B9u;
};

// The pixel grid: image size, the threads to use, and the unit direction of each pixel
// centre (by the convention in the header).
struct Grid {
    std::uint32_t width, height;
    unsigned threads;
    std::vector<double> cos_lon, sin_lon;

    Grid(std::uint32_t w, std::uint32_t h, unsigned t)
        : width(w)
        , height(h)
        , threads(t)
        , cos_lon(w)
        , sin_lon(w) {
        for (std::uint32_t x = 0; x < w; ++x) {
            const double lon = -std::numbers::pi + 2.0 * std::numbers::pi * (x + 0.5) / w;
            cos_lon[x] = std::cos(lon);
            sin_lon[x] = std::sin(lon);
        }
    }
    double latitude(std::uint32_t y) const {
        return std::numbers::pi / 2 - std::numbers::pi * (y + 0.5) / height;
    }
    // Calls visit(x, y, direction) for the pixels of rows [begin, end), row by row.
    template <class Visit>
    void for_rows(std::uint32_t begin, std::uint32_t end, Visit&& visit) const {
        for (std::uint32_t y = begin; y < end; ++y) {
            const double lat = latitude(y);
            const double cos_lat = std::cos(lat), sin_lat = std::sin(lat);
            for (std::uint32_t x = 0; x < width; ++x)
                visit(x, y,
                      glm::vec3(static_cast<float>(cos_lat * cos_lon[x]),
                                static_cast<float>(sin_lat),
                                static_cast<float>(-cos_lat * sin_lon[x])));
        }
    }
};

// Locates every pixel in parallel bands of rows, each band walking on its own, and calls
// pixel(x, y, hit) for covered pixels and gap(x, y) for the others.
template <class Pixel, class Gap>
void locate_pixels(const Grid& grid, const Face_table& faces, const Positions& positions,
                   const Pixel& pixel, const Gap& gap) {
    std::uint32_t start = 0;
    while (!faces.alive(start))
        ++start;
    // Far beyond the O(sqrt(faces)) steps of a walk across a Delaunay mesh.
    const std::uint64_t step_limit =
        1000 + 8 * static_cast<std::uint64_t>(std::sqrt(static_cast<double>(faces.size())));
    in_parallel(grid.threads, grid.height, [&](std::uint32_t begin, std::uint32_t end) {
        Face_walker walker(faces, positions, start, step_limit);
        Hit hit;
        grid.for_rows(begin, end, [&](std::uint32_t x, std::uint32_t y, const glm::vec3& d) {
            if (walker.locate(d, hit))
                pixel(x, y, hit);
            else
                gap(x, y);
        });
    });
}

// Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) about "'" + std::string(name).
std::string quoted(std::string_view name) {
    std::string out(1, '\'');
    out += name;
    out += '\'';
    return out;
}

[[noreturn]] void refuse(const std::string& why) {
    throw std::invalid_argument("render_equirectangular: " + why);
}

const Positions& positions_of(const World& world) {
    const Layer_base* found = world.find_layer(position_layer.name());
    if (!found) refuse("the World has no position layer " + quoted(position_layer.name()));
    if (found->type() != Layer_type::vertex || found->value_tag() != Value_type::vec3)
        refuse("the position layer " + quoted(position_layer.name()) + " is " +
               std::string(found->value_name()) + " per " +
               std::string(layer_type_name(found->type())) + ", not vec3 per vertex");
    const auto& positions = static_cast<const Positions&>(*found);
    for (const Vertex v : world.mesh().vertices()) {
        const glm::vec3 p = positions[v];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) ||
            (p.x == 0.0f && p.y == 0.0f && p.z == 0.0f))
            refuse("vertex " + to_string(v) + " has position " + found->format_value(v.index()) +
                   ", which gives no direction");
    }
    return positions;
}

void check_options(const Map_options& o) {
    if (o.width == 0) refuse("the width is 0");
    const std::uint32_t height = o.height ? o.height : std::max<std::uint32_t>(1, o.width / 2);
    if (std::uint64_t{o.width} * height > max_pixels)
        refuse(std::to_string(o.width) + " x " + std::to_string(height) +
               " pixels is more than the 2^28 accepted");
    if (o.range && !(std::isfinite(o.range->min) && std::isfinite(o.range->max) &&
                     o.range->min <= o.range->max))
        refuse("the value range [" + std::to_string(o.range->min) + ", " +
               std::to_string(o.range->max) + "] is not finite with min <= max");
    if (!std::isfinite(o.sea_level)) refuse("the sea level is not finite");
    if (o.hillshade && o.colour_map == Colour_map_kind::categorical)
        refuse("hillshade needs a continuous colour map; ids have no slope");
    if (o.vertical_exaggeration &&
        !(std::isfinite(*o.vertical_exaggeration) && *o.vertical_exaggeration >= 0.0))
        refuse("the vertical exaggeration " + std::to_string(*o.vertical_exaggeration) +
               " is not finite and >= 0");
    if (!(std::isfinite(o.planet_radius) && o.planet_radius > 0.0))
        refuse("the planet radius " + std::to_string(o.planet_radius) + " is not finite and > 0");
}

// Smallest and largest value over the live vertices, NaN skipped; [0, 1] when there is none.
template <class T>
Value_range value_range(const Mesh& mesh, const Layer<T, Layer_type::vertex>& layer) {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (const Vertex v : mesh.vertices()) {
        const auto value = static_cast<double>(layer[v]);
        if (value < lo) lo = value;
        if (value > hi) hi = value;
    }
    if (lo > hi) return {};
    return {lo, hi};
}

// Light from azimuth 315 degrees (north-west), 45 degrees above the horizon, in the local frame
// east, north, up.
constexpr double light_east = -0.5;
constexpr double light_north = 0.5;
constexpr double light_up = 0.70710678118654752;

// Darkens slopes facing away from the light and lightens those facing it; flat ground keeps
// its colour. `slope_east` and `slope_north` are dimensionless (rise over run). Slopes in full
// shadow keep half their brightness and lit ones move at most a fifth of the way to white, so
// the colour map stays readable under the relief.
Srgb8 shade(Srgb8 c, double slope_east, double slope_north) {
    const double lit = (light_up - light_east * slope_east - light_north * slope_north) /
                       std::sqrt(1.0 + slope_east * slope_east + slope_north * slope_north);
    const double f = std::max(0.0, lit) / light_up; // 1 on flat ground, up to sqrt(2)
    const auto channel = [f](std::uint8_t v) {
        const double x = f < 1.0 ? v * (0.5 + 0.5 * f) : v + (255.0 - v) * 0.5 * (f - 1.0);
        return static_cast<std::uint8_t>(std::clamp(x + 0.5, 0.0, 255.0));
    };
    return {channel(c.r), channel(c.g), channel(c.b)};
}

// The gradient of the value raster at (x, y) per radian of ground, east and north; rows wrap
// around at the +-180 degree seam, the top and bottom rows take one-sided differences.
struct Raster_gradient {
    const std::vector<double>& values;
    std::uint32_t width, height;
    std::vector<double> inv_east_step; // per row: 1 / (2 * dlon * cos(latitude))
    double inv_north_step;             // 1 / dlat

    Raster_gradient(const std::vector<double>& v, const Grid& grid)
        : values(v)
        , width(grid.width)
        , height(grid.height)
        , inv_east_step(grid.height)
        , inv_north_step(grid.height / std::numbers::pi) {
        for (std::uint32_t y = 0; y < height; ++y)
            inv_east_step[y] = width / (4.0 * std::numbers::pi * std::cos(grid.latitude(y)));
    }
    double at(std::uint32_t x, std::uint32_t y) const { return values[std::size_t{y} * width + x]; }
    // False when a neighbour is NaN (no data), so no slope can be given.
    bool operator()(std::uint32_t x, std::uint32_t y, double& east, double& north) const {
        const std::uint32_t left = x == 0 ? width - 1 : x - 1;
        const std::uint32_t right = x + 1 == width ? 0 : x + 1;
        east = (at(right, y) - at(left, y)) * inv_east_step[y];
        const std::uint32_t up = y == 0 ? 0 : y - 1;
        const std::uint32_t down = y + 1 == height ? y : y + 1;
        north = down == up ? 0.0 : (at(x, up) - at(x, down)) * inv_north_step / (down - up);
        return std::isfinite(east) && std::isfinite(north);
    }
};

// The factor from the raster's gradient (value per radian) to dimensionless slopes: given,
// or chosen so that the 98th percentile of the shaded pixels' slopes becomes 1 (45 degrees).
// The percentile is taken over at most about 2^19 evenly spread pixels.
template <class Shaded>
double slope_scale(const Raster_gradient& gradient, const Map_options& o, const Shaded& shaded) {
    if (o.vertical_exaggeration) return *o.vertical_exaggeration / o.planet_radius;
    const std::size_t n = gradient.values.size();
    const std::size_t stride = std::max<std::size_t>(1, n >> 19);
    std::vector<float> slopes;
    slopes.reserve(n / stride + 1);
    for (std::size_t i = 0; i < n; i += stride) {
        const auto x = static_cast<std::uint32_t>(i % gradient.width);
        const auto y = static_cast<std::uint32_t>(i / gradient.width);
        double east = 0, north = 0;
        if (shaded(gradient.at(x, y)) && gradient(x, y, east, north))
            slopes.push_back(static_cast<float>(std::sqrt(east * east + north * north)));
    }
    if (slopes.empty()) return 0.0;
    const auto k = slopes.begin() + static_cast<std::ptrdiff_t>(slopes.size() * 49 / 50);
    std::nth_element(slopes.begin(), k, slopes.end());
    return *k > 0.0f ? 1.0 / *k : 0.0;
}

// The colours of a continuous map at evenly spaced values, so that a pixel costs a lookup
// instead of a search through control points. Steps are 1/4095 of the range for viridis and
// diverging (at most one unit of a channel from the exact colour) and 1 metre for terrain
// (rounded down, so the sea / land boundary stays exact); terrain values beyond the table,
// far below the deepest or above the highest control point, take the exact colour.
class Colour_lookup {
public:
    Colour_lookup(const Map_options& o, Value_range range)
        : kind_(o.colour_map)
        , range_(range)
        , sea_level_(o.sea_level) {
        if (kind_ == Colour_map_kind::terrain) {
            table_.resize(static_cast<std::size_t>(terrain_high - terrain_low) + 1);
            for (std::size_t i = 0; i < table_.size(); ++i)
                table_[i] = terrain(terrain_low + static_cast<double>(i));
        } else {
            table_.resize(steps + 1);
            for (std::size_t i = 0; i <= steps; ++i)
                table_[i] = map_colour(kind_, static_cast<double>(i) / steps, 0.0, 1.0);
        }
    }
    // Precondition: v is not NaN.
    Srgb8 operator()(double v) const {
        if (kind_ == Colour_map_kind::terrain) {
            const double metres = v - sea_level_;
            if (!(metres >= terrain_low && metres < terrain_high)) return terrain(metres);
            return table_[static_cast<std::size_t>(std::floor(metres) - terrain_low)];
        }
        return table_[static_cast<std::size_t>(normalise(v, range_.min, range_.max) * steps + 0.5)];
    }

private:
    static constexpr std::size_t steps = 4095;
    static constexpr double terrain_low = -12000.0, terrain_high = 9000.0;

    Colour_map_kind kind_;
    Value_range range_;
    double sea_level_;
    std::vector<Srgb8> table_;
};

// Colours the value raster, with the hillshade if asked for.
Image colour_raster(const std::vector<double>& values, const Grid& grid, const Map_options& o,
                    Value_range range) {
    Image image(grid.width, grid.height);
    const auto shaded = [&](double v) {
        return o.colour_map != Colour_map_kind::terrain || v >= o.sea_level;
    };
    const Raster_gradient gradient(values, grid);
    const double scale = o.hillshade ? slope_scale(gradient, o, shaded) : 0.0;
    const Colour_lookup colour(o, range);
    in_parallel(grid.threads, grid.height, [&](std::uint32_t begin, std::uint32_t end) {
        for (std::uint32_t y = begin; y < end; ++y)
            for (std::uint32_t x = 0; x < grid.width; ++x) {
                const double v = gradient.at(x, y);
                if (std::isnan(v)) {
                    image.set(x, y, o.no_data);
                    continue;
                }
                Srgb8 c = colour(v);
                double east = 0, north = 0;
                if (scale > 0.0 && shaded(v) && gradient(x, y, east, north))
                    c = shade(c, scale * east, scale * north);
                image.set(x, y, c);
            }
    });
    return image;
}

template <class T>
Image render_layer(const World& world, const Layer<T, Layer_type::vertex>& layer,
                   const Positions& positions, const Map_options& o) {
    const Mesh& mesh = world.mesh();
    const std::uint32_t height = o.height ? o.height : std::max<std::uint32_t>(1, o.width / 2);
    const unsigned threads =
        o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
    const Grid grid(o.width, height, threads);
    const Face_table faces(mesh, threads);
    if (o.colour_map == Colour_map_kind::categorical) {
        // The corner of largest weight gives its id exactly: no interpolation between ids.
        Image image(grid.width, grid.height);
        const auto pixel = [&](std::uint32_t x, std::uint32_t y, const Hit& hit) {
            const auto k =
                std::max_element(hit.weights.begin(), hit.weights.end()) - hit.weights.begin();
            const T id = layer[hit.corners[static_cast<std::size_t>(k)]];
            if constexpr (std::is_integral_v<T>)
                image.set(x, y, category_colour(o.hints, static_cast<std::int64_t>(id)));
            else if (std::isnan(id))
                image.set(x, y, o.no_data);
            else
                image.set(x, y, map_colour(Colour_map_kind::categorical, id, 0.0, 1.0));
        };
        const auto gap = [&](std::uint32_t x, std::uint32_t y) { image.set(x, y, o.no_data); };
        locate_pixels(grid, faces, positions, pixel, gap);
        return image;
    }
    std::vector<double> values(std::size_t{grid.width} * grid.height);
    const auto pixel = [&](std::uint32_t x, std::uint32_t y, const Hit& hit) {
        double sum = 0.0;
        for (int k = 0; k < 3; ++k)
            if (hit.weights[k] > 0.0)
                sum += hit.weights[k] * static_cast<double>(layer[hit.corners[k]]);
        values[std::size_t{y} * grid.width + x] = sum;
    };
    const auto gap = [&](std::uint32_t x, std::uint32_t y) {
        values[std::size_t{y} * grid.width + x] = std::numeric_limits<double>::quiet_NaN();
    };
    locate_pixels(grid, faces, positions, pixel, gap);
    const Value_range range = o.range ? *o.range : value_range(mesh, layer);
    return colour_raster(values, grid, o, range);
}

} // namespace

Image render_equirectangular(const World& world, std::string_view layer_name,
                             const Map_options& options) {
    check_options(options);
    const Layer_base* found = world.find_layer(layer_name);
    if (!found)
        refuse("the World has no typed layer " + quoted(layer_name) +
               (world.layer(layer_name) ? " (it is a Dict layer)" : ""));
    if (found->type() != Layer_type::vertex)
        refuse("layer " + quoted(layer_name) + " is a " +
               std::string(layer_type_name(found->type())) + " layer, not a vertex layer");
    if (world.mesh().face_count() == 0) refuse("the mesh has no faces");
    const Positions& positions = positions_of(world);
    return with_value_type(found->value_tag(), [&]<class T>() -> Image {
        if constexpr (Layer_scalar<T>) {
            return render_layer(world, static_cast<const Layer<T, Layer_type::vertex>&>(*found),
                                positions, options);
        } else {
            refuse("layer " + quoted(layer_name) + " holds " + std::string(found->value_name()) +
                   " values; only scalar layers (bool, int32, uint32, int64, float, double) "
                   "can be drawn");
        }
    });
}

namespace {

// Pixel coordinates of a position (pixel centres at half-integers).
struct Pixel_point {
    double x, y;
};

Pixel_point to_pixel(Lon_lat p, const Image& image) {
    return {(p.lon * 1e-6 + 180.0) / 360.0 * image.width,
            (90.0 - p.lat * 1e-6) / 180.0 * image.height};
}

// How much of each pixel a set of shapes covers, in [0, 1]; shapes of one colour share a
// mask, so that overlapping segments of one river do not darken where they join.
class Coverage {
public:
    explicit Coverage(const Image& image)
        : width_(image.width)
        , height_(image.height)
        , value_(std::size_t{image.width} * image.height, 0.f) {}

    // A segment with round ends, `width` pixels across, anti-aliased over one pixel.
    void segment(Pixel_point a, Pixel_point b, double width) {
        const double r = 0.5 * width;
        const auto lo_x = static_cast<long>(std::floor(std::min(a.x, b.x) - r - 1));
        const auto hi_x = static_cast<long>(std::ceil(std::max(a.x, b.x) + r + 1));
        const auto lo_y = static_cast<long>(std::floor(std::min(a.y, b.y) - r - 1));
        const auto hi_y = static_cast<long>(std::ceil(std::max(a.y, b.y) + r + 1));
        const double dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy;
        for (long y = std::max(0L, lo_y); y <= std::min<long>(height_ - 1, hi_y); ++y)
            for (long x = std::max(0L, lo_x); x <= std::min<long>(width_ - 1, hi_x); ++x) {
                const double px = x + 0.5 - a.x, py = y + 0.5 - a.y;
                const double t =
                    length2 > 0.0 ? std::clamp((px * dx + py * dy) / length2, 0.0, 1.0) : 0.0;
                const double d = std::hypot(px - t * dx, py - t * dy);
                // A line thinner than a pixel is drawn one pixel wide, fainter.
                const double c =
                    std::clamp(std::max(r, 0.5) + 0.5 - d, 0.0, 1.0) * std::min(1.0, width);
                float& v =
                    value_[static_cast<std::size_t>(y) * width_ + static_cast<std::size_t>(x)];
                v = std::max(v, static_cast<float>(c));
            }
    }

    // Every pixel whose centre lies inside the polygon (even-odd over its rings).
    void polygon(const Geo_polygon& polygon, const Image& image) {
        double top = INFINITY, bottom = -INFINITY;
        for (const Geo_ring& ring : polygon)
            for (const Lon_lat p : ring) {
                const double y = to_pixel(p, image).y;
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
        std::vector<double> crossings;
        const auto first = static_cast<long>(std::max(0.0, std::floor(top - 0.5)));
        const auto last = static_cast<long>(std::min<double>(height_ - 1, std::ceil(bottom)));
        for (long y = first; y <= last; ++y) {
            const double cy = y + 0.5;
            crossings.clear();
            for (const Geo_ring& ring : polygon)
                for (std::size_t i = 0; i + 1 < ring.size(); ++i) {
                    const Pixel_point a = to_pixel(ring[i], image),
                                      b = to_pixel(ring[i + 1], image);
                    if ((a.y > cy) == (b.y > cy)) continue;
                    crossings.push_back(a.x + (cy - a.y) * (b.x - a.x) / (b.y - a.y));
                }
            std::sort(crossings.begin(), crossings.end());
            for (std::size_t k = 0; k + 1 < crossings.size(); k += 2) {
                const auto from = static_cast<long>(std::max(0.0, std::ceil(crossings[k] - 0.5)));
                const auto to = static_cast<long>(
                    std::min<double>(width_ - 1, std::ceil(crossings[k + 1] - 0.5) - 1));
                for (long x = from; x <= to; ++x)
                    value_[static_cast<std::size_t>(y) * width_ + static_cast<std::size_t>(x)] =
                        1.f;
            }
        }
    }

    // Blends `colour` over the image by the coverage.
    void paint(Image& image, Srgb8 colour) const {
        for (std::uint32_t y = 0; y < height_; ++y)
            for (std::uint32_t x = 0; x < width_; ++x) {
                const float c = value_[std::size_t{y} * width_ + x];
                if (c <= 0.f) continue;
                const Srgb8 old = image.at(x, y);
                const auto mix = [c](std::uint8_t a, std::uint8_t b) {
                    return static_cast<std::uint8_t>(std::lround(a + (b - a) * double(c)));
                };
                image.set(x, y, {mix(old.r, colour.r), mix(old.g, colour.g), mix(old.b, colour.b)});
            }
    }

private:
    std::uint32_t width_, height_;
    std::vector<float> value_;
};

// True for a segment along the map's border: the cut along the antimeridian or the closure at
// a pole, not a coast.
bool on_border(Lon_lat a, Lon_lat b) {
    constexpr std::int32_t lon_max = 180'000'000, lat_max = 90'000'000;
    return (a.lon == b.lon && std::abs(a.lon) == lon_max) ||
           (a.lat == b.lat && std::abs(a.lat) == lat_max);
}

} // namespace

void draw_water(Image& image, const World& world, const Water_overlay& o) {
    if (image.width == 0 || image.height == 0)
        throw std::invalid_argument("draw_water: the image is empty");
    if (!(std::isfinite(o.river_width) && o.river_width >= 0.0))
        throw std::invalid_argument("draw_water: the river width " + std::to_string(o.river_width) +
                                    " is not finite and >= 0");
    const double base =
        o.river_width > 0.0 ? o.river_width : std::max(1.0, 1.25 * image.width / 2048.0);
    if (o.rivers) {
        const double threshold = river_threshold(world, o.river_selection);
        auto rivers = river_features(world, threshold);
        Coverage cover(image);
        for (const River& r : rivers) {
            const double width =
                base * std::min(6.0, std::pow(r.discharge / std::max(threshold, 1e-30), 0.25));
            for (const Geo_line& part : r.geometry)
                for (std::size_t i = 0; i + 1 < part.size(); ++i)
                    cover.segment(to_pixel(part[i], image), to_pixel(part[i + 1], image), width);
        }
        cover.paint(image, o.river_colour);
    }
    if (o.lakes) {
        // Filled, with a thin shore in the rivers' colour so that lakes stand out on colour
        // maps with blues of their own.
        Coverage fill(image), shore(image);
        for (const Lake& lake : lake_features(world))
            for (const Geo_polygon& polygon : lake.geometry) {
                fill.polygon(polygon, image);
                for (const Geo_ring& ring : polygon)
                    for (std::size_t i = 0; i + 1 < ring.size(); ++i)
                        if (!on_border(ring[i], ring[i + 1]))
                            shore.segment(to_pixel(ring[i], image), to_pixel(ring[i + 1], image),
                                          0.6 * base);
            }
        fill.paint(image, o.lake_colour);
        shore.paint(image, o.river_colour);
    }
    if (o.coastlines) {
        Coverage cover(image);
        for (const Land_mass& land : land_features(world))
            for (const Geo_polygon& polygon : land.geometry)
                for (const Geo_ring& ring : polygon)
                    for (std::size_t i = 0; i + 1 < ring.size(); ++i)
                        if (!on_border(ring[i], ring[i + 1]))
                            cover.segment(to_pixel(ring[i], image), to_pixel(ring[i + 1], image),
                                          0.8 * base);
        cover.paint(image, o.coast_colour);
    }
}

Map_options default_map_options(const World& world, std::string_view layer) {
    const Layer_base* base = world.find_layer(layer);
    if (!base) throw std::invalid_argument("no layer '" + std::string(layer) + "'");
    const Value_type tag = base->value_tag();
    const bool integer =
        tag == Value_type::int32 || tag == Value_type::uint32 || tag == Value_type::int64;
    Map_options options;
    options.hints = world.hints(layer);
    options.colour_map = default_colour_map(options.hints, integer);
    if (options.hints && options.hints->min && options.hints->max)
        options.range = Value_range{*options.hints->min, *options.hints->max};
    const Dict* terrain = world.layer(std::string_view("terrain"));
    const Dict_value* sea = terrain ? terrain->find("sea_level") : nullptr;
    options.sea_level = sea && sea->is<double>() ? sea->as<double>() : 0.0;
    options.hillshade = options.colour_map == Colour_map_kind::terrain;
    return options;
}

Map_options fixed_map_options(const World& world, std::string_view layer) {
    Map_options options = default_map_options(world, layer);
    if (options.range || options.colour_map == Colour_map_kind::terrain ||
        options.colour_map == Colour_map_kind::categorical)
        return options;
    const Layer_base& base = *world.find_layer(layer);
    options.range = with_value_type(base.value_tag(), [&]<class T>() -> std::optional<Value_range> {
        if constexpr (Layer_scalar<T>) {
            if (const auto* values = dynamic_cast<const Layer<T, Layer_type::vertex>*>(&base)) {
                double lo = INFINITY, hi = -INFINITY;
                for (const Vertex v : world.mesh().vertices()) {
                    const double x = static_cast<double>((*values)[v]);
                    if (!std::isfinite(x)) continue;
                    lo = std::min(lo, x);
                    hi = std::max(hi, x);
                }
                if (lo <= hi) return Value_range{lo, std::max(hi, lo + 1e-9)};
            }
        }
        return std::nullopt;
    });
    return options;
}

} // namespace orbis::io
