// SPDX-License-Identifier: MIT
// Wavefront OBJ: `v` and `f` statements only. The mesh is built like PLY's (ply_soup.hpp), so
// non-manifold input is refused with the same messages, here naming the lines too.
#include "orbis/io/obj.hpp"

#include "orbis/io/file_error.hpp"
#include "orbis/io/ply_soup.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <system_error>

namespace orbis::io {

namespace {

void append_number(std::string& out, auto v) {
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

std::vector<std::byte> encode_obj(const World& world) {
    const Mesh& m = world.mesh();
    const Layer_base* found = world.find_layer(position_layer.name());
    const auto* positions =
        found && found->type() == Layer_type::vertex && found->value_tag() == Value_type::vec3
            ? static_cast<const Layer<glm::vec3, Layer_type::vertex>*>(found)
            : nullptr;
    // Compacted 1-based numbers, only needed when some vertex slots are deleted.
    std::vector<std::uint32_t> number;
    if (m.vertex_count() != m.vertex_slots()) {
        number.assign(m.vertex_slots(), 0);
        std::uint32_t n = 0;
        for (const Vertex v : m.vertices())
            number[v.index()] = ++n;
    }
    std::string text = "# written by Orbis (orbis::io::write_obj)\n";
    text.reserve(text.size() + m.vertex_count() * 40 + m.face_count() * 24);
    for (const Vertex v : m.vertices()) {
        text += 'v';
        const glm::vec3 p = positions ? positions->at_slot(v.index()) : glm::vec3(0.0f);
        for (int i = 0; i < 3; ++i) {
            text += ' ';
            append_number(text, p[i]);
        }
        text += '\n';
    }
    for (const Face f : m.faces()) {
        text += 'f';
        int k = 0;
        for (const Vertex v : f.vertices(m)) {
            if (k++ == 3) break;
            text += ' ';
            append_number(text, number.empty() ? v.index() + 1 : number[v.index()]);
        }
        text += '\n';
    }
    std::vector<std::byte> out(text.size());
    std::memcpy(out.data(), text.data(), text.size());
    return out;
}

std::string line_part(std::size_t line) { return "line " + std::to_string(line); }

// The next whitespace-separated token of `line` from `pos`, or empty at the end.
std::string_view next_token(std::string_view line, std::size_t& pos) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t' || line[pos] == '\r'))
        ++pos;
    const std::size_t start = pos;
    while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t' && line[pos] != '\r')
        ++pos;
    return line.substr(start, pos - start);
}

std::optional<double> parse_double(std::string_view s) {
    if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc{} || r.ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

World decode_obj(std::span<const std::byte> bytes, const std::filesystem::path& name) {
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    std::vector<glm::vec3> points;
    std::vector<Triangle> triangles;
    std::vector<std::size_t> face_line;
    // Positive indices may refer to vertices further down; they are checked at the end.
    std::vector<std::int64_t> forward; // per triangle corner: the 1-based index as written
    constexpr std::uint64_t max_vertices = std::uint64_t{1} << 31;

    std::size_t pos = 0;
    std::size_t line_no = 0;
    while (pos < text.size()) {
        const std::size_t nl = text.find('\n', pos);
        const std::size_t eol = nl == std::string_view::npos ? text.size() : nl;
        std::string_view line = text.substr(pos, eol - pos);
        pos = eol + 1;
        ++line_no;
        if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        std::size_t p = 0;
        const std::string_view key = next_token(line, p);
        if (key == "v") {
            glm::vec3 v(0.0f);
            for (int i = 0; i < 3; ++i) {
                const std::string_view tok = next_token(line, p);
                const auto d = parse_double(tok);
                if (tok.empty())
                    throw File_error(name, line_part(line_no), "a vertex needs three coordinates");
                if (!d ||
                    (std::isfinite(*d) && std::abs(*d) > double(std::numeric_limits<float>::max())))
                    throw File_error(name, line_part(line_no),
                                     "'" + std::string(tok.substr(0, 40)) +
                                         "' is not a coordinate");
                v[i] = static_cast<float>(*d);
            }
            // A fourth number (w) or vertex colours may follow; they are not kept.
            if (points.size() + 1 >= max_vertices)
                throw File_error(name, line_part(line_no), "more vertices than a mesh can hold");
            points.push_back(v);
        } else if (key == "f") {
            std::array<std::int64_t, 3> corner{};
            std::size_t n = 0;
            for (std::string_view tok = next_token(line, p); !tok.empty();
                 tok = next_token(line, p), ++n) {
                if (n >= 3) continue; // counted for the message below
                // a, a/b, a//c or a/b/c: the vertex is the first number.
                const std::string_view first = tok.substr(0, tok.find('/'));
                std::int64_t idx = 0;
                const auto r = std::from_chars(first.data(), first.data() + first.size(), idx);
                if (r.ec != std::errc{} || r.ptr != first.data() + first.size() || idx == 0)
                    throw File_error(name, line_part(line_no),
                                     "'" + std::string(tok.substr(0, 40)) +
                                         "' is not a vertex reference (1-based, or negative "
                                         "counting back from the last vertex)");
                if (idx < 0) {
                    // Relative to the vertices read so far: -1 is the last one.
                    if (-idx > static_cast<std::int64_t>(points.size()))
                        throw File_error(name, line_part(line_no),
                                         "vertex " + std::to_string(idx) + " refers before the " +
                                             "first vertex (" + std::to_string(points.size()) +
                                             " vertices so far)");
                    idx = static_cast<std::int64_t>(points.size()) + idx + 1;
                }
                corner[n] = idx;
            }
            if (n > 3)
                throw File_error(name, line_part(line_no),
                                 "a polygon with " + std::to_string(n) +
                                     " corners; only triangles can be read (triangulate the mesh "
                                     "first)");
            if (n < 3)
                throw File_error(name, line_part(line_no),
                                 "a face with " + std::to_string(n) +
                                     " corners; a face needs three");
            Triangle t{};
            for (std::size_t k = 0; k < 3; ++k) {
                forward.push_back(corner[k]);
                t[k] = corner[k] > static_cast<std::int64_t>(max_vertices)
                           ? UINT32_MAX
                           : static_cast<std::uint32_t>(corner[k] - 1);
            }
            triangles.push_back(t);
            face_line.push_back(line_no);
        }
        // Everything else (vn, vt, g, o, s, usemtl, mtllib, l, p, ...) has no place in a World.
    }
    for (std::size_t i = 0; i < triangles.size(); ++i)
        for (std::size_t k = 0; k < 3; ++k)
            if (forward[3 * i + k] > static_cast<std::int64_t>(points.size()))
                throw File_error(name, line_part(face_line[i]),
                                 "vertex " + std::to_string(forward[3 * i + k]) +
                                     " does not exist (the file has " +
                                     std::to_string(points.size()) + " vertices)");

    const auto vertex_count = static_cast<std::uint32_t>(points.size());
    auto result = detail::build_mesh_checked(name, vertex_count, triangles, [&](std::size_t i) {
        return "face " + std::to_string(i) + " (" + line_part(face_line[i]) + ")";
    });
    World world;
    world.lock_mesh().assign(std::move(result.mesh));
    auto [lock] = world.lock_layer(position_layer);
    constexpr std::size_t chunk = Chunked_array<glm::vec3>::chunk_size;
    for (std::size_t c = 0; c * chunk < points.size(); ++c) {
        const std::span<glm::vec3> values = lock.chunk(c);
        for (std::size_t i = 0; i < values.size() && c * chunk + i < points.size(); ++i)
            values[i] = points[c * chunk + i];
    }
    lock.release();
    return world;
}

} // namespace

void save_obj(const World& world, const std::filesystem::path& path, Sync sync) {
    const std::vector<std::byte> bytes = encode_obj(world);
    const std::span<const std::byte> pieces[] = {bytes};
    write_file_atomically(path, pieces, sync);
}

std::vector<std::byte> write_obj(const World& world) { return encode_obj(world); }

World load_obj(const std::filesystem::path& path) { return decode_obj(read_file(path), path); }

World read_obj(std::span<const std::byte> bytes, const std::string& name) {
    return decode_obj(bytes, name);
}

} // namespace orbis::io
