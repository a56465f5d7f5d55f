// SPDX-License-Identifier: MIT
// The viewport's camera around a planet centred at the origin: arcball, zoom to cursor, pan.
#include "orbis/render/camera.hpp"

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace orbis::render {

namespace {

constexpr double min_distance = 1.02; // radii from the centre
constexpr double max_distance = 20.0;

// The point of the arcball sphere under viewport point `p` (Shoemake): inside the inscribed
// circle on the front hemisphere, outside it on the rim.
glm::dvec3 arcball_point(glm::dvec2 p, int width, int height) {
    const double s = 0.5 * std::min(width, height);
    const glm::dvec2 q{(p.x - 0.5 * width) / s, (0.5 * height - p.y) / s};
    const double r2 = glm::dot(q, q);
    if (r2 <= 1.0) return {q.x, q.y, std::sqrt(1.0 - r2)};
    const double r = std::sqrt(r2);
    return {q.x / r, q.y / r, 0.0};
}

// The nearest intersection of `ray` with the sphere of `radius` at the origin, if any.
bool hit_sphere(const Ray& ray, double radius, glm::dvec3& out) {
    const glm::dvec3 d = glm::normalize(ray.direction);
    const double b = glm::dot(ray.origin, d);
    const double c = glm::dot(ray.origin, ray.origin) - radius * radius;
    const double disc = b * b - c;
    if (disc < 0.0) return false;
    const double t = -b - std::sqrt(disc);
    if (t < 0.0) return false;
    out = ray.origin + t * d;
    return true;
}

} // namespace

void Camera::set_viewport(int width, int height) {
    width_ = std::max(width, 1);
    height_ = std::max(height, 1);
}

void Camera::set_radius(double radius) {
    if (!(radius > 0.0) || !std::isfinite(radius)) return;
    eye_ *= radius / radius_;
    radius_ = radius;
}

void Camera::reset() {
    // Far enough that the sphere fits the narrower side of the viewport with a margin.
    const double half_vertical = 0.5 * fov_;
    const double half_horizontal = std::atan(std::tan(half_vertical) * width_ / height_);
    const double half = std::min(half_vertical, half_horizontal);
    eye_ = {0.0, 0.0, distance_limit(1.1 * radius_ / std::sin(half))};
    orientation_ = glm::dquat(1.0, 0.0, 0.0, 0.0);
}

double Camera::distance_limit(double d) const {
    return std::clamp(d, min_distance * radius_, max_distance * radius_);
}

void Camera::rotate(glm::dvec2 from, glm::dvec2 to) {
    const glm::dvec3 a = arcball_point(from, width_, height_);
    const glm::dvec3 b = arcball_point(to, width_, height_);
    const glm::dvec3 axis = glm::cross(a, b);
    const double length = glm::length(axis);
    if (length < 1e-12) return;
    // Near the surface a full arcball turn would fling the planet past; scale by the height
    // above the surface so that the point under the cursor moves about as fast as the cursor.
    const double height = glm::length(eye_) / radius_ - 1.0;
    const double speed = std::clamp(height / 2.0, 0.02, 1.0);
    const double angle = std::atan2(length, glm::dot(a, b)) * speed;
    // The planet turns by `angle` about `axis` in camera space; the camera turns the other way.
    const glm::dvec3 world_axis = orientation_ * (axis / length);
    const glm::dquat turn = glm::angleAxis(-angle, world_axis);
    eye_ = turn * eye_;
    orientation_ = glm::normalize(turn * orientation_);
}

void Camera::zoom_at(glm::dvec2 at, double factor) {
    if (!(factor > 0.0) || !std::isfinite(factor) || factor == 1.0) return;
    glm::dvec3 target{0.0};
    hit_sphere(ray_at(at), radius_, target);
    const glm::dvec3 step = (target - eye_) * (1.0 - 1.0 / factor);
    glm::dvec3 eye = eye_ + step;
    const double lo = min_distance * radius_;
    if (glm::length(eye) < lo) {
        // Stop where the line from the eye to the target meets the nearest allowed distance.
        const glm::dvec3 d = step;
        const double a = glm::dot(d, d);
        if (!(a > 0.0)) return;
        const double b = glm::dot(eye_, d);
        const double c = glm::dot(eye_, eye_) - lo * lo;
        const double disc = std::max(b * b - a * c, 0.0);
        const double s = std::clamp((-b - std::sqrt(disc)) / a, 0.0, 1.0);
        eye = eye_ + s * d;
    }
    const double length = glm::length(eye);
    if (length > 0.0) eye *= distance_limit(length) / length;
    eye_ = eye;
}

void Camera::look_at(const glm::dvec3& p) {
    const double lp = glm::length(p), le = glm::length(eye_);
    if (!(lp > 0.0) || !(le > 0.0)) return;
    const glm::dvec3 from = eye_ / le, to = p / lp;
    // The shortest turn from `from` to `to`; half way round, about any perpendicular axis.
    const double w = 1.0 + glm::dot(from, to);
    glm::dquat turn;
    if (w < 1e-12) {
        const glm::dvec3 axis = std::abs(from.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
        turn = glm::angleAxis(M_PI, glm::normalize(glm::cross(from, axis)));
    } else {
        const glm::dvec3 c = glm::cross(from, to);
        turn = glm::normalize(glm::dquat(w, c.x, c.y, c.z));
    }
    eye_ = to * le;
    orientation_ = glm::normalize(turn * orientation_);
}

void Camera::pan(glm::dvec2 delta) {
    const double depth = std::max(glm::length(eye_) - radius_, 0.01 * radius_);
    const double per_pixel = 2.0 * depth * std::tan(0.5 * fov_) / height_;
    const glm::dvec3 right = orientation_ * glm::dvec3(1.0, 0.0, 0.0);
    const glm::dvec3 up = orientation_ * glm::dvec3(0.0, 1.0, 0.0);
    glm::dvec3 eye = eye_ - right * (delta.x * per_pixel) + up * (delta.y * per_pixel);
    eye *= distance_limit(glm::length(eye)) / glm::length(eye);
    eye_ = eye;
}

glm::dmat4 Camera::view() const {
    return glm::mat4_cast(glm::conjugate(orientation_)) * glm::translate(glm::dmat4(1.0), -eye_);
}

glm::dmat4 Camera::projection() const {
    const double d = glm::length(eye_);
    const double near = std::max(d - 1.5 * radius_, 1e-3 * radius_);
    const double far = d + 1.5 * radius_;
    return glm::perspective(fov_, double(width_) / height_, near, far);
}

Ray Camera::ray_at(glm::dvec2 at) const {
    const double t = std::tan(0.5 * fov_);
    const double x = (2.0 * at.x / width_ - 1.0) * t * width_ / height_;
    const double y = (1.0 - 2.0 * at.y / height_) * t;
    return {eye_, orientation_ * glm::dvec3(x, y, -1.0)};
}

glm::dvec3 Camera::project(const glm::dvec3& p) const {
    const glm::dvec4 clip = projection() * view() * glm::dvec4(p, 1.0);
    const glm::dvec3 ndc = glm::dvec3(clip) / clip.w;
    return {(ndc.x + 1.0) * 0.5 * width_, (1.0 - ndc.y) * 0.5 * height_, (ndc.z + 1.0) * 0.5};
}

} // namespace orbis::render
