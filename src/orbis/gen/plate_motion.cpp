// SPDX-License-Identifier: MIT
#include "orbis/gen/plate_motion.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/collapse_check.hpp"
#include "orbis/gen/delaunay_module.hpp"
#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/scratch_buffer.hpp"
#include "orbis/gen/sphere_predicates.hpp"
#include "orbis/gen/tectonics_module.hpp"

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace orbis::gen {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Rotation by `angle` radians counterclockwise about the unit `axis` (Rodrigues).
glm::dmat3 rotation(const glm::dvec3& axis, double angle) {
    const double c = std::cos(angle), s = std::sin(angle), k = 1 - c;
    const double x = axis.x, y = axis.y, z = axis.z;
    return glm::dmat3(glm::dvec3(c + x * x * k, y * x * k + z * s, z * x * k - y * s),
                      glm::dvec3(x * y * k - z * s, c + y * y * k, z * y * k + x * s),
                      glm::dvec3(x * z * k + y * s, y * z * k - x * s, c + z * z * k));
}

constexpr float unknown = std::numeric_limits<float>::quiet_NaN();

// Limits of the repairs, in units of the local spacing (the mean length of a vertex's edges to
// its own plate, which rigid motion keeps).
constexpr double max_move = 0.75;      // relative motion across a boundary per sub-step
constexpr double collapse_below = 0.5; // converging edges shorter than this lose a vertex
constexpr double closing_share = 0.5;  // of relative speed along a converging edge
constexpr double parting_share = 0.25; // of the relative speed, parting, that makes a ridge
constexpr int parting_reach = 12;      // faces along a boundary each way that judge a ridge
// Diverging edges longer than this are split. Ridges make new ocean floor a little denser or
// sparser than trenches consume, depending on the boundaries' shapes, so the threshold leans
// against any drift of the vertex count from its target.
constexpr double split_above = 1.75;
constexpr double longest = 2.5; // any edge across a boundary longer than this times the
                                // target spacing is split
constexpr std::int32_t max_substeps = 2000;
// Relative motion across a boundary between two repair checks of a vertex, in units of its
// spacing (flips are checked at every sub-step).
constexpr double check_move = 0.375;

// One step of motion. Positions live in two forms: p0_, where each vertex was at the start of the
// step (or, for a vertex made during it, where it would have been), and p_, the position at the
// current sub-step, computed on demand (stamp_) by rotating p0_ with its plate. A plate is rigid,
// so only vertices next to a boundary ever need their current position, and a step costs what
// its boundaries hold rather than what the world holds.
class Mover {
public:
    Mover(World& world, std::span<const Plate> plates, const Motion_settings& settings)
        : world_(world)
        , plates_(plates)
        , dt_(settings.dt)
        , radius_(settings.radius)
        , spacing_(settings.spacing) {
        const double ratio = settings.target_vertices > 0
                                 ? double(world.mesh().vertex_count()) / settings.target_vertices
                                 : 1.0;
        split_above_ = split_above * std::clamp(std::pow(ratio, 4.0), 0.75, 1.35);
    }

    Plate_motion run();

private:
    void load();
    void grow(std::uint32_t slots);
    const glm::vec3& at(std::uint32_t i) {
        if (stamp_[i] != substep_) place(i, glm::vec3(turn_[std::size_t(plate_[i])] * p0_[i]));
        return p_[i];
    }
    // The unit direction of at(i), as the in-circle filter wants it.
    const glm::dvec3& unit(std::uint32_t i) {
        at(i);
        return u_[i];
    }
    void place(std::uint32_t i, const glm::vec3& p) {
        p_[i] = p;
        u_[i] = unit_direction(p);
        stamp_[i] = substep_;
    }
    glm::vec3 at(Vertex v) { return at(v.index()); }
    float rest(std::uint32_t i);
    bool cross(std::uint32_t a, std::uint32_t b) const { return plate_[a] != plate_[b]; }
    bool due(std::uint32_t v) const;
    std::int32_t check_after(double soonest) const;
    void set_turns(std::int32_t substep);
    std::int32_t count_substeps();
    void find_boundary();
    void queue(Edge e);
    void seed_edges_around(std::uint32_t v);
    void seed_boundary_quads();
    void seed_edited();
    void flip_boundary(bool thorough = false);
    bool remove_vertex(std::uint32_t s, std::uint32_t o, bool untangling = false);
    bool still_folded(std::uint32_t a, std::uint32_t b, std::uint32_t c);
    bool split_folds(Edge e, const glm::vec3& mid);
    bool parts(Edge e, const glm::dvec3& relative);
    bool relocate(std::uint32_t v);
    std::pair<int, int> folds_around(Edge e);
    void touch(Vertex v);
    std::uint32_t going_under(std::uint32_t u, std::uint32_t v) const;
    void repair_edges();
    void untangle();
    void update_boundary();
    void finish();

    World& world_;
    std::span<const Plate> plates_;
    double dt_, radius_, spacing_;
    double split_above_ = split_above;
    std::optional<Mesh_lock> lock_;

    std::vector<glm::dvec3> omega_; // angular velocity of each plate, rad/My
    std::vector<glm::dmat3> turn_;  // each plate's rotation at the current sub-step
    // Sub-step numbers fit 32 bits (at most max_substeps): the per-vertex stamps below are half
    // the memory a step allocates and reads at random.
    std::int32_t substep_ = 0, substeps_ = 1;
    double h_ = 0; // My per sub-step

    std::vector<std::int32_t> plate_;
    std::vector<std::uint8_t> continental_;
    std::vector<float> age_;
    std::vector<glm::dvec3> p0_;
    Scratch_vector<glm::vec3> p_; // valid where stamp_ says so: touched near boundaries only
    Scratch_vector<glm::dvec3> u_;
    std::vector<std::int32_t> stamp_;
    std::vector<float> rest_;
    std::vector<std::int32_t> born_;         // sub-step a ridge split made the vertex, or -1
    std::vector<std::uint8_t> in_boundary_;  // listed in boundary_
    std::vector<std::uint8_t> touched_flag_; // listed in touched_
    // The sub-step at which untangle() last found no folded face around the vertex; touch()
    // clears it, since only an edit next to a vertex changes its faces within a sub-step.
    std::vector<std::int32_t> unfolded_;
    // The sub-step at which repair_edges() next judges a boundary vertex's edges (0: now). The
    // fastest boundary sets the sub-step; slower ones, and edges far from their repair lengths,
    // need fewer checks.
    std::vector<std::int32_t> next_check_;
    std::vector<std::int32_t> checked_; // the sub-step repair_edges() last judged the vertex
    std::vector<std::uint32_t> boundary_, touched_;
    // Vertices an edit touched that then had no neighbour on another plate (repeats allowed):
    // untangle() watches the boundary only, so finish() looks for folds around these too.
    std::vector<std::uint32_t> inland_;
    // Boundary vertices untangle() must look at again: found with a folded face, or touched
    // since they were last found without one.
    std::vector<std::uint32_t> rescan_;
    std::vector<std::uint32_t> edited_; // the kept vertex of each collapse, the new one of a split
    std::vector<std::uint8_t> queued_;  // per quad-edge: waiting in stack_
    std::vector<Edge> stack_;
    std::int64_t split_parity_ = 0;
    bool untangle_even_ = false; // untangle() may collapse without fewer folds
    Plate_motion out_;
};

void Mover::grow(std::uint32_t slots) {
    if (slots <= plate_.size()) return;
    plate_.resize(slots, 0);
    continental_.resize(slots, 0);
    age_.resize(slots, 0.f);
    p0_.resize(slots);
    p_.resize(slots);
    u_.resize(slots);
    stamp_.resize(slots, -1);
    rest_.resize(slots, unknown);
    born_.resize(slots, -1);
    in_boundary_.resize(slots, 0);
    touched_flag_.resize(slots, 0);
    unfolded_.resize(slots, -1);
    next_check_.resize(slots, 0);
    checked_.resize(slots, -1);
}

void Mover::load() {
    const Mesh& m = world_.mesh();
    const std::uint32_t slots = m.vertex_slots();
    grow(slots);
    const auto* position = world_.layer(position_layer);
    const auto* plate_id = world_.layer(plate_id_layer);
    const auto* crust = world_.layer(crust_type_layer);
    const auto* age = world_.layer(crust_age_layer);
    if (!position || !plate_id)
        throw std::runtime_error("plate motion needs position and plate_id");
    for (const Vertex v : m.vertices()) {
        const std::uint32_t i = v.index();
        const std::int32_t p = (*plate_id)[v];
        if (p < 0 || std::size_t(p) >= plates_.size())
            throw std::runtime_error("vertex v" + std::to_string(i) + " has plate_id " +
                                     std::to_string(p) + ", outside [0, " +
                                     std::to_string(plates_.size()) + ")");
        plate_[i] = p;
        continental_[i] = crust ? std::uint8_t((*crust)[v] == std::int32_t(Crust::continental))
                                : std::uint8_t(plates_[std::size_t(p)].continental);
        age_[i] = age ? (*age)[v] : 0.f;
        p0_[i] = glm::dvec3((*position)[v]);
    }
    omega_.clear();
    for (const Plate& p : plates_)
        omega_.push_back(p.axis * p.angular_speed);
    turn_.assign(plates_.size(), glm::dmat3(1.0));
}

float Mover::rest(std::uint32_t i) {
    float& r = rest_[i];
    if (!std::isnan(r)) return r;
    const Mesh& m = **lock_;
    double own = 0;
    int n_own = 0;
    for (const Vertex n : Vertex(i).neighbors(m)) {
        if (cross(i, n.index())) continue;
        own += glm::distance(p0_[i], p0_[n.index()]);
        ++n_own;
    }
    double mean = spacing_;
    if (n_own > 0) {
        mean = own / n_own;
    } else {
        // p0_ of vertices on other plates are not comparable (they moved differently), but a
        // vertex without a neighbour on its plate needs some length: its current edges'.
        double all = 0;
        int n_all = 0;
        for (const Vertex n : Vertex(i).neighbors(m)) {
            all += glm::distance(glm::dvec3(at(i)), glm::dvec3(at(n.index())));
            ++n_all;
        }
        if (n_all > 0) mean = all / n_all;
    }
    // Bounded, so that one odd cell (a sliver left by a split) cannot ask for thousands of
    // sub-steps or stop all repairs around it.
    r = float(std::clamp(mean, 0.3 * spacing_, 2.0 * spacing_));
    return r;
}

void Mover::set_turns(std::int32_t substep) {
    substep_ = substep;
    const double t = h_ * double(substep);
    for (std::size_t k = 0; k < plates_.size(); ++k)
        turn_[k] = rotation(plates_[k].axis, plates_[k].angular_speed * t);
}

void Mover::find_boundary() {
    const Mesh& m = **lock_;
    boundary_.clear();
    std::fill(in_boundary_.begin(), in_boundary_.end(), 0);
    for (const Edge e : m.edges()) {
        const std::uint32_t a = e.origin(m).index(), b = e.dest(m).index();
        if (!cross(a, b)) continue;
        for (const std::uint32_t v : {a, b}) {
            if (in_boundary_[v]) continue;
            in_boundary_[v] = 1;
            boundary_.push_back(v);
        }
    }
    std::sort(boundary_.begin(), boundary_.end());
}

std::int32_t Mover::count_substeps() {
    const Mesh& m = **lock_;
    double most = 0;
    for (const std::uint32_t a : boundary_) {
        for (const Vertex n : Vertex(a).neighbors(m)) {
            const std::uint32_t b = n.index();
            if (!cross(a, b) || b < a) continue;
            const glm::dvec3 mid = (p0_[a] + p0_[b]) * 0.5;
            const double speed = glm::length(
                glm::cross(omega_[std::size_t(plate_[b])] - omega_[std::size_t(plate_[a])], mid));
            const double spacing = std::min(rest(a), rest(b));
            most = std::max(most, speed * dt_ / (max_move * spacing));
        }
    }
    return std::int32_t(std::clamp(std::ceil(most), 1.0, double(max_substeps)));
}

// Whether repair_edges() judges boundary vertex v at this sub-step: it schedules the next
// check as it judges, a touch() asks for one now, and every vertex is judged at the last one.
bool Mover::due(std::uint32_t v) const {
    return substep_ >= substeps_ || next_check_[v] <= substep_;
}

// The sub-step of the next check of a vertex whose edges across the boundary need no repair
// for `soonest` My. At least the next one.
std::int32_t Mover::check_after(double soonest) const {
    const double steps = std::floor(soonest / h_);
    return substep_ + (steps >= 1 ? std::int32_t(std::min(steps, double(substeps_))) : 1);
}

void Mover::queue(Edge e) {
    const Edge b = e.base();
    if (b.quad_index() >= queued_.size()) queued_.resize(b.quad_index() + 1, 0);
    if (queued_[b.quad_index()]) return;
    queued_[b.quad_index()] = 1;
    stack_.push_back(b);
}

void Mover::seed_edges_around(std::uint32_t v) {
    const Mesh& m = **lock_;
    if (!m.contains(Vertex(v))) return;
    for (const Edge e : Vertex(v).edges(m)) {
        queue(e);
        queue(e.left_next(m));
    }
}

// A collapse or a split changes only the faces around the vertex it keeps or makes, so the
// edges of those faces (its spokes and the ring opposite) are all it can make non-Delaunay.
void Mover::seed_edited() {
    for (const std::uint32_t v : edited_)
        seed_edges_around(v);
    edited_.clear();
}

// Every quad that spans two plates has an edge across the boundary on one of its faces, so the
// edges of the faces beside the boundary's edges are all that can stop being Delaunay.
void Mover::seed_boundary_quads() {
    const Mesh& m = **lock_;
    for (const std::uint32_t v : boundary_) {
        if (!m.contains(Vertex(v))) continue;
        for (const Edge e : Vertex(v).edges(m)) {
            const std::uint32_t w = e.dest(m).index();
            if (w < v || !cross(v, w)) continue;
            queue(e);
            queue(e.left_next(m));
            queue(e.left_prev(m));
            queue(e.sym().left_next(m));
            queue(e.sym().left_prev(m));
        }
    }
}

// Lawson flips on the queued edges whose quad spans two plates (a quad inside one plate moves
// rigidly and stays Delaunay, but around a vertex relocate() moved, where the final pass over
// every edge restores it), following every edge a flip makes suspect.
void Mover::flip_boundary(bool thorough) {
    std::int64_t budget = 64 * std::int64_t(stack_.size()) + 1024;
    while (!stack_.empty()) {
        const Edge e = stack_.back();
        stack_.pop_back();
        queued_[e.quad_index()] = 0;
        const Mesh& m = **lock_;
        if (!m.contains(e)) continue;
        if (!e.left(m).valid() || !e.right(m).valid()) continue;
        const std::uint32_t a = e.origin(m).index(), b = e.dest(m).index();
        const std::uint32_t c = e.left_next(m).dest(m).index();
        const std::uint32_t d = e.sym().left_next(m).dest(m).index();
        const std::int32_t pa = plate_[a];
        if (!thorough && plate_[b] == pa && plate_[c] == pa && plate_[d] == pa) continue;
        // Most boundary quads are plainly Delaunay: the in-circle filter on cached directions
        // says so without the orientation tests. Folded faces are untangle()'s business.
        if (!thorough &&
            detail::direction_orientation_filter(unit(a), unit(b), unit(c), unit(d)) < 0)
            continue;
        if (lawson_decision(at(a), at(b), at(c), at(d)) != Flip_decision::flip) continue;
        if (--budget < 0 || lock_->try_flip(e)) continue;
        ++out_.flips;
        for (const std::uint32_t v : {a, b, c, d}) {
            rest_[v] = unknown;
            touch(Vertex(v));
        }
        const Mesh& f = **lock_;
        for (const Edge n :
             {e.left_next(f), e.left_prev(f), e.sym().left_next(f), e.sym().left_prev(f)}) {
            const Edge nb = n.base();
            if (queued_[nb.quad_index()]) continue;
            queued_[nb.quad_index()] = 1;
            stack_.push_back(nb);
        }
    }
}

void Mover::touch(Vertex v) {
    const std::uint32_t i = v.index();
    unfolded_[i] = -1;
    next_check_[i] = 0;
    if (touched_flag_[i]) return;
    touched_flag_[i] = 1;
    touched_.push_back(i);
}

// Of the ends of a converging edge, the one that goes under: oceanic under continental, older
// oceanic under younger, and of two continents (a collision) the denser plate's; ties by plate id.
std::uint32_t Mover::going_under(std::uint32_t u, std::uint32_t v) const {
    if (continental_[u] != continental_[v]) return continental_[u] ? v : u;
    if (!continental_[u] && age_[u] != age_[v]) return age_[u] > age_[v] ? u : v;
    const Plate &pu = plates_[std::size_t(plate_[u])], &pv = plates_[std::size_t(plate_[v])];
    if (pu.density != pv.density) return pu.density > pv.density ? u : v;
    return plate_[u] > plate_[v] ? u : v;
}

// Removes vertex s by collapsing it into a neighbour, o first, then the other neighbours on o's
// plate, then any other; the neighbour keeps its place and its values (t = 0).
// Faces around the ends of e that are folded now, and that would be folded once e collapsed
// into its origin (which stays where it is).
std::pair<int, int> Mover::folds_around(Edge e) {
    const Mesh& m = **lock_;
    const Vertex a = e.origin(m), b = e.dest(m);
    const Face gone_left = e.left(m), gone_right = e.sym().left(m);
    const glm::vec3 target = at(a.index());
    int now = 0, after = 0;
    for (const Vertex v : {a, b}) {
        for (const Edge out : v.edges(m)) {
            const Face f = out.left(m);
            if (!f.valid()) continue;
            const Vertex u = out.dest(m), w = out.left_prev(m).origin(m);
            if (v == b && (u == a || w == a)) continue; // counted from a
            now += orientation_on_sphere(at(v.index()), at(u.index()), at(w.index())) <= 0;
            if (f == gone_left || f == gone_right) continue;
            const auto where = [&](Vertex x) { return x == a || x == b ? target : at(x.index()); };
            after += orientation_on_sphere(where(v), where(u), where(w)) <= 0;
        }
    }
    return {now, after};
}

bool Mover::remove_vertex(std::uint32_t s, std::uint32_t o, bool untangling) {
    std::vector<Edge> options; // edges w -> s
    {
        const Mesh& m = **lock_;
        if (!m.contains(Vertex(s))) return false;
        for (const Edge e : Vertex(s).edges(m))
            if (e.dest(m).index() == o) options.push_back(e.sym());
        for (int pass = 0; pass < 2; ++pass)
            for (const Edge e : Vertex(s).edges(m)) {
                const std::uint32_t w = e.dest(m).index();
                if (w == o) continue;
                if ((plate_[w] == plate_[o]) == (pass == 0)) options.push_back(e.sym());
            }
    }
    for (const Edge e : options) {
        const Mesh& m = **lock_;
        const std::uint32_t w = e.origin(m).index();
        if (untangling) {
            // Among folds, a collapse that leaves fewer of them is progress.
            const auto [now, after] = folds_around(e);
            if (after > now || (after == now && !untangle_even_)) continue;
        } else if (!collapse_keeps_orientation(
                       m, [&](Vertex x) { return at(x.index()); }, e, at(w))) {
            continue;
        }
        if (lock_->try_collapse(e, 0.f)) continue;
        ++out_.collapses;
        in_boundary_[s] = 0;
        born_[s] = -1;
        stamp_[s] = -1;
        const Mesh& after = **lock_;
        rest_[w] = unknown;
        touch(Vertex(w));
        edited_.push_back(w);
        for (const Vertex n : Vertex(w).neighbors(after)) {
            rest_[n.index()] = unknown;
            touch(n);
        }
        return true;
    }
    ++out_.refused;
    return false;
}

// Whether (a, b, c) is still a face of the mesh, and folded.
bool Mover::still_folded(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    const Mesh& m = **lock_;
    if (!m.contains(Vertex(a)) || !m.contains(Vertex(b)) || !m.contains(Vertex(c))) return false;
    const Edge e = m.find_edge(Vertex(a), Vertex(b));
    if (!e.valid() || !e.left(m).valid() || e.left_prev(m).origin(m).index() != c) return false;
    return orientation_on_sphere(at(a), at(b), at(c)) <= 0;
}

// Whether splitting e at `mid` would leave more of the four new faces folded than e's two faces
// are now. A flip can turn an earlier split's vertex into a sliver corner on the edge between
// the same two vertices; split again in the same sub-step, that edge's midpoint is exactly
// where that vertex stands, and two vertices in one place no triangulation can hold.
bool Mover::split_folds(Edge e, const glm::vec3& mid) {
    const Mesh& m = **lock_;
    const glm::vec3 a = at(e.origin(m)), b = at(e.dest(m));
    const glm::vec3 left = at(e.left_prev(m).origin(m)), right = at(e.sym().left_prev(m).origin(m));
    const int now =
        (orientation_on_sphere(a, b, left) <= 0) + (orientation_on_sphere(b, a, right) <= 0);
    const int after =
        (orientation_on_sphere(a, mid, left) <= 0) + (orientation_on_sphere(mid, b, left) <= 0) +
        (orientation_on_sphere(b, mid, right) <= 0) + (orientation_on_sphere(mid, a, right) <= 0);
    return after > now;
}

// Whether the plates part across the edge from a to b (b's motion relative to a's is
// `relative`) rather than slide past each other: a ridge, where new ocean floor is made. The
// edge's own direction does not say: an edge across a transform lengthens as its ends slide
// apart and turns toward the sliding, so by the time it is long enough to split, most of the
// relative motion lies along it; nor does the boundary's direction near the edge, which zigzags
// at the scale of an edge. What does is area: plates that slide past each other make none. The
// faces across the boundary form a strip; each grows at its base (the edge within one plate)
// times the relative speed across that base, over two, and over a stretch of the strip the
// zigzags cancel (the area between two rigid rows sliding along each other is constant) but
// for its ends. Walked parting_reach faces each way from the edge, the strip's growth over the
// length of boundary it holds (half of each base) is the speed at which the plates part there
// (at most 0.074 times their relative speed at a pure transform, 0.24 when walked 8 faces each
// way; less sure near a triple junction, where the strip is short);
// a ridge is where that is more than parting_share of the relative speed, a direction of
// motion more than 14.5 degrees off the boundary.
bool Mover::parts(Edge e, const glm::dvec3& relative) {
    const Mesh& m = **lock_;
    const auto velocity = [&](std::uint32_t x) {
        return glm::cross(omega_[std::size_t(plate_[x])], glm::dvec3(at(x)));
    };
    double growth = 0, held = 0; // km²/My, km
    // Around a small plate the strip closes on itself, and the two walks meet: each face once.
    std::array<Face, 2 * parting_reach> walked;
    std::size_t walked_count = 0;
    for (Edge side : {e, e.sym()})
        for (int step = 0; step < parting_reach; ++step) {
            const Face face = side.left(m);
            if (std::find(walked.begin(), walked.begin() + walked_count, face) !=
                walked.begin() + walked_count)
                break;
            walked[walked_count++] = face;
            const std::uint32_t u = side.origin(m).index(), v = side.dest(m).index();
            const Edge next = side.left_next(m), previous = side.left_prev(m);
            const std::uint32_t w = previous.origin(m).index();
            if (plate_[w] != plate_[u] && plate_[w] != plate_[v]) break; // a third plate
            const glm::dvec3 p0(at(u)), p1(at(v)), p2(at(w));
            const glm::dvec3 up = glm::normalize(p0 + p1 + p2);
            const glm::dvec3 v0 = velocity(u), v1 = velocity(v), v2 = velocity(w);
            growth +=
                0.5 * glm::dot(up, glm::cross(v1 - v0, p2 - p0) + glm::cross(p1 - p0, v2 - v0));
            // The base joins the two corners on one plate; the strip goes on across the face's
            // other edge between the plates.
            const bool with_u = plate_[w] == plate_[u];
            held += 0.5 * (with_u ? glm::distance(p0, p2) : glm::distance(p1, p2));
            side = (with_u ? next : previous).sym();
        }
    // No face between just these two plates (a triple junction on both sides): nothing says
    // they slide, so the edge is a ridge as every diverging edge was before.
    if (!(held > 0)) return true;
    return growth / held > parting_share * glm::length(relative);
}

// Moves v to the mean direction of its neighbours, at its own distance from the centre, when
// that unfolds every face around v and moves it by no more than the target spacing. A way out
// of a fold whose corners no collapse can remove (each would fold as many faces as it unfolds):
// the mean of a ring lies inside it wherever the ring is convex enough. The vertex then moves
// with its plate from there. Only the faces around v change, so touching v and its ring tells
// every scan what to look at again; quads around v inside one plate may stop being Delaunay,
// which the non-thorough flips leave to the final pass over every edge.
bool Mover::relocate(std::uint32_t v) {
    const Mesh& m = **lock_;
    if (!m.contains(Vertex(v))) return false;
    glm::dvec3 sum(0);
    for (const Vertex n : Vertex(v).neighbors(m)) {
        const glm::dvec3 q(at(n.index()));
        const double length = glm::length(q);
        if (length > 0) sum += q / length;
    }
    const double length = glm::length(sum);
    const glm::vec3 here = at(v);
    if (!(length > 0)) return false;
    const glm::vec3 target(sum / length * glm::length(glm::dvec3(here)));
    int now = 0, after = 0;
    for (const Edge out : Vertex(v).edges(m)) {
        if (!out.left(m).valid()) continue;
        const glm::vec3 u = at(out.dest(m).index());
        const glm::vec3 w = at(out.left_prev(m).origin(m).index());
        now += orientation_on_sphere(here, u, w) <= 0;
        after += orientation_on_sphere(target, u, w) <= 0;
    }
    // Moves that merely trade folds wander, and long ones stretch edges into splits.
    if (now == 0 || after > 0 || glm::distance(glm::dvec3(here), glm::dvec3(target)) > spacing_)
        return false;
    place(v, target);
    p0_[v] = glm::transpose(turn_[std::size_t(plate_[v])]) * glm::dvec3(target);
    ++out_.moved;
    rest_[v] = unknown;
    touch(Vertex(v));
    edited_.push_back(v);
    for (const Vertex n : Vertex(v).neighbors(m)) {
        rest_[n.index()] = unknown;
        touch(n);
    }
    return true;
}

void Mover::repair_edges() {
    struct Candidate {
        std::uint32_t a, b;
        bool ridge = false; // the plates part here: the new vertex is new ocean floor
    };
    std::vector<Candidate> converging, diverging;
    {
        const Mesh& m = **lock_;
        rescan_.clear();
        for (const std::uint32_t a : boundary_) {
            if (!m.contains(Vertex(a))) continue;
            if (!due(a)) {
                rescan_.push_back(a);
                continue;
            }
            checked_[a] = substep_;
            // The time (My) before any of a's edges across the boundary can need a repair: before
            // the plates move by check_move of the spacing across one, or close one to the
            // collapse length, or open one to the split length, at their current velocity.
            double soonest = std::numeric_limits<double>::infinity();
            // The walk also looks for faces folded around a, for untangle(): the faces around a
            // are (a, n, the next neighbour), whose positions it reads anyway. A vertex found
            // without one stays so until an edit touches it, since positions are fixed within
            // a sub-step; the others, and the vertices not judged now, are listed for it.
            bool folds = false;
            std::uint32_t first = 0, previous = 0;
            bool started = false;
            for (const Vertex n : Vertex(a).neighbors(m)) {
                const std::uint32_t b = n.index();
                if (started)
                    folds = folds || orientation_on_sphere(at(a), at(previous), at(b)) <= 0;
                else
                    first = b;
                started = true;
                previous = b;
                if (!cross(a, b)) {
                    // A flip at the boundary can join two vertices of one plate far apart; such
                    // an edge keeps its length until it is split.
                    if (glm::distance(glm::dvec3(at(a)), glm::dvec3(at(b))) > longest * spacing_)
                        diverging.push_back({a, b, false});
                    continue;
                }
                const glm::dvec3 pa(at(a)), pb(at(b));
                const glm::dvec3 mid = (pa + pb) * 0.5;
                const glm::dvec3 relative = glm::cross(
                    omega_[std::size_t(plate_[b])] - omega_[std::size_t(plate_[a])], mid);
                const double length = glm::distance(pa, pb);
                const double speed = glm::length(relative);
                const double normal = glm::dot(relative, pb - pa) / std::max(length, 1e-12);
                const double near = std::min(rest(a), rest(b)), far = std::max(rest(a), rest(b));
                if (speed > 0) soonest = std::min(soonest, check_move * near / speed);
                if (normal < 0)
                    soonest = std::min(soonest, (length - collapse_below * near) / -normal);
                if (normal > 0)
                    soonest = std::min(soonest,
                                       (std::min(split_above_ * far, longest * spacing_) - length) /
                                           normal);
                if (checked_[b] == substep_) continue; // judged from b
                // Closing head-on, not two vertices sliding past each other along a transform
                // or beside a vertex just made at a ridge.
                const bool closing = normal < -closing_share * speed;
                if (closing && length < collapse_below * near)
                    converging.push_back({a, b});
                else if ((normal > 0 && length > split_above_ * far) || length > longest * spacing_)
                    diverging.push_back(
                        {a, b, normal > 0 && parts(m.find_edge(Vertex(a), n), relative)});
            }
            next_check_[a] = check_after(soonest);
            if (started)
                folds = folds || orientation_on_sphere(at(a), at(previous), at(first)) <= 0;
            if (folds)
                rescan_.push_back(a);
            else
                unfolded_[a] = substep_;
        }
    }
    for (const Candidate& c : converging) {
        const Mesh& m = **lock_;
        if (!m.contains(Vertex(c.a)) || !m.contains(Vertex(c.b))) continue;
        if (!m.find_edge(Vertex(c.a), Vertex(c.b)).valid()) continue;
        const std::uint32_t s = going_under(c.a, c.b), o = s == c.a ? c.b : c.a;
        const bool collision = continental_[s] && continental_[o];
        const double area = 0.866 * double(rest(s)) * double(rest(s));
        const std::pair key{std::min(plate_[s], plate_[o]), std::max(plate_[s], plate_[o])};
        // When the side that goes under cannot lose this vertex (link condition, or a fold),
        // the other side loses its own: the edge must not close further.
        if (remove_vertex(s, o) || remove_vertex(o, s)) {
            if (collision) out_.collided[key] += area;
        }
    }
    for (const Candidate& c : diverging) {
        const Mesh& m = **lock_;
        if (!m.contains(Vertex(c.a)) || !m.contains(Vertex(c.b))) continue;
        const Edge e = m.find_edge(Vertex(c.a), Vertex(c.b));
        if (!e.valid()) continue;
        const glm::dvec3 mid = glm::normalize(glm::dvec3(at(c.a)) + glm::dvec3(at(c.b))) * radius_;
        Edge created;
        if (split_folds(e, glm::vec3(mid)) || lock_->try_split(e, 0.5f, &created)) {
            ++out_.refused;
            continue;
        }
        ++out_.splits;
        const Mesh& after = **lock_;
        const std::uint32_t v = created.origin(after).index();
        grow(after.vertex_slots());
        if (c.ridge) {
            plate_[v] = (split_parity_++ & 1) ? plate_[c.b] : plate_[c.a];
            continental_[v] = 0;
            age_[v] = 0.f;
            born_[v] = substep_;
        } else {
            // As the layers interpolate it: the heavier side's (dest's at t = 0.5) kind.
            plate_[v] = plate_[c.b];
            continental_[v] = continental_[c.b];
            age_[v] = 0.5f * (age_[c.a] + age_[c.b]);
            born_[v] = -1;
        }
        place(v, glm::vec3(mid));
        p0_[v] = glm::transpose(turn_[std::size_t(plate_[v])]) * glm::dvec3(p_[v]);
        rest_[v] = unknown;
        in_boundary_[v] = 0;
        touch(Vertex(v));
        edited_.push_back(v);
        for (const Vertex n : Vertex(v).neighbors(after)) {
            rest_[n.index()] = unknown;
            touch(n);
        }
    }
}

// Faces folded at a boundary lose a vertex that goes under, or in late rounds may have a corner
// moved (relocate()); what cannot be fixed is counted.
void Mover::untangle() {
    for (int round = 0; round < 12; ++round) {
        std::vector<std::array<std::uint32_t, 3>> folded;
        {
            const Mesh& m = **lock_;
            // The boundary vertices that can have a folded face: the ones last found with one,
            // and the ones an edit touched since (update_boundary() lists them). The others were
            // found unfolded this sub-step, and positions are fixed within it. In index order,
            // as the boundary is, so the folds are met in the same order as a scan of it.
            std::sort(rescan_.begin(), rescan_.end());
            rescan_.erase(std::unique(rescan_.begin(), rescan_.end()), rescan_.end());
            std::vector<std::uint32_t> scanning;
            scanning.swap(rescan_);
#ifndef NDEBUG
            // The list holds every member a scan of the whole boundary would look at: that
            // needs every edit to touch each corner of the faces it changes, and in_boundary_
            // to be cleared only with a touch.
            for (const std::uint32_t a : boundary_)
                assert(!m.contains(Vertex(a)) || unfolded_[a] == substep_ ||
                       std::binary_search(scanning.begin(), scanning.end(), a));
#endif
            for (const std::uint32_t a : scanning) {
                if (!in_boundary_[a] || unfolded_[a] == substep_ || !m.contains(Vertex(a)))
                    continue;
                const std::size_t before = folded.size();
                for (const Edge e : Vertex(a).edges(m)) {
                    const std::uint32_t b = e.dest(m).index();
                    const std::uint32_t c = e.left_prev(m).origin(m).index();
                    if (orientation_on_sphere(at(a), at(b), at(c)) <= 0)
                        folded.push_back({a, b, c});
                }
                if (folded.size() == before)
                    unfolded_[a] = substep_;
                else
                    rescan_.push_back(a);
            }
        }
        if (folded.empty()) return;
        // Lawson's sideways flips untangle most folds without losing a vertex.
        if (round % 2 == 0) {
            for (const auto& corners : folded)
                for (const std::uint32_t v : corners)
                    seed_edges_around(v);
            flip_boundary(true);
            update_boundary();
            continue;
        }
        for (const auto& [a, b, c] : folded) {
            // The side that goes under first; a face inside one plate folds only after a
            // sideways flip of a fold that motion made, or what collapses at a trench leave.
            std::array<std::uint32_t, 3> order{a, b, c};
            for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}}) {
                if (!cross(x, y)) continue;
                const std::uint32_t s = going_under(x, y), o = s == x ? y : x;
                order = {s, o, a + b + c - s - o}; // unsigned wrap-around keeps the third
                break;
            }
            // Late rounds also take collapses that only move a fold (it may then flip away), so
            // they act only on faces still folded; before that they try moving a corner.
            untangle_even_ = round >= 5;
            if (untangle_even_) {
                if (!still_folded(a, b, c)) continue;
                if (relocate(order[0]) || relocate(order[1]) || relocate(order[2])) continue;
                // Then the corner with fewest neighbours first, even before the side that goes
                // under: a vertex of three inside a fold is the usual remnant of collapses around
                // it, and removing it lets the next collapse count.
                const Mesh& m = **lock_;
                std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
                    return Vertex(x).valence(m) < Vertex(y).valence(m);
                });
            }
            for (std::size_t i = 0; i < 3; ++i)
                if (remove_vertex(order[i], order[(i + 1) % 3], true)) break;
        }
        seed_edited();
        flip_boundary();
        update_boundary();
    }
}

