// SPDX-License-Identifier: MIT
#include "orbis/gen/climate_module.hpp"

#include "orbis/core/world.hpp"
#include "orbis/gen/elevation_module.hpp"
#include "orbis/gen/parallel_ranges.hpp"
#include "orbis/gen/run_memory.hpp"
#include "orbis/gen/scratch_buffer.hpp"
#include "orbis/gen/vertex_adjacency.hpp"
#include "orbis/gen/world_ocean.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace orbis::gen {

namespace {

// A smooth function of latitude given at a few latitudes (degrees, ascending from 0 to 90),
// evaluated at the sine of the latitude (the unit position's y) so that no asin is needed per
// vertex. Between nodes a smoothstep, so the profile has no kinks that would draw lines on maps.
class Latitude_profile {
public:
    Latitude_profile(std::initializer_list<std::pair<double, double>> nodes) {
        for (const auto& [degrees, value] : nodes)
            nodes_.emplace_back(std::sin(degrees * std::numbers::pi / 180.0), value);
    }
    double operator()(double sin_latitude) const {
        const double s = std::abs(sin_latitude);
        if (s <= nodes_.front().first) return nodes_.front().second;
        for (std::size_t i = 1; i < nodes_.size(); ++i)
            if (s <= nodes_[i].first) {
                const auto& [a, va] = nodes_[i - 1];
                const auto& [b, vb] = nodes_[i];
                const double t = (s - a) / (b - a);
                return va + (vb - va) * t * t * (3 - 2 * t);
            }
        return nodes_.back().second;
    }

private:
    std::vector<std::pair<double, double>> nodes_;
};

// Eastward surface wind as a fraction of the peak speed (with the poleward part below, the
// speed never exceeds it): easterly trades peaking near 15°, calm horse latitudes at 30°,
// westerlies peaking near 45°, the polar front near 60° and weak polar easterlies beyond
// (Earth's annual zonal mean surface wind, roughly).
const Latitude_profile& zonal_wind() {
    static const Latitude_profile p{{0, -0.6}, {15, -0.94}, {30, 0.0}, {45, 0.95},
                                    {60, 0.0}, {75, -0.42}, {90, 0.0}};
    return p;
}
// Poleward surface wind as a fraction of the peak speed: the trades and polar easterlies blow
// towards the equator, the westerlies towards the pole (the three cells' surface branches).
// The polar front wanders with the seasons, so the annual mean air there moves along it
// (55-65°) instead of meeting in one sharp line.
const Latitude_profile& poleward_wind() {
    static const Latitude_profile p{{0, 0.0},  {15, -0.33}, {30, 0.0},  {45, 0.3},
                                    {55, 0.0}, {65, 0.0},   {75, -0.2}, {90, 0.0}};
    return p;
}
// How readily moist air rains, relative to 1: rising air where the trades meet (the ITCZ) and
// along the storm tracks of the polar front, sinking dry air under the subtropical highs and
// over the poles.
const Latitude_profile& rain_efficiency() {
    static const Latitude_profile p{{0, 2.2},  {8, 2.0},  {15, 1.0}, {22, 0.4},
                                    {28, 0.4}, {35, 0.9}, {45, 1.6}, {55, 1.8},
                                    {65, 1.4}, {80, 0.9}, {90, 0.7}};
    return p;
}
// How fast sinking dry air under the subtropical highs dilutes the surface air's moisture
// without rain, in the same units as the rain efficiency. The ocean makes up for it by
// evaporating more; land does not, so continents dry out downwind of their coasts.
const Latitude_profile& subsidence() {
    static const Latitude_profile p{{0, 0.0},  {12, 0.0}, {18, 0.6}, {25, 1.0},
                                    {32, 0.4}, {38, 0.0}, {90, 0.0}};
    return p;
}
// Fraction of the equator-to-pole drop in sea-level temperature at a latitude with sine s:
// 1 - cos(latitude), flat across the tropics and nearly linear in latitude beyond 40°, within a
// few hundredths of Earth's zonal annual mean.
double cooling_fraction(double s) { return 1.0 - std::sqrt(std::max(0.0, 1.0 - s * s)); }

// Annual mean of a continental interior relative to the ocean at the same latitude: 2 K warmer
// on the equator, 8 K colder at the poles (no ocean heat in winter).
double continental_anomaly_of_cooling(double cooling) { return 2.0 - 10.0 * cooling; }

// The latitude profiles sampled finely in |sin(latitude)|, so that a vertex costs a lookup and
// a lerp instead of a search and a smoothstep per profile.
struct Band {
    float zonal, poleward, efficiency, drying, cooling;
};
constexpr std::size_t band_samples = 4096;

const std::vector<Band>& band_table() {
    static const std::vector<Band> table = [] {
        std::vector<Band> t(band_samples + 1);
        for (std::size_t i = 0; i <= band_samples; ++i) {
            const double s = double(i) / double(band_samples);
            t[i] = {float(zonal_wind()(s)), float(poleward_wind()(s)), float(rain_efficiency()(s)),
                    float(subsidence()(s)), float(cooling_fraction(s))};
        }
        return t;
    }();
    return table;
}

Band band_at(float sin_latitude) {
    const std::vector<Band>& table = band_table();
    const float x = std::min(std::abs(sin_latitude), 1.f) * float(band_samples);
    const auto i = std::min(std::size_t(x), band_samples - 1);
    const float t = x - float(i);
    const Band& a = table[i];
    const Band& b = table[i + 1];
    const auto lerp = [t](float u, float v) { return u + (v - u) * t; };
    return {lerp(a.zonal, b.zonal), lerp(a.poleward, b.poleward), lerp(a.efficiency, b.efficiency),
            lerp(a.drying, b.drying), lerp(a.cooling, b.cooling)};
}

double smoothstep(double a, double b, double x) {
    const double t = std::clamp((x - a) / (b - a), 0.0, 1.0);
    return t * t * (3 - 2 * t);
}

// Monotonic in the angle of (x, y) over [0, 4) and much cheaper than atan2; only the order of
// longitudes matters for the sweep.
double pseudo_angle(double x, double y) {
    const double sum = std::abs(x) + std::abs(y);
    if (sum == 0) return 0;
    const double r = x / sum;
    return y >= 0 ? 1 - r : 3 + r;
}

// The moisture model. Moisture is carried as a flux F along the wind, 1 being the flux of
// saturated air at 25 °C. A vertex rains S * k * F * h mm/yr, where k is the rain efficiency and
// h = sqrt(F / (ocean_humidity * capacity)) (at most sqrt(1.5)) says how humid the air is
// compared with air over the sea, so that dry air rains less; the flux loses the matching water
// over the step, minus what the land gives back by evaporation, and whatever subsidence dries
// out. Air holding more than its capacity rains the excess over `condensation_km`; the ocean
// brings the flux back towards `ocean_humidity` of saturation over `evaporation_km`.
constexpr float rain_scale = 1900.f;          // S, mm/yr at F = 1, k = 1, h = 1
constexpr float rain_km = 2500.f;             // flux e-folding length at k = 1, h = 1
constexpr float evaporation_km = 300.f;       // how fast the ocean moistens the air
constexpr float condensation_km = 400.f;      // how fast supersaturated air rains out
constexpr float marine_km = 700.f;            // how far marine air keeps its mildness inland
constexpr float ocean_humidity = 0.8f;        // relative humidity of air in balance with the sea
constexpr float capacity_per_kelvin = 0.045f; // Clausius-Clapeyron, slightly damped
constexpr double lowest_dry_basin = 500.0;    // m below sea level
constexpr double uplift_scale = 8.0;          // m/km of forced ascent for most of its effect

// Saturation flux relative to air at 25 °C.
float capacity(float celsius) { return std::exp(capacity_per_kelvin * (celsius - 25.f)); }

// Share of the rain that land evaporates back into the air passing over it: most in warm
// climates (forests recycle rain far inland), less in cold ones, and little where it hardly
// rains (dry soil has nothing to give back), so wet lands stay wet and deserts stay dry.
float recycling(float celsius, float rain) {
    return float(0.3 + 0.65 * smoothstep(-5.0, 25.0, celsius)) * rain / (rain + 120.f);
}

constexpr std::uint32_t upwind_count = 3;

// What the moisture sweep needs of one vertex, packed so that the sweep reads one record per
// vertex in order. No default values: the per-vertex pass sets every field, and leaving a
// hundred megabytes unset saves filling them on one thread first.
struct Cell {
    std::array<std::uint32_t, upwind_count> upwind; // upwind vertices, by rank
    std::array<float, upwind_count> weight;         // their weights, summing to 1
    float step_km;                                  // distance the air travels from them
    // Per step, fixed by its length and so computed once rather than in every pass: on land
    // how much marine air remains, on the ocean how much of the ocean's pull is left undone;
    // the share of supersaturation that rains; the moisture that subsidence leaves.
    float decay, condensed, undried;
    float base_temperature; // °C without the continental anomaly
    float anomaly;          // continental anomaly (0 on the ocean)
    float efficiency;       // rain efficiency k
    std::uint8_t flags;     // ocean, coast
};
constexpr std::uint8_t ocean_flag = 1, coast_flag = 2;

} // namespace

