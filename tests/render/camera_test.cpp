// SPDX-License-Identifier: MIT
// Tests of the viewport camera: rays and projection agree, zoom keeps the point under the
// cursor, the eye stays outside the planet, the reset view shows the whole sphere.
#include "orbis/render/camera.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <cmath>
#include <random>

namespace orbis::render {
namespace {

// Where the ray through `at` meets the sphere of `radius`, if it does.
std::optional<glm::dvec3> hit(const Camera& c, glm::dvec2 at, double radius) {
    const Ray r = c.ray_at(at);
    const glm::dvec3 d = glm::normalize(r.direction);
    const double b = glm::dot(r.origin, d);
    const double disc = b * b - (glm::dot(r.origin, r.origin) - radius * radius);
    if (disc < 0.0) return std::nullopt;
    return r.origin + (-b - std::sqrt(disc)) * d;
}

Camera camera(double radius = 6371.0) {
    Camera c;
    c.set_viewport(800, 600);
    c.set_radius(radius);
    c.reset();
    return c;
}

TEST(Camera, ProjectInvertsRayAt) {
    Camera c = camera();
    c.rotate({300, 300}, {420, 260});
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> x(0, 800), y(0, 600);
    for (int i = 0; i < 200; ++i) {
        const glm::dvec2 at{x(rng), y(rng)};
        const Ray r = c.ray_at(at);
        const glm::dvec3 p = r.origin + glm::length(c.eye()) * glm::normalize(r.direction);
        const glm::dvec3 back = c.project(p);
        EXPECT_NEAR(back.x, at.x, 1e-6);
        EXPECT_NEAR(back.y, at.y, 1e-6);
        EXPECT_GT(back.z, 0.0);
        EXPECT_LT(back.z, 1.0);
    }
}

TEST(Camera, ResetShowsTheWholeSphereWithAMargin) {
    for (const auto& [w, h] : {std::pair{800, 600}, std::pair{400, 900}}) {
        Camera c;
        c.set_viewport(w, h);
        c.set_radius(2.0);
        c.reset();
        // The centre hits, the four edge midpoints miss; the view looks down -z with +y up.
        EXPECT_TRUE(hit(c, {w / 2.0, h / 2.0}, 2.0));
        EXPECT_FALSE(hit(c, {0.5, h / 2.0}, 2.0));
        EXPECT_FALSE(hit(c, {w - 0.5, h / 2.0}, 2.0));
        EXPECT_FALSE(hit(c, {w / 2.0, 0.5}, 2.0));
        EXPECT_FALSE(hit(c, {w / 2.0, h - 0.5}, 2.0));
        EXPECT_LT(c.project({0.0, 1.0, 0.0}).y, h / 2.0) << "+y must be up";
        // But the sphere fills most of the narrower side.
        EXPECT_TRUE(hit(c, {w / 2.0, h / 2.0 + 0.4 * std::min(w, h)}, 2.0));
    }
}

TEST(Camera, ZoomKeepsThePointUnderTheCursor) {
    Camera c = camera();
    const glm::dvec2 at{520, 210};
    const auto before = hit(c, at, c.radius());
    ASSERT_TRUE(before);
    for (int i = 0; i < 5; ++i) {
        c.zoom_at(at, 1.3);
        const glm::dvec3 p = c.project(*before);
        EXPECT_NEAR(p.x, at.x, 1e-6);
        EXPECT_NEAR(p.y, at.y, 1e-6);
    }
    // Zooming out again keeps it too, until the far limit.
    c.zoom_at(at, 1.0 / 1.3);
    const glm::dvec3 p = c.project(*before);
    EXPECT_NEAR(p.x, at.x, 1e-6);
}

TEST(Camera, EyeStaysOutsideAndWithinLimits) {
    Camera c = camera(10.0);
    for (int i = 0; i < 200; ++i)
        c.zoom_at({400, 300}, 2.0);
    EXPECT_GE(glm::length(c.eye()), 10.0 * 1.02 - 1e-9);
    for (int i = 0; i < 200; ++i)
        c.zoom_at({400, 300}, 0.5);
    EXPECT_LE(glm::length(c.eye()), 10.0 * 20.0 + 1e-9);
    for (int i = 0; i < 50; ++i)
        c.pan({300, -200});
    EXPECT_GE(glm::length(c.eye()), 10.0 * 1.02 - 1e-9);
    EXPECT_LE(glm::length(c.eye()), 10.0 * 20.0 + 1e-9);
}

TEST(Camera, RotationTurnsAroundTheCentreAndKeepsDistance) {
    Camera c = camera();
    const double d = glm::length(c.eye());
    const glm::dvec3 centre_point = *hit(c, {400, 300}, c.radius());
    c.rotate({400, 300}, {500, 300});
    EXPECT_NEAR(glm::length(c.eye()), d, 1e-6 * d);
    // Dragging right turns the planet right: the point that was in the middle moves right.
    EXPECT_GT(c.project(centre_point).x, 400.0);
    EXPECT_NEAR(c.project(centre_point).y, 300.0, 1e-6);
    // The view still looks at the centre.
    EXPECT_NEAR(c.project({0.0, 0.0, 0.0}).x, 400.0, 1e-6);
}

TEST(Camera, RadiusChangeKeepsTheFraming) {
    Camera c = camera(1.0);
    c.rotate({100, 100}, {200, 150});
    const glm::dvec3 dir = glm::normalize(c.eye());
    const double radii = glm::length(c.eye());
    c.set_radius(6371.0);
    EXPECT_NEAR(glm::length(c.eye()) / 6371.0, radii, 1e-9);
    EXPECT_NEAR(glm::dot(glm::normalize(c.eye()), dir), 1.0, 1e-12);
}

} // namespace
} // namespace orbis::render
