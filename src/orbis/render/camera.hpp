// SPDX-License-Identifier: MIT
// The viewport's camera around a planet centred at the origin: arcball, zoom to cursor, pan.
#pragma once

#include "orbis/render/picking.hpp"

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace orbis::render {

/// A perspective camera looking at a sphere of a given radius centred at the origin.
///
/// The camera is an eye position and an orientation. Rotation turns the eye around the origin
/// (the planet seems to turn under the mouse), zoom moves the eye towards the point under the
/// cursor (which stays under the cursor), pan moves it sideways. The eye never goes nearer the
/// centre than 1.02 radii or farther than 20 radii, so it stays outside the planet, as the
/// picker requires. Pixels are counted from the top left corner of the viewport.
class Camera {
public:
    /// A camera for a 1 x 1 viewport looking at the unit sphere from +z (see reset).
    Camera() { reset(); }

    /// Sets the viewport size in pixels (at least 1 x 1).
    void set_viewport(int width, int height);
    /// The viewport width in pixels.
    int width() const { return width_; }
    /// The viewport height in pixels.
    int height() const { return height_; }

    /// Sets the radius of the planet the camera is kept outside of and frames. Keeps the
    /// direction of the eye and its distance in radii.
    void set_radius(double radius);
    /// The planet's radius.
    double radius() const { return radius_; }

    /// Looks at the planet from +z with +y up, from where the whole sphere fits the viewport's
    /// narrower side with a 10% margin.
    void reset();

    /// Turns the view as if the cursor dragged the planet from pixel `from` to pixel `to`
    /// (Shoemake's arcball over the viewport's inscribed circle).
    void rotate(glm::dvec2 from, glm::dvec2 to);
    /// Moves the eye `factor` times nearer (factor > 1) or farther (< 1) towards the point of
    /// the planet under pixel `at` (the viewport centre's direction when the pixel misses it),
    /// keeping that point under the cursor unless the distance limits stop the move.
    void zoom_at(glm::dvec2 at, double factor);
    /// Turns the eye around the centre until point `p` is straight ahead, keeping the
    /// distance (the shortest turn, so the view's up stays close to what it was).
    void look_at(const glm::dvec3& p);
    /// Moves the eye sideways so that the surface in front follows a cursor move of `delta`
    /// pixels.
    void pan(glm::dvec2 delta);

    /// The eye position.
    glm::dvec3 eye() const { return eye_; }
    /// The eye's orientation: camera axes (right, up, backwards) in world space.
    glm::dquat orientation() const { return orientation_; }
    /// World to camera space.
    glm::dmat4 view() const;
    /// Camera to clip space; near and far planes enclose the planet up to 1.5 radii.
    glm::dmat4 projection() const;
    /// The ray from the eye through viewport point `at` (continuous: pixel i spans [i, i + 1),
    /// its centre is i + 0.5).
    Ray ray_at(glm::dvec2 at) const;
    /// The viewport point (continuous, as ray_at) where world point `p` appears, and its depth
    /// in [0, 1] as z; z outside [0, 1] means the point is outside the near/far range.
    glm::dvec3 project(const glm::dvec3& p) const;
    /// The vertical field of view in radians.
    double field_of_view() const { return fov_; }

private:
    double distance_limit(double d) const;

    int width_ = 1;
    int height_ = 1;
    double radius_ = 1.0;
    double fov_ = 0.6; // about 34 degrees
    glm::dvec3 eye_{0.0, 0.0, 3.0};
    glm::dquat orientation_{1.0, 0.0, 0.0, 0.0};
};

} // namespace orbis::render