namespace {

constexpr int passes = 3;

// The moist air's state leaving a vertex in one sweep step, and what the vertex gets.
struct Step {
    float flux, marine, temperature, rain;
};

// One step of the sweep at the vertex of `c`, whose upwind air brings moisture flux `f` and
// marine share `mu`: the one place the moisture model is written, so that a whole sweep and a
// sweep of the few vertices an edit reached give the same bits.
Step sweep_step(const Cell& c, float f, float mu, float moderation, float scale) {
    const float d = c.step_km;
    const bool sea = c.flags & ocean_flag;
    if (sea) {
        mu = 1.f;
    } else {
        mu *= c.decay;
        if (c.flags & coast_flag) mu = std::max(mu, 0.5f);
    }
    const float t = c.base_temperature + c.anomaly * (1.f - moderation * mu);
    const float cap = capacity(t);
    const float humid = std::sqrt(std::min(1.5f, f / (ocean_humidity * cap)));
    const float k = c.efficiency * humid;
    float p = scale * f * k;
    f *= c.undried * std::exp(-(sea ? k : k * (1.f - recycling(t, p))) * d / rain_km);
    if (f > cap) {
        const float excess = (f - cap) * c.condensed;
        f -= excess;
        p += scale * rain_km * excess / d;
    }
    if (sea) {
        const float target = ocean_humidity * cap;
        f = target + (f - target) * c.decay;
    }
    return {f, mu, t, p};
}

// The air at a vertex before the first sweep: the ocean's in balance with the sea, dry
// continental air on land.
std::pair<float, float> initial_air(const Cell& c) {
    const bool sea = c.flags & ocean_flag;
    const float t = c.base_temperature + c.anomaly;
    return {(sea ? ocean_humidity : 0.3f) * capacity(t), sea ? 1.f : 0.f};
}

bool same_bits(float a, float b) {
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

} // namespace

// Everything a run computes by sweep rank; kept for the next run when run memory allows.
struct Climate_module::Memory {
    // What the kept state was computed for.
    std::uint64_t mesh_version = 0, position_version = 0;
    Climate_params params;
    std::uint32_t slots = 0;
    std::vector<std::uint32_t> order, rank;     // rank -> slot, slot -> rank (0 for dead slots)
    Vertex_adjacency g;                         // by rank
    std::vector<glm::vec3> pos;                 // by rank
    std::vector<float> elevation;               // by rank, as this run read it
    std::vector<float> elevation_by_slot;       // the same by slot (kept runs only)
    std::vector<std::uint8_t> ocean;            // by rank
    std::optional<Ocean_tracker> ocean_tracker; // kept runs only
    Scratch_vector<Cell> sweep;
    Scratch_vector<glm::vec3> wind;
    Scratch_vector<float> area;
    std::array<std::vector<float>, passes> flux, marine; // after each sweep (kept runs only)
    Scratch_vector<float> temperature, rain;             // after the last sweep
    // Versions of wind, temperature and precipitation right after this run wrote them: while
    // the World's layers still carry them, they hold this state's values.
    std::array<std::uint64_t, 3> written{};
};

Climate_module::Climate_module() = default;
Climate_module::~Climate_module() = default;

namespace {

// The per-vertex part of the model on the kept numbering: wind, area and the sweep record.
class Local_pass {
public:
    Local_pass(Climate_module::Memory& k, const Climate_params& params)
        : k_(k)
        , speed_peak_(float(params.wind_speed))
        , lapse_(params.lapse_rate / 1000.0)
        , equator_(params.equator_temperature)
        , drop_(params.equator_temperature - params.pole_temperature) {}

