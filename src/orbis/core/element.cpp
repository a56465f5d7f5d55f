// SPDX-License-Identifier: MIT
// Element names: the one place that spells and reads v12, f3, e6, d6 and c12.
#include "orbis/core/element.hpp"

#include "orbis/core/layer_info.hpp"
#include "orbis/core/world.hpp"

namespace orbis {

namespace {

// "v12": a prefix and a number. Appended, not concatenated: GCC 12 warns wrongly (-Wrestrict)
// about `"v" + std::to_string(n)`.
std::string prefixed(char prefix, std::uint32_t n) {
    std::string out(1, prefix);
    out += std::to_string(n);
    return out;
}

Edge dual_edge(std::uint32_t index) { return Edge{index | Edge::dual_bit}; }

} // namespace

std::optional<Element> parse_element(const World& world, const std::string& text) {
    if (text.size() < 2) return std::nullopt;
    std::string digits = text.substr(1);
    bool star = false;
    if (!digits.empty() && digits.back() == '*') {
        star = true;
        digits.pop_back();
    }
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
        digits.size() > 10)
        return std::nullopt;
    const unsigned long long n = std::stoull(digits);
    if (n >= Edge::dual_bit) return std::nullopt;
    const auto i = static_cast<std::uint32_t>(n);
    const Mesh& m = world.mesh();
    Element e;
    switch (text[0]) {
    case 'v':
    case 'c':
        if (star || !m.contains(Vertex(i))) return std::nullopt;
        e.kind = text[0] == 'v' ? Element::Kind::vertex : Element::Kind::cell;
        e.vertex = Vertex(i);
        return e;
    case 'f':
        if (star || !m.contains(Face(i))) return std::nullopt;
        e.kind = Element::Kind::face;
        e.face = Face(i);
        return e;
    case 'e':
        e.kind = star ? Element::Kind::dual_edge : Element::Kind::edge;
        e.edge = star ? Edge(i).rot() : Edge(i);
        break;
    case 'd':
        if (star) return std::nullopt;
        e.kind = Element::Kind::dual_edge;
        e.edge = dual_edge(i);
        break;
    default:
        return std::nullopt;
    }
    // A dual edge exists when its quad-edge does.
    if (!m.contains(e.edge.is_dual() ? e.edge.inv_rot() : e.edge)) return std::nullopt;
    return e;
}

std::string element_name(const Element& e) {
    switch (e.kind) {
    case Element::Kind::vertex:
        return prefixed('v', e.vertex.index());
    case Element::Kind::cell:
        return prefixed('c', e.vertex.index());
    case Element::Kind::face:
        return prefixed('f', e.face.index());
    case Element::Kind::edge:
        return prefixed('e', e.edge.index());
    case Element::Kind::dual_edge:
        return prefixed('d', e.edge.index());
    }
    return {};
}

glm::dvec3 element_centre(const World& world, const Element& e) {
    const Mesh& m = world.mesh();
    const auto* positions = world.layer(position_layer);
    if (!positions) return glm::dvec3(0.0);
    auto at = [&](Vertex v) { return glm::dvec3((*positions)[v]); };
    switch (e.kind) {
    case Element::Kind::vertex:
    case Element::Kind::cell:
        return at(e.vertex);
    case Element::Kind::face: {
        glm::dvec3 sum(0.0);
        double n = 0.0;
        for (const Vertex v : e.face.vertices(m)) {
            sum += at(v);
            n += 1.0;
        }
        return n > 0.0 ? sum / n : sum;
    }
    case Element::Kind::edge:
    case Element::Kind::dual_edge: {
        const Edge p = e.edge.is_dual() ? e.edge.inv_rot() : e.edge;
        return 0.5 * (at(p.origin(m)) + at(p.dest(m)));
    }
    }
    return glm::dvec3(0.0);
}

} // namespace orbis
