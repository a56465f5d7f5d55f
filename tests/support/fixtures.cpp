// SPDX-License-Identifier: MIT
#include "support/fixtures.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace orbis::test {

Shape tetrahedron() { return {"tetrahedron", 4, {{0, 1, 2}, {0, 2, 3}, {0, 3, 1}, {1, 3, 2}}, 2}; }

Shape octahedron() {
    // 0 = +x, 1 = -x, 2 = +y, 3 = -y, 4 = +z, 5 = -z; counterclockwise seen from outside.
    return {
        "octahedron",
        6,
        {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}},
        2};
}

Shape icosphere(int level) {
    Shape s{"icosphere" + std::to_string(level), 12, {}, 2};
    s.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                   {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                   {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                   {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    for (int l = 0; l < level; ++l) {
        std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> mid;
        auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
            auto key = std::minmax(a, b);
            auto [it, added] = mid.try_emplace({key.first, key.second}, s.vertex_count);
            if (added) ++s.vertex_count;
            return it->second;
        };
        std::vector<Triangle> next;
        for (const auto& t : s.triangles) {
            const auto ab = midpoint(t[0], t[1]), bc = midpoint(t[1], t[2]),
                       ca = midpoint(t[2], t[0]);
            next.push_back({t[0], ab, ca});
            next.push_back({t[1], bc, ab});
            next.push_back({t[2], ca, bc});
            next.push_back({ab, bc, ca});
        }
        s.triangles = std::move(next);
    }
    return s;
}

Shape torus(int n, int m) {
    Shape s{"torus" + std::to_string(n) + "x" + std::to_string(m),
            static_cast<std::uint32_t>(n * m),
            {},
            0};
    auto id = [&](int i, int j) { return static_cast<std::uint32_t>((i % n) * m + (j % m)); };
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) {
            s.triangles.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
            s.triangles.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
        }
    return s;
}

Shape disc(int rings) {
    // Hexagonal rings around a centre: ring k has 6k vertices.
    Shape s{"disc" + std::to_string(rings), 1, {}, 1};
    std::vector<std::uint32_t> ring_start{0};
    for (int k = 1; k <= rings; ++k) {
        ring_start.push_back(s.vertex_count);
        s.vertex_count += static_cast<std::uint32_t>(6 * k);
    }
    auto vertex = [&](int k, int i) -> std::uint32_t {
        if (k == 0) return 0;
        const int count = 6 * k;
        return ring_start[k] + static_cast<std::uint32_t>(((i % count) + count) % count);
    };
    for (int k = 1; k <= rings; ++k) {
        // Walk the 6 sides of ring k; side j has k outer vertices, k-1 inner ones.
        for (int side = 0; side < 6; ++side) {
            for (int i = 0; i < k; ++i) {
                const int outer = side * k + i;
                const int inner = side * (k - 1) + i;
                s.triangles.push_back(
                    {vertex(k - 1, inner), vertex(k, outer), vertex(k, outer + 1)});
                if (i < k - 1)
                    s.triangles.push_back(
                        {vertex(k - 1, inner), vertex(k, outer + 1), vertex(k - 1, inner + 1)});
            }
        }
    }
    return s;
}

std::vector<Triangle> shuffled(const std::vector<Triangle>& triangles, std::mt19937_64& rng) {
    auto out = triangles;
    std::shuffle(out.begin(), out.end(), rng);
    for (auto& t : out)
        std::rotate(t.begin(), t.begin() + rng() % 3, t.end());
    return out;
}

Mesh build(const Shape& shape, const std::vector<Triangle>& order) {
    Mesh m;
    m.add_vertices(shape.vertex_count);
    if (const auto refused = add_faces(m, order); !refused.empty())
        throw Edit_refused(refused.front().refusal);
    return m;
}

Mesh build(const Shape& shape) { return build(shape, shape.triangles); }

int euler_characteristic(const Mesh& m) {
    return static_cast<int>(m.vertex_count()) - static_cast<int>(m.edge_count()) +
           static_cast<int>(m.face_count());
}

std::vector<Point> octahedron_positions() {
    return {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
}

std::vector<Point> disc_positions(int rings) {
    // Ring k, vertex i lies on side i / k of the hexagon of radius k, i % k steps along it.
    const double pi = std::acos(-1.0);
    auto corner = [&](int side, double r) {
        const double a = pi / 3 * side;
        return Point{r * std::cos(a), r * std::sin(a), 0};
    };
    std::vector<Point> out{{0, 0, 0}};
    for (int k = 1; k <= rings; ++k)
        for (int i = 0; i < 6 * k; ++i) {
            const int side = i / k, step = i % k;
            const Point p = corner(side, k), q = corner(side + 1, k);
            const double f = double(step) / k;
            out.push_back({p[0] + f * (q[0] - p[0]), p[1] + f * (q[1] - p[1]), 0});
        }
    return out;
}

std::vector<std::uint32_t> twin_half_edges(const std::vector<Triangle>& triangles) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> half;
    for (std::uint32_t h = 0; h < 3 * triangles.size(); ++h)
        half[{triangles[h / 3][h % 3], triangles[h / 3][(h + 1) % 3]}] = h;
    std::vector<std::uint32_t> twin(3 * triangles.size(), UINT32_MAX);
    for (std::uint32_t h = 0; h < twin.size(); ++h) {
        const auto it = half.find({triangles[h / 3][(h + 1) % 3], triangles[h / 3][h % 3]});
        if (it != half.end()) twin[h] = it->second;
    }
    return twin;
}

Triangle canonical(Triangle t) {
    std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
    return t;
}

std::vector<Triangle> canonical_sorted(std::vector<Triangle> triangles) {
    for (auto& t : triangles)
        t = canonical(t);
    std::sort(triangles.begin(), triangles.end());
    return triangles;
}

Triangle corners(const Mesh& m, Face f) {
    const Edge e = f.edge(m);
    const Edge n = e.left_next(m);
    return {e.origin(m).index(), n.origin(m).index(), n.dest(m).index()};
}

std::vector<Triangle> face_corners(const Mesh& m) {
    std::vector<Triangle> out;
    for (const Face f : m.faces())
        out.push_back(corners(m, f));
    return canonical_sorted(std::move(out));
}

} // namespace orbis::test