    void operator()(std::uint32_t v);

private:
    Climate_module::Memory& k_;
    float speed_peak_;
    double lapse_, equator_, drop_;
    std::vector<float> inverse_length_; // of `edge_`
    std::vector<glm::vec3> edge_;       // the current vertex's edges to its neighbours, km
};

} // namespace

namespace {

void Local_pass::operator()(std::uint32_t v) {
    const glm::vec3 p = k_.pos[v];
    const glm::vec3 up = glm::normalize(p);
    const float s = up.y;
    const Band band = band_at(s);
    glm::vec3 east(up.z, 0.f, -up.x); // cross((0, 1, 0), up)
    const float east_length = glm::length(east);
    east = east_length > 1e-6f ? east / east_length : glm::vec3(1, 0, 0);
    const glm::vec3 north = glm::cross(up, east);
    const float hemisphere = s >= 0 ? 1.f : -1.f;
    const glm::vec3 prevailing =
        speed_peak_ * (band.zonal * east + hemisphere * band.poleward * north);
    const bool sea = k_.ocean[v];

    // Surface gradient of the ground (ocean counts as flat at sea level), m/km: on an even
    // ring of neighbours sum (dh e / |e|^2) is degree / 2 times the gradient.
    const float h = sea ? 0.f : std::max(0.f, k_.elevation[v]);
    glm::vec3 gradient(0);
    float length_sum = 0, length2_sum = 0;
    bool coast = false;
    const auto row = k_.g.neighbours(v);
    edge_.clear();
    inverse_length_.clear();
    for (const std::uint32_t k : row) {
        const glm::vec3 e = k_.pos[k] - p;
        edge_.push_back(e);
        const float l2 = glm::dot(e, e);
        const float l = std::sqrt(l2);
        inverse_length_.push_back(l > 0 ? 1.f / l : 0.f);
        length_sum += l;
        length2_sum += l2;
        coast |= k_.ocean[k] != k_.ocean[v];
        if (!(l2 > 0) || (sea && k_.ocean[k])) continue; // open sea is flat
        const float hk = k_.ocean[k] ? 0.f : std::max(0.f, k_.elevation[k]);
        gradient += (hk - h) / l2 * (e - glm::dot(e, up) * up);
    }
    const float degree = float(std::max<std::size_t>(row.size(), 1));
    gradient *= 2.f / degree;
    const float edge_km = std::max(1e-3f, length_sum / degree);
    k_.area[v] = length2_sum / degree;

    glm::vec3 w = prevailing;
    float uplift = 0;
    const float slope = glm::length(gradient);
    if (slope > 1e-6f) {
        const glm::vec3 uphill = gradient / slope;
        const float climb = glm::dot(prevailing, uphill);
        if (climb > 0) {
            uplift = climb / std::max(speed_peak_, 1e-6f) * slope;
            // High, steep ground turns most of the uphill part of the wind along the
            // slope; the rest goes over and slows down.
            const auto block = float(0.8 * smoothstep(300, 2500, h) * smoothstep(0, 6, slope));
            w -= block * climb * uphill;
            const float speed = glm::length(w);
            if (speed > 1e-6f) w *= glm::length(prevailing) * (1.f - 0.3f * block) / speed;
        }
    }
    if (!sea) w *= 0.8f; // friction over land
    k_.wind[v] = w;

    Cell& c = k_.sweep[v];
    const double sea_level = equator_ - drop_ * double(band.cooling);
    // Land below sea level warms by the lapse rate too (the Dead Sea), but a basin much
    // deeper than that would hold a lake whose surface stands higher.
    const double surface = std::max(double(k_.elevation[v]), -lowest_dry_basin);
    c.base_temperature = float(sea ? sea_level : sea_level - lapse_ * surface);
    c.anomaly = sea ? 0.f : float(continental_anomaly_of_cooling(band.cooling));
    // Forced ascent adds up to 1 to the rain efficiency: on steeper slopes than a few
    // m/km the air does not rise faster than it can rain out.
    c.efficiency =
        band.efficiency + (uplift > 0 ? float(std::tanh(double(uplift) / uplift_scale)) : 0.f);
    c.flags = std::uint8_t((sea ? ocean_flag : 0) | (coast ? coast_flag : 0));

    // Upwind neighbours: the (up to) three best lined up against the wind, weighted by the
    // squared cosine of the angle, so that moisture spreads a little across the wind (as
    // eddies spread it) without smearing far; calm vertices take their first neighbours
    // evenly. `step_km` is the weighted distance the air travels from them.
    const float speed = glm::length(w);
    std::array<float, upwind_count> best_weight{}, best_back{};
    std::uint32_t found = 0;
    if (speed > 0.05f) {
        const glm::vec3 along_wind = w / speed;
        for (std::size_t i = 0; i < row.size(); ++i) {
            const float back = -glm::dot(along_wind, edge_[i]);
            if (!(back > 0)) continue;
            const float cosine = back * inverse_length_[i];
            const float weight = cosine;
            // Keep the best `upwind_count` by weight, sorted descending.
            std::uint32_t j = std::min(found, upwind_count - 1);
            if (found == upwind_count && weight <= best_weight[j]) continue;
            while (j > 0 && best_weight[j - 1] < weight) {
                best_weight[j] = best_weight[j - 1];
                best_back[j] = best_back[j - 1];
                c.upwind[j] = c.upwind[j - 1];
                --j;
            }
            best_weight[j] = weight;
            best_back[j] = back;
            c.upwind[j] = row[i];
            found = std::min(found + 1, upwind_count);
        }
    }
    if (found == 0) {
        for (std::size_t i = 0; i < row.size() && found < upwind_count; ++i) {
            best_weight[found] = 1;
            best_back[found] = glm::length(edge_[i]);
            c.upwind[found] = row[i];
            ++found;
        }
    }
    float total = 0, distance = 0;
    for (std::uint32_t j = 0; j < found; ++j) {
        total += best_weight[j];
        distance += best_weight[j] * best_back[j];
    }
    for (std::uint32_t j = 0; j < upwind_count; ++j) {
        if (j >= found) c.upwind[j] = v; // weight 0
        c.weight[j] = j < found ? best_weight[j] / total : 0.f;
    }
    c.step_km = found ? std::max(distance / total, 1e-3f * edge_km) : edge_km;
    c.decay = std::exp(-c.step_km / (sea ? evaporation_km : marine_km));
    c.condensed = 1.f - std::exp(-c.step_km / condensation_km);
    c.undried = std::exp(-band.drying * c.step_km / rain_km);
}

} // namespace

std::string_view Climate_module::description() const {
    return "prevailing winds by latitude band (trades, westerlies, polar easterlies; deflected "
           "around high ground), annual mean temperature (latitude, lapse rate on land, ocean "
           "moderation of coasts) and precipitation (moisture picked up over the ocean and "
           "carried along the wind: wet equator, dry subtropics, rain on windward slopes and "
           "rain shadows behind ranges); reads position, elevation; writes 'wind' (vec3, "
           "vertex, m/s), 'temperature' (float, vertex, °C), 'precipitation' (float, vertex, "
           "mm/yr)";
}

const Parameter_list<Climate_params>& Climate_module::parameter_list() const {
    static const auto list =
        Parameter_list<Climate_params>()
            .add("equator_temperature", &Climate_params::equator_temperature, -50.0, 60.0, "°C",
                 "annual mean temperature at sea level on the equator")
            .add("pole_temperature", &Climate_params::pole_temperature, -90.0, 40.0, "°C",
                 "annual mean temperature at sea level on the poles")
            .add("lapse_rate", &Climate_params::lapse_rate, 0.0, 15.0, "K/km",
                 "how much colder land gets per kilometre of height")
            .add("ocean_moderation", &Climate_params::ocean_moderation, 0.0, 1.0, "",
                 "how far land under marine air moves from a continental interior's "
                 "temperature towards the ocean's (0: not at all, 1: fully)")
            .add("rainfall", &Climate_params::rainfall, 0.0, 10.0, "",
                 "scale of all precipitation (1: Earth-like)")
            .add("wind_speed", &Climate_params::wind_speed, 0.0, 50.0, "m/s",
                 "peak speed of the prevailing winds (trades and westerlies)");
    return list;
}

Layer_uses Climate_module::layers_for(const Climate_params&) const {
    Layer_hints temperature = make_hints("Temperature", "°C", "turbo");
    temperature.min = -40.0;
    temperature.max = 35.0;
    Layer_hints precipitation = make_hints("Precipitation", "mm/yr", "viridis");
    precipitation.min = 0.0;
    precipitation.max = 3000.0;
    return {.reads = {Layer_use::of(position_layer), Layer_use::of(elevation_layer)},
            .writes = {Layer_use::of(wind_layer).with_hints(make_hints("Wind", "m/s")),
                       Layer_use::of(temperature_layer).with_hints(std::move(temperature)),
                       Layer_use::of(precipitation_layer).with_hints(std::move(precipitation))}};
}

namespace {

// The numbering every array of a run goes by: the sweep order. Latitude bands (about 30 rows
// of vertices wide, so that most upwind neighbours lie in the same band), taken in the order
// the meridional wind crosses them: from the subtropical highs (30°) and the poles, where the
// surface air diverges, towards the equator and the polar front (60°), where it converges;
// each band along the zonal wind, westerlies by increasing longitude and easterlies by
// decreasing longitude, in bins narrower than an edge. A counting sort keeps this O(n). The
// wrap at the antimeridian and stretches where the wind turns are what the later passes
// settle: three passes come within ~2% (mean) of the converged rain.
void number_by_sweep(Climate_module::Memory& k, const std::vector<std::uint32_t>& live,
                     const std::vector<glm::vec3>& pos_by_slot) {
    const auto n = std::uint32_t(live.size());
    const auto bands = std::uint32_t(std::max(8.0, std::sqrt(double(n)) / 32.0));
    const auto lon_bins = std::uint32_t(std::max(64.0, 8.0 * std::sqrt(double(n))));
    std::vector<std::uint32_t> band_rank(bands);
    {
        std::vector<std::pair<double, std::uint32_t>> by_divergence(bands);
        for (std::uint32_t b = 0; b < bands; ++b) {
            // Equal-area bands in sin(latitude), north to south.
            const double centre =
                std::asin(1.0 - 2.0 * (b + 0.5) / bands) * 180.0 / std::numbers::pi;
            const double from_high =
                std::min(std::abs(std::abs(centre) - 30.0), 90.0 - std::abs(centre));
            by_divergence[b] = {from_high, b};
        }
        std::sort(by_divergence.begin(), by_divergence.end());
        for (std::uint32_t i = 0; i < bands; ++i)
            band_rank[by_divergence[i].second] = i;
    }
    k.order.resize(n);
    k.rank.assign(k.slots, 0);
    std::vector<std::uint32_t> key(k.slots, 0), start(std::size_t(bands) * lon_bins + 1, 0);
    // The keys on two threads (each vertex's own); the counts in one pass after.
    parallel_ranges(n, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t at = begin; at < end; ++at) {
            const std::uint32_t v = live[at];
            const glm::vec3 p = pos_by_slot[v];
            const float s = p.y / glm::length(p);
            const auto bin = [](float fraction, std::uint32_t count) {
                return std::min(count - 1, std::uint32_t(std::max(0.f, fraction) * float(count)));
            };
            std::uint32_t lon = bin(float(pseudo_angle(p.x, -p.z)) / 4.f, lon_bins); // eastward
            if (band_at(s).zonal < 0) lon = lon_bins - 1 - lon;
            key[v] = band_rank[bin((1.f - s) / 2.f, bands)] * lon_bins + lon;
        }
    });
    for (const std::uint32_t v : live)
        ++start[key[v] + 1];
    for (std::size_t b = 0; b + 1 < start.size(); ++b)
        start[b + 1] += start[b];
    for (const std::uint32_t v : live) {
        const std::uint32_t r = start[key[v]]++;
        k.order[r] = v;
        k.rank[v] = r;
    }
}