// The boundary after edits. A vertex's neighbours change only when an edit touches it, and no
// vertex changes plate, so the untouched members stay and only the touched vertices are judged.
// A member an edit removed is a collapse's lost vertex, which remove_vertex() unmarks (and a
// vertex removed touches its neighbours), so nothing changes while nothing was touched, and the
// marks say which members are gone without reading the mesh.
void Mover::update_boundary() {
    if (touched_.empty()) return;
    const Mesh& m = **lock_;
    std::size_t kept = 0;
    for (const std::uint32_t v : boundary_)
        if (!touched_flag_[v] && in_boundary_[v]) boundary_[kept++] = v;
    boundary_.resize(kept);
    for (const std::uint32_t v : touched_) {
        touched_flag_[v] = 0;
        in_boundary_[v] = 0;
        if (!m.contains(Vertex(v))) continue;
        for (const Vertex n : Vertex(v).neighbors(m))
            if (cross(v, n.index())) {
                in_boundary_[v] = 1;
                boundary_.push_back(v);
                break;
            }
        if (!in_boundary_[v]) inland_.push_back(v);
    }
    rescan_.insert(rescan_.end(), touched_.begin(), touched_.end());
    touched_.clear();
    const auto joined = boundary_.begin() + std::ptrdiff_t(kept);
    std::sort(joined, boundary_.end());
    std::inplace_merge(boundary_.begin(), joined, boundary_.end());
}