// The three sweeps over every vertex in rank order; with `keep`, the air after each sweep
// goes to the memory too.
void sweep_all(Climate_module::Memory& k, float moderation, float scale, bool keep,
               const Progress& progress, std::string_view name) {
    const auto n = std::uint32_t(k.order.size());
    Scratch_vector<float> flux, marine; // written before they are read
    flux.resize(n);
    marine.resize(n);
    k.temperature.resize(n);
    k.rain.resize(n);
    parallel_ranges(n, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t r = begin; r < end; ++r)
            std::tie(flux[r], marine[r]) = initial_air(k.sweep[r]);
    });
    for (int pass = 0; pass < passes; ++pass) {
        for (std::uint32_t r = 0; r < n; ++r) {
            const Cell& c = k.sweep[r];
            float f = 0, mu = 0;
            for (std::uint32_t j = 0; j < upwind_count; ++j) {
                f += c.weight[j] * flux[c.upwind[j]];
                mu += c.weight[j] * marine[c.upwind[j]];
            }
            const Step out = sweep_step(c, f, mu, moderation, scale);
            flux[r] = out.flux;
            marine[r] = out.marine;
            k.temperature[r] = out.temperature;
            k.rain[r] = out.rain;
        }
        if (keep) {
            k.flux[std::size_t(pass)].assign(flux.begin(), flux.end());
            k.marine[std::size_t(pass)].assign(marine.begin(), marine.end());
        }
        progress.report(name, 0.6 + 0.3 * double(pass + 1) / passes);
    }
}

// The sweeps again where the air can differ from the kept sweeps': at the vertices whose
// records changed (`changed`, ranks) and downwind of any vertex whose air came out different,
// in rank order within each sweep, as the whole sweep would meet them. Returns the ranks
// whose temperature and rain the last sweep computed again.
std::vector<std::uint32_t> sweep_again(Climate_module::Memory& k,
                                       const std::vector<std::uint32_t>& changed,
                                       const std::vector<std::pair<float, float>>& old_initial,
                                       float moderation, float scale, std::size_t& met) {
    const auto n = std::uint32_t(k.order.size());
    // What a vertex reads of upwind vertex u while sweep p computes vertex r: u's air from this
    // sweep when u comes first, else from the sweep before (or its initial air).
    const auto air = [&](std::uint32_t u, int p, std::uint32_t r) -> std::pair<float, float> {
        if (u < r) return {k.flux[std::size_t(p)][u], k.marine[std::size_t(p)][u]};
        if (p == 0) return initial_air(k.sweep[u]);
        return {k.flux[std::size_t(p - 1)][u], k.marine[std::size_t(p - 1)][u]};
    };
    const auto upwind_of = [&](std::uint32_t w, std::uint32_t u) {
        const Cell& c = k.sweep[w];
        return w != u && std::find(c.upwind.begin(), c.upwind.end(), u) != c.upwind.end();
    };
    std::array<std::vector<std::uint32_t>, passes> due;
    std::vector<std::uint8_t> queued(std::size_t(n) * passes, 0);
    const auto enqueue = [&](int p, std::uint32_t r) {
        std::uint8_t& q = queued[std::size_t(r) * passes + std::size_t(p)];
        if (q) return;
        q = 1;
        due[std::size_t(p)].push_back(r);
        std::push_heap(due[std::size_t(p)].begin(), due[std::size_t(p)].end(), std::greater<>());
    };
    for (std::size_t i = 0; i < changed.size(); ++i) {
        const std::uint32_t r = changed[i];
        for (int p = 0; p < passes; ++p)
            enqueue(p, r);
        // Vertices before it read its initial air in the first sweep.
        const auto now = initial_air(k.sweep[r]);
        if (same_bits(now.first, old_initial[i].first) &&
            same_bits(now.second, old_initial[i].second))
            continue;
        for (const std::uint32_t w : k.g.neighbours(r))
            if (w < r && upwind_of(w, r)) enqueue(0, w);
    }
    std::vector<std::uint32_t> last;
    std::vector<std::uint8_t> seen(n, 0);
    met = 0;
    for (int p = 0; p < passes; ++p) {
        auto& heap = due[std::size_t(p)];
        auto& flux = k.flux[std::size_t(p)];
        auto& marine = k.marine[std::size_t(p)];
        while (!heap.empty()) {
            std::pop_heap(heap.begin(), heap.end(), std::greater<>());
            const std::uint32_t r = heap.back();
            heap.pop_back();
            if (!std::exchange(seen[r], 1)) ++met;
            const Cell& c = k.sweep[r];
            float f = 0, mu = 0;
            for (std::uint32_t j = 0; j < upwind_count; ++j) {
                const auto [uf, um] = air(c.upwind[j], p, r);
                f += c.weight[j] * uf;
                mu += c.weight[j] * um;
            }
            const Step out = sweep_step(c, f, mu, moderation, scale);
            if (p == passes - 1) {
                k.temperature[r] = out.temperature;
                k.rain[r] = out.rain;
                last.push_back(r);
            }
            if (same_bits(out.flux, flux[r]) && same_bits(out.marine, marine[r])) continue;
            flux[r] = out.flux;
            marine[r] = out.marine;
            // Later vertices read it in this sweep, earlier ones in the next.
            for (const std::uint32_t w : k.g.neighbours(r))
                if (upwind_of(w, r)) {
                    if (w > r)
                        enqueue(p, w);
                    else if (p + 1 < passes)
                        enqueue(p + 1, w);
                }
        }
    }
    return last;
}