void Mover::finish() {
    const auto start = Clock::now();
    set_turns(substeps_);
    const std::uint32_t slots = (**lock_).vertex_slots();
    grow(slots);
    // As at() would place them, on two threads; dead slots stay at the origin.
    Scratch_vector<glm::vec3> final_positions(slots);
    {
        const Mesh& m = **lock_; // a rebuild below replaces this mesh
        parallel_ranges(slots, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
            for (std::uint32_t i = begin; i < end; ++i) {
                if (!m.contains(Vertex(i))) {
                    final_positions[i] = glm::vec3(0);
                    continue;
                }
                final_positions[i] = stamp_[i] == substep_
                                         ? p_[i]
                                         : glm::vec3(turn_[std::size_t(plate_[i])] * p0_[i]);
            }
        });
    }
    out_.motion_ms += ms_since(start);
    const auto repair = Clock::now();
    // Rounding the rotated points may tip nearly cocircular quads anywhere; one pass over every
    // edge puts the exact Delaunay condition back.
    const Lawson_result last = lawson_flips(*lock_, final_positions);
    out_.flips += std::int64_t(last.flips);
    // Folded faces around the boundary and the vertices edits left inland: the only places
    // where an edit can have folded one (a plate moves rigidly).
    const auto count_folds = [&] {
        const Mesh& after = **lock_;
        std::vector<std::array<std::uint32_t, 3>> folded; // lowest corner first
        for (const auto* list : {&boundary_, &inland_})
            for (const std::uint32_t a : *list) {
                if (!after.contains(Vertex(a))) continue;
                for (const Edge e : Vertex(a).edges(after)) {
                    const std::uint32_t b = e.dest(after).index();
                    const std::uint32_t c = e.left_prev(after).origin(after).index();
                    if (orientation_on_sphere(final_positions[a], final_positions[b],
                                              final_positions[c]) > 0)
                        continue;
                    std::array<std::uint32_t, 3> face{a, b, c};
                    std::rotate(face.begin(), std::min_element(face.begin(), face.end()),
                                face.end());
                    folded.push_back(face);
                }
            }
        std::sort(folded.begin(), folded.end());
        return std::int64_t(std::unique(folded.begin(), folded.end()) - folded.begin());
    };
    out_.folded = count_folds();
    // The last resort when a fold outlived every repair of the step, or an edge the last pass
    // could not flip is left not Delaunay. Left in place for the next step, a fold can spread
    // until splits run away (decisions.md), and which local repair clears a tangle depends on
    // its shape; a new triangulation always clears it.
    if ((out_.folded > 0 || last.blocked > 0) && rebuild_delaunay(*lock_, final_positions)) {
        out_.rebuilt = 1;
        find_boundary(); // the new edges decide which vertices face another plate
        out_.folded = count_folds();
    }
    const Mesh& end = **lock_;
    for (const std::uint32_t v : boundary_)
        if (end.contains(Vertex(v))) out_.boundary.push_back(v);
    for (const Vertex v : end.vertices()) {
        const std::uint32_t i = v.index();
        if (born_[i] >= 0) out_.new_crust.emplace_back(i, float(h_ * double(substeps_ - born_[i])));
    }
    out_.repair_ms += ms_since(repair);
    lock_.reset();

    const auto write = Clock::now();
    {
        auto [position] = world_.lock_layer(position_layer);
        std::size_t first = 0;
        for (std::size_t c = 0; c < position.layer().chunk_count(); ++c) {
            const auto values = position.chunk(c);
            for (std::size_t j = 0; j < values.size(); ++j)
                if (final_positions[first + j] != glm::vec3(0))
                    values[j] = final_positions[first + j];
            first += values.size();
        }
    }
    if (!out_.new_crust.empty()) {
        auto [plate_id] = world_.lock_layer(plate_id_layer);
        for (const auto& [i, age] : out_.new_crust)
            plate_id[Vertex(i)] = plate_[i];
    }
    out_.motion_ms += ms_since(write);
}

Plate_motion Mover::run() {
    const auto start = Clock::now();
    load();
    lock_.emplace(world_.lock_mesh());
    find_boundary();
    substeps_ = count_substeps();
    h_ = dt_ / double(substeps_);
    out_.substeps = substeps_;
    queued_.assign((**lock_).edge_slots() / 2, 0);
    out_.motion_ms += ms_since(start);
    const auto repair = Clock::now();
    for (std::int32_t k = 1; k <= substeps_; ++k) {
        set_turns(k);
        seed_boundary_quads();
        flip_boundary();
        repair_edges();
        seed_edited();
        flip_boundary();
        update_boundary();
        untangle();
    }
    out_.repair_ms += ms_since(repair);
    finish();
    return std::move(out_);
}

} // namespace

glm::dvec3 plate_velocity(const Plate& plate, const glm::dvec3& p) {
    return glm::cross(plate.axis * plate.angular_speed, p);
}

Plate_motion move_plates(World& world, std::span<const Plate> plates,
                         const Motion_settings& settings) {
    return Mover(world, plates, settings).run();
}

} // namespace orbis::gen