// The report's figures, over every vertex in rank order.
Dict climate_report(const Climate_module::Memory& k) {
    float lo = std::numeric_limits<float>::max(), hi = std::numeric_limits<float>::lowest();
    double rain_area = 0, total_area = 0, land_rain_area = 0, land_area = 0;
    const auto n = std::uint32_t(k.order.size());
    for (std::uint32_t r = 0; r < n; ++r) {
        lo = std::min(lo, k.temperature[r]);
        hi = std::max(hi, k.temperature[r]);
        const double a = k.area[r];
        rain_area += a * k.rain[r];
        total_area += a;
        if (!(k.sweep[r].flags & ocean_flag)) {
            land_rain_area += a * k.rain[r];
            land_area += a;
        }
    }
    Dict report;
    report.set("min_temperature", double(lo));
    report.set("max_temperature", double(hi));
    report.set("mean_precipitation", total_area > 0 ? rain_area / total_area : 0.0);
    report.set("land_mean_precipitation", land_area > 0 ? land_rain_area / land_area : 0.0);
    return report;
}

// Writes every vertex's wind, temperature and precipitation (dead slots get zeros).
void write_all(World& world, const Climate_module::Memory& k) {
    const auto* wind_in = world.layer(wind_layer);
    const auto* temperature_in = world.layer(temperature_layer);
    const auto* precipitation_in = world.layer(precipitation_layer);
    if (!wind_in && !temperature_in && !precipitation_in) {
        // A first run: each layer's memory is written once, on two threads, straight from the
        // kept numbering, with no initial fill to compare against and copy over. Dead slots get
        // 0 and slots past the mesh's the initial value, as the path below leaves them.
        const auto every_value = [&](const auto& info, const auto& ranked) {
            return [&](std::size_t first, auto out) {
                using T = typename decltype(out)::value_type;
                for (std::size_t i = 0; i < out.size(); ++i) {
                    const std::size_t s = first + i;
                    if (s >= k.slots) {
                        out[i] = info.initial_value();
                        continue;
                    }
                    const std::uint32_t r = k.rank[s];
                    out[i] = r < k.order.size() && k.order[r] == s ? T(ranked[r]) : T(0);
                }
            };
        };
        auto wind_out = world.lock_new_layer(wind_layer);
        auto temperature_out = world.lock_new_layer(temperature_layer);
        auto precipitation_out = world.lock_new_layer(precipitation_layer);
        parallel_chunks(wind_out, every_value(wind_layer, k.wind));
        parallel_chunks(temperature_out, every_value(temperature_layer, k.temperature));
        parallel_chunks(precipitation_out, every_value(precipitation_layer, k.rain));
        return;
    }
    const auto n = std::uint32_t(k.order.size());
    // Back to slot order on two threads (each rank writes its own slot; dead slots stay 0).
    std::vector<float> temperature_at(k.slots, 0.f), rain_at(k.slots, 0.f);
    std::vector<glm::vec3> wind_at(k.slots, glm::vec3(0));
    parallel_ranges(n, [&](std::uint32_t begin, std::uint32_t end, unsigned) {
        for (std::uint32_t r = begin; r < end; ++r) {
            const std::uint32_t i = k.order[r];
            temperature_at[i] = k.temperature[r];
            rain_at[i] = k.rain[r];
            wind_at[i] = k.wind[r];
        }
    });
    // Whole chunks at a time, on two threads: far cheaper than a copy-on-write check per
    // value. Only chunks whose bytes change are written, and layers that would not change are
    // not even locked, so their versions (and whatever was computed from them) stay.
    const auto fill_from = [](const auto& values) {
        return [&values](std::size_t first, auto span) {
            if (first >= values.size()) return;
            std::copy_n(values.begin() + std::ptrdiff_t(first),
                        std::min(span.size(), values.size() - first), span.begin());
        };
    };
    if (wind_in && temperature_in && precipitation_in) {
        const auto wind = changed_chunks(*wind_in, fill_from(wind_at));
        const auto temperature = changed_chunks(*temperature_in, fill_from(temperature_at));
        const auto rain = changed_chunks(*precipitation_in, fill_from(rain_at));
        if (!any_changed(wind) && !any_changed(temperature) && !any_changed(rain)) return;
        auto [wind_out, temperature_out, precipitation_out] =
            world.lock_layer(wind_layer, temperature_layer, precipitation_layer);
        write_changed_chunks(wind_out, wind);
        write_changed_chunks(temperature_out, temperature);
        write_changed_chunks(precipitation_out, rain);
        return;
    }
    auto [wind_out, temperature_out, precipitation_out] =
        world.lock_layer(wind_layer, temperature_layer, precipitation_layer);
    parallel_changed_chunks(wind_out, fill_from(wind_at));
    parallel_changed_chunks(temperature_out, fill_from(temperature_at));
    parallel_changed_chunks(precipitation_out, fill_from(rain_at));
}

// The versions of the three output layers (0 where one is missing).
std::array<std::uint64_t, 3> output_versions(const World& world) {
    const auto version = [&](const auto& info) -> std::uint64_t {
        const auto* layer = world.layer(info);
        return layer ? layer->version() : 0;
    };
    return {version(wind_layer), version(temperature_layer), version(precipitation_layer)};
}

} // namespace

Dict Climate_module::run_with(World& world, const Climate_params& params,
                              const Progress& progress) const {
    const auto* position = world.layer(position_layer);
    const auto* elevation_in = world.layer(elevation_layer);
    if (!position || !elevation_in)
        throw std::runtime_error("module 'climate' needs the layers position and elevation "
                                 "(run 'elevation' first)");
    const Mesh& m = world.mesh();
    if (m.vertex_count() == 0) throw std::runtime_error("module 'climate' needs vertices");
    const bool keep = m.vertex_count() <= run_memory_limit();

    std::unique_ptr<Memory> kept = memory_.take();
    if (kept && !(keep && kept->mesh_version == world.mesh_version() &&
                  kept->position_version == position->version() && kept->params == params &&
                  kept->slots == m.vertex_slots()))
        kept.reset();
    Dict report =
        kept ? run_again(world, *kept, progress) : run_whole(world, params, kept, keep, progress);
    if (keep) {
        kept->written = output_versions(world);
        memory_.put(std::move(kept));
    }
    return report;
}

Dict Climate_module::run_whole(World& world, const Climate_params& params,
                               std::unique_ptr<Memory>& kept, bool keep,
                               const Progress& progress) const {
    const auto& position = *world.layer(position_layer);
    const auto& elevation_in = *world.layer(elevation_layer);
    const Mesh& m = world.mesh();
    kept = std::make_unique<Memory>();
    Memory& k = *kept;
    k.mesh_version = world.mesh_version();
    k.position_version = position.version();
    k.params = params;
    k.slots = m.vertex_slots();

    std::vector<std::uint32_t> live;
    live.reserve(m.vertex_count());
    std::vector<glm::vec3> pos(k.slots, glm::vec3(0));
    std::vector<float> elevation(k.slots, 0.f);
    for (const Vertex v : m.vertices()) {
        live.push_back(v.index());
        pos[v.index()] = position[v];
        elevation[v.index()] = elevation_in[v];
    }
    const auto n = std::uint32_t(live.size());
    number_by_sweep(k, live, pos);

    // From here on every vertex goes by its rank in the sweep: the sweep order runs along
    // latitude bands, so a vertex's neighbours sit a few ranks away and their values share
    // cache lines, where the refined mesh's slots scatter them over the whole array (reading
    // the neighbours in slot order missed the cache on most reads, two thirds of the module's
    // time). The rows keep the edge-scan order, so every sum below adds in the same order.
    k.pos.resize(n);
    k.elevation.resize(n);
    for (std::uint32_t r = 0; r < n; ++r) {
        k.pos[r] = pos[k.order[r]];
        k.elevation[r] = elevation[k.order[r]];
    }
    if (keep) {
        // As long as the layer (which may hold more slots than the mesh uses).
        elevation.resize(std::max<std::size_t>(k.slots, elevation_in.size()), 0.f);
        k.elevation_by_slot = std::move(elevation);
    } else
        elevation = {};
    pos = {};
    k.g = renumbered_adjacency(m, k.rank, n);
    if (keep) {
        k.ocean_tracker.emplace(k.g, k.elevation, k.order, 0.f, 0.002);
        k.ocean = k.ocean_tracker->ocean();
    } else {
        k.ocean = world_ocean(k.g, k.elevation, k.order, 0.f, 0.002);
    }
    progress.report(name(), 0.15);

    // Everything local to a vertex, in sweep order: the prevailing wind bent where it runs up
    // high ground, the ascent it is forced into, and the upwind neighbours. Each array is
    // written whole by this pass before it is read, so none is initialised: the two threads
    // touch the pages first, instead of one thread filling a hundred megabytes of records
    // that are then overwritten. (Huge pages for the records cut the page faults but raised
    // the system time under load: the kernel compacts memory to find them.) Each vertex
    // writes only its own wind, area and sweep record, so two threads split the vertices
    // without changing a bit of the result.
    k.wind.resize(n);
    k.sweep.resize(n);
    k.area.resize(n);
    parallel_ranges(n, [&](std::uint32_t begin, std::uint32_t end, unsigned part) {
        Local_pass local(k, params);
        for (std::uint32_t at = begin; at < end; ++at) {
            local(at);
            if (part == 0 && (at & 0xFFFF) == 0)
                progress.report(name(), 0.15 + 0.35 * double(2 * at) / double(n));
        }
    });
    progress.report(name(), 0.6);

    sweep_all(k, float(params.ocean_moderation), rain_scale * float(params.rainfall), keep,
              progress, name());
    write_all(world, k);
    last_run_vertices_ = n;
    return climate_report(k);
}

Dict Climate_module::run_again(World& world, Memory& k, const Progress& progress) const {
    const auto& elevation_in = *world.layer(elevation_layer);
    const Mesh& m = world.mesh();
    // The vertices whose elevation changed since the kept run, found chunk by chunk.
    std::vector<std::uint32_t> moved;   // ranks
    std::vector<std::uint32_t> crossed; // ranks that crossed sea level
    update_changed(elevation_in, k.elevation_by_slot.data(),
                   [&](std::size_t i, float was, float now) {
                       const auto s = std::uint32_t(i);
                       if (s >= k.slots || !m.contains(Vertex{s})) return;
                       if ((now < 0.f) != (was < 0.f)) crossed.push_back(k.rank[s]);
                       k.elevation[k.rank[s]] = now;
                       moved.push_back(k.rank[s]);
                   });
    progress.report(name(), 0.1);
    // Whether a vertex is ocean depends on the whole world's coasts, but only on which
    // vertices lie below sea level.
    if (!crossed.empty()) {
        std::vector<std::uint32_t> flipped;
        k.ocean_tracker->update(k.g, k.elevation, k.order, crossed, flipped);
        for (const std::uint32_t r : flipped) {
            k.ocean[r] = k.ocean_tracker->ocean()[r];
            moved.push_back(r);
        }
    }
    // A vertex's record reads its neighbours' heights and ocean too.
    std::vector<std::uint32_t> changed;
    {
        std::vector<std::uint8_t> mark(k.order.size(), 0);
        const auto add = [&](std::uint32_t r) {
            if (!mark[r]) {
                mark[r] = 1;
                changed.push_back(r);
            }
        };
        for (const std::uint32_t r : moved) {
            add(r);
            for (const std::uint32_t w : k.g.neighbours(r))
                add(w);
        }
    }
    std::vector<std::pair<float, float>> old_initial;
    old_initial.reserve(changed.size());
    Local_pass local(k, k.params);
    for (const std::uint32_t r : changed) {
        old_initial.push_back(initial_air(k.sweep[r]));
        local(r);
    }
    progress.report(name(), 0.3);
    std::size_t met = 0;
    const std::vector<std::uint32_t> last =
        sweep_again(k, changed, old_initial, float(k.params.ocean_moderation),
                    rain_scale * float(k.params.rainfall), met);
    last_run_vertices_ = met;
    progress.report(name(), 0.9);

    if (output_versions(world) != k.written) {
        write_all(world, k);
    } else {
        // The layers still hold the kept run's values: only what changed is written, so an
        // edit's undo step copies the few chunks it touched rather than three whole layers.
        const auto& wind_in = *world.layer(wind_layer);
        const auto& temperature_in = *world.layer(temperature_layer);
        const auto& precipitation_in = *world.layer(precipitation_layer);
        std::vector<std::uint32_t> wind, temperature, rain; // ranks
        for (const std::uint32_t r : changed)
            if (wind_in[Vertex{k.order[r]}] != k.wind[r]) wind.push_back(r);
        for (const std::uint32_t r : last) {
            const Vertex v{k.order[r]};
            if (!same_bits(temperature_in[v], k.temperature[r])) temperature.push_back(r);
            if (!same_bits(precipitation_in[v], k.rain[r])) rain.push_back(r);
        }
        if (!wind.empty() || !temperature.empty() || !rain.empty()) {
            auto [wind_out, temperature_out, precipitation_out] =
                world.lock_layer(wind_layer, temperature_layer, precipitation_layer);
            for (const std::uint32_t r : wind)
                wind_out[Vertex{k.order[r]}] = k.wind[r];
            for (const std::uint32_t r : temperature)
                temperature_out[Vertex{k.order[r]}] = k.temperature[r];
            for (const std::uint32_t r : rain)
                precipitation_out[Vertex{k.order[r]}] = k.rain[r];
        }
    }
    return climate_report(k);
}

} // namespace orbis::gen
