// SPDX-License-Identifier: MIT
// PLY exchange. Writing lays out whole layer chunks into a preallocated buffer (binary) or
// formats them with std::to_chars (ASCII). Reading parses the header, checks every count
// against the bytes that follow before allocating anything, reads the properties into columns
// and then turns vertex and face properties into the mesh and layers.
#include "orbis/io/ply.hpp"

#include "orbis/io/file_error.hpp"
#include "orbis/io/ply_soup.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>

namespace orbis::io {

namespace {

// ---------------------------------------------------------------------------------------------
// PLY scalar types

enum class Ply_type : std::uint8_t { int8, uint8, int16, uint16, int32, uint32, float32, float64 };

constexpr std::size_t size_of(Ply_type t) {
    switch (t) {
    case Ply_type::int8:
    case Ply_type::uint8:
        return 1;
    case Ply_type::int16:
    case Ply_type::uint16:
        return 2;
    case Ply_type::int32:
    case Ply_type::uint32:
    case Ply_type::float32:
        return 4;
    case Ply_type::float64:
        return 8;
    }
    return 0;
}

constexpr bool is_integer(Ply_type t) { return t != Ply_type::float32 && t != Ply_type::float64; }

// The names Orbis writes are the original ones of the PLY paper, which every reader knows.
constexpr std::string_view type_name(Ply_type t) {
    switch (t) {
    case Ply_type::int8:
        return "char";
    case Ply_type::uint8:
        return "uchar";
    case Ply_type::int16:
        return "short";
    case Ply_type::uint16:
        return "ushort";
    case Ply_type::int32:
        return "int";
    case Ply_type::uint32:
        return "uint";
    case Ply_type::float32:
        return "float";
    case Ply_type::float64:
        return "double";
    }
    return "?";
}

std::optional<Ply_type> parse_type(std::string_view s) {
    static constexpr std::pair<std::string_view, Ply_type> names[] = {
        {"char", Ply_type::int8},      {"int8", Ply_type::int8},
        {"uchar", Ply_type::uint8},    {"uint8", Ply_type::uint8},
        {"short", Ply_type::int16},    {"int16", Ply_type::int16},
        {"ushort", Ply_type::uint16},  {"uint16", Ply_type::uint16},
        {"int", Ply_type::int32},      {"int32", Ply_type::int32},
        {"uint", Ply_type::uint32},    {"uint32", Ply_type::uint32},
        {"float", Ply_type::float32},  {"float32", Ply_type::float32},
        {"double", Ply_type::float64}, {"float64", Ply_type::float64},
    };
    for (const auto& [name, type] : names)
        if (name == s) return type;
    return std::nullopt;
}

// Smallest and largest value of an integer type, as double (exact for every PLY type).
constexpr std::pair<double, double> integer_range(Ply_type t) {
    switch (t) {
    case Ply_type::int8:
        return {-128.0, 127.0};
    case Ply_type::uint8:
        return {0.0, 255.0};
    case Ply_type::int16:
        return {-32768.0, 32767.0};
    case Ply_type::uint16:
        return {0.0, 65535.0};
    case Ply_type::int32:
        return {-2147483648.0, 2147483647.0};
    default:
        return {0.0, 4294967295.0};
    }
}

// The PLY type of each component of a layer value, as Orbis writes it.
constexpr Ply_type ply_type_of(Value_type v) {
    switch (v) {
    case Value_type::boolean:
        return Ply_type::uint8;
    case Value_type::int32:
        return Ply_type::int32;
    case Value_type::uint32:
        return Ply_type::uint32;
    case Value_type::int64: // see ply.hpp: PLY has no 64-bit integer
    case Value_type::float64:
    case Value_type::dvec2:
    case Value_type::dvec3:
    case Value_type::dvec4:
        return Ply_type::float64;
    default:
        return Ply_type::float32;
    }
}

constexpr int components_of(Value_type v) {
    switch (v) {
    case Value_type::vec2:
    case Value_type::dvec2:
        return 2;
    case Value_type::vec3:
    case Value_type::dvec3:
        return 3;
    case Value_type::vec4:
    case Value_type::dvec4:
        return 4;
    default:
        return 1;
    }
}

constexpr std::array<std::string_view, 4> component_suffix = {"_x", "_y", "_z", "_w"};

// Property names of a layer: the name itself for scalars, name_x ... for vectors.
std::vector<std::string> property_names(const std::string& layer, Value_type v) {
    const int n = components_of(v);
    if (n == 1) return {layer};
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i)
        names.push_back(layer + std::string(component_suffix[static_cast<std::size_t>(i)]));
    return names;
}

std::optional<Value_type> parse_value_type(std::string_view s) {
    for (int i = 0; i <= static_cast<int>(Value_type::dvec4); ++i) {
        const auto v = static_cast<Value_type>(i);
        const auto name = with_value_type(v, []<class T>() { return layer_value_name<T>(); });
        if (name == s) return v;
    }
    return std::nullopt;
}

std::string value_type_name(Value_type v) {
    return std::string(with_value_type(v, []<class T>() { return layer_value_name<T>(); }));
}

// int64 values are written as double, which holds every integer up to 2^53 exactly.
constexpr std::int64_t exact_int64_limit = std::int64_t{1} << 53;

// ---------------------------------------------------------------------------------------------
// Writing

constexpr std::uint32_t dead_row = UINT32_MAX;

template <class C>
void put(std::byte* out, C v) {
    if constexpr (std::endian::native == std::endian::little) {
        std::memcpy(out, &v, sizeof v);
    } else {
        std::array<std::byte, sizeof v> b;
        std::memcpy(b.data(), &v, sizeof v);
        std::reverse_copy(b.begin(), b.end(), out);
    }
}

// One layer as PLY properties.
struct Out_column {
    const Layer_base* layer = nullptr;
    Value_type value{};
    Ply_type type{}; // of each component
    std::vector<std::string> names;
    std::size_t offset = 0; // in the binary record
};

// A vertex or face element: its layers and how slots map to compacted rows.
struct Out_element {
    Layer_type kind{};
    std::size_t rows = 0;
    std::size_t record_size = 0;
    std::vector<Out_column> columns;
    std::vector<std::uint32_t> row_of_slot; // empty when no slot is deleted (row == slot)
};

std::vector<std::uint32_t> rows_of(auto range, std::size_t slots, std::size_t live) {
    std::vector<std::uint32_t> rows;
    if (live == slots) return rows;
    rows.assign(slots, dead_row);
    std::uint32_t r = 0;
    for (const auto x : range)
        rows[x.index()] = r++;
    return rows;
}

bool is_token(std::string_view name) {
    if (name.empty()) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u > ' ' && u != 127;
    });
}

template <class T>
[[noreturn]] void refuse_int64(const std::filesystem::path& path, const Layer_base& layer,
                               std::size_t slot, T value) {
    throw File_error(path,
                     std::string(layer_type_name(layer.type())) + " layer '" + layer.name() + "'",
                     layer.element_name(slot) + " = " + std::to_string(value) +
                         " cannot be written exactly: PLY has no 64-bit integer type, so int64 "
                         "layers are written as double, which holds integers up to 2^53");
}

template <class T>
void encode(std::byte* out, const T& v) {
    if constexpr (std::same_as<T, bool>) {
        *out = std::byte{v ? std::uint8_t{1} : std::uint8_t{0}};
    } else if constexpr (std::same_as<T, std::int64_t>) {
        put(out, static_cast<double>(v));
    } else if constexpr (Layer_scalar<T>) {
        put(out, v);
    } else {
        using C = Layer_component_t<T>;
        for (int i = 0; i < layer_value_length<T>; ++i)
            put(out + static_cast<std::size_t>(i) * sizeof(C), v[i]);
    }
}

// Writes one layer's live values into their records, chunk by chunk (no per-value dispatch).
template <class T, Layer_type Type>
void fill_binary(const std::filesystem::path& path, const Layer<T, Type>& layer,
                 const Out_element& el, std::size_t offset, std::byte* data) {
    constexpr std::size_t n = Chunked_array<T>::chunk_size;
    const bool compact = !el.row_of_slot.empty();
    for (std::size_t c = 0; c < layer.chunk_count(); ++c) {
        const std::span<const T> values = layer.chunk(c);
        for (std::size_t i = 0; i < values.size(); ++i) {
            const std::size_t slot = c * n + i;
            std::size_t row = slot;
            if (compact) {
                if (slot >= el.row_of_slot.size() || el.row_of_slot[slot] == dead_row) continue;
                row = el.row_of_slot[slot];
            } else if (row >= el.rows) {
                break;
            }
            if constexpr (std::same_as<T, std::int64_t>)
                if (values[i] > exact_int64_limit || values[i] < -exact_int64_limit)
                    refuse_int64(path, layer, slot, values[i]);
            encode(data + row * el.record_size + offset, values[i]);
        }
    }
}

void append_text(std::string& out, auto v) {
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

// Appends one value as ASCII properties (shortest text that reads back to the same value).
template <class T>
void append_value(std::string& out, const T& v) {
    if constexpr (std::same_as<T, bool>) {
        out += v ? '1' : '0';
    } else if constexpr (Layer_scalar<T>) {
        append_text(out, v);
    } else {
        for (int i = 0; i < layer_value_length<T>; ++i) {
            if (i) out += ' ';
            append_text(out, v[i]);
        }
    }
}

template <Layer_type Type, class F>
decltype(auto) with_typed_layer(const Layer_base& layer, F&& f) {
    return with_value_type(layer.value_tag(), [&]<class T>() -> decltype(auto) {
        return f(static_cast<const Layer<T, Type>&>(layer));
    });
}

// Chooses the layers to write and their property names; refuses names PLY cannot carry.
Out_element plan_element(const std::filesystem::path& path, const World& world, Layer_type kind,
                         const Layer_base* positions) {
    const Mesh& m = world.mesh();
    Out_element el;
    el.kind = kind;
    std::map<std::string, std::string, std::less<>> owner; // property -> what it is for
    if (kind == Layer_type::vertex) {
        el.rows = m.vertex_count();
        el.row_of_slot = rows_of(m.vertices(), m.vertex_slots(), m.vertex_count());
        for (const char* p : {"x", "y", "z"})
            owner[p] = "the vertex position";
        el.record_size = 12;
    } else {
        el.rows = m.face_count();
        el.row_of_slot = rows_of(m.faces(), m.face_slots(), m.face_count());
        for (const char* p : {"vertex_indices", "vertex_index"})
            owner[p] = "the face corners";
        el.record_size = 13;
    }
    for (const std::string& name : world.layer_names()) {
        const Layer_base* layer = world.find_layer(name);
        if (!layer || layer->type() != kind || layer == positions) continue;
        const std::string what =
            std::string(layer_type_name(kind)) + " layer '" + layer->name() + "'";
        if (name == position_layer.name())
            throw File_error(path, what,
                             "in PLY the name belongs to the vertex positions x, y, z (a vec3 "
                             "vertex layer); rename the layer to export it");
        if (!is_token(name))
            throw File_error(path, what,
                             "PLY property names cannot be empty or contain spaces or control "
                             "characters; rename the layer to export it");
        Out_column col;
        col.layer = layer;
        col.value = layer->value_tag();
        col.type = ply_type_of(col.value);
        col.names = property_names(name, col.value);
        for (const std::string& p : col.names) {
            if (const auto it = owner.find(p); it != owner.end())
                throw File_error(path, what,
                                 "its PLY property '" + p + "' would clash with " + it->second +
                                     "; rename one of the layers to export them");
            owner[p] = what;
        }
        col.offset = el.record_size;
        el.record_size += size_of(col.type) * col.names.size();
        el.columns.push_back(std::move(col));
    }
    return el;
}

std::string header_text(const Out_element& vertices, const Out_element& faces, Ply_format format,
                        bool wide_indices) {
    std::string h = "ply\nformat ";
    h += format == Ply_format::ascii ? "ascii 1.0\n" : "binary_little_endian 1.0\n";
    h += "comment written by Orbis (orbis::io::write_ply)\n";
    // Layer types PLY cannot say (bool, int64, which components form a vector) survive a round
    // trip through these comments; other readers ignore them.
    for (const Out_element* el : {&vertices, &faces})
        for (const Out_column& c : el->columns)
            h += "comment orbis_layer " + std::string(layer_type_name(el->kind)) + " " +
                 c.layer->name() + " " + value_type_name(c.value) + "\n";
    for (const Out_element* el : {&vertices, &faces}) {
        const bool v = el->kind == Layer_type::vertex;
        h += std::string("element ") + (v ? "vertex " : "face ") + std::to_string(el->rows) + "\n";
        if (v)
            h += "property float x\nproperty float y\nproperty float z\n";
        else
            h += wide_indices ? "property list uchar uint vertex_indices\n"
                              : "property list uchar int vertex_indices\n";
        for (const Out_column& c : el->columns)
            for (const std::string& p : c.names)
                h += "property " + std::string(type_name(c.type)) + " " + p + "\n";
    }
    h += "end_header\n";
    return h;
}

std::vector<std::byte> encode_ply(const World& world, Ply_format format,
                                  const std::filesystem::path& path) {
    const Mesh& m = world.mesh();
    const Layer_base* positions = nullptr;
    if (const Layer_base* p = world.find_layer(position_layer.name());
        p && p->type() == Layer_type::vertex && p->value_tag() == Value_type::vec3)
        positions = p;
    const Out_element vertices = plan_element(path, world, Layer_type::vertex, positions);
    const Out_element faces = plan_element(path, world, Layer_type::face, positions);
    // Signed indices are what most readers expect; a file that needs more than 2^31 vertices
    // says uint instead.
    const bool wide = vertices.rows > std::size_t{INT32_MAX};
    const std::string header = header_text(vertices, faces, format, wide);

    // The corners counterclockwise from f.edge's origin: origin and dest of that edge share
    // one quad-edge record, and the third corner is the dest of the next edge around the
    // origin (mesh_construction.cpp links a face's edges so), so two records per face.
    auto corners = [&](Face f, std::array<std::uint32_t, 3>& out) {
        const Edge e = f.edge(m);
        out = {e.origin(m).index(), e.dest(m).index(), e.origin_next(m).dest(m).index()};
        if (!vertices.row_of_slot.empty())
            for (auto& x : out)
                x = vertices.row_of_slot[x];
    };

    if (format == Ply_format::binary_little_endian) {
        const std::size_t size =
            header.size() + vertices.rows * vertices.record_size + faces.rows * faces.record_size;
        std::vector<std::byte> out(size); // zeroed: the positions of a world without any
        std::memcpy(out.data(), header.data(), header.size());
        std::byte* const vdata = out.data() + header.size();
        std::byte* const fdata = vdata + vertices.rows * vertices.record_size;
        if (positions)
            fill_binary(path, static_cast<const Layer<glm::vec3, Layer_type::vertex>&>(*positions),
                        vertices, 0, vdata);
        for (const Out_column& c : vertices.columns)
            with_typed_layer<Layer_type::vertex>(*c.layer, [&](const auto& layer) {
                fill_binary(path, layer, vertices, c.offset, vdata);
            });
        std::size_t row = 0;
        std::array<std::uint32_t, 3> t{};
        for (const Face f : m.faces()) {
            std::byte* rec = fdata + row++ * faces.record_size;
            corners(f, t);
            rec[0] = std::byte{3};
            for (std::size_t i = 0; i < 3; ++i)
                put(rec + 1 + 4 * i, t[i]); // same bits for int and uint below 2^31
        }
        for (const Out_column& c : faces.columns)
            with_typed_layer<Layer_type::face>(*c.layer, [&](const auto& layer) {
                fill_binary(path, layer, faces, c.offset, fdata);
            });
        return out;
    }

    // ASCII: one line per element, values in the shortest form that reads back exactly.
    std::string text = header;
    text.reserve(header.size() + vertices.rows * (30 + 12 * vertices.columns.size()) +
                 faces.rows * (20 + 12 * faces.columns.size()));
    using Appender = void (*)(std::string&, const Layer_base&, std::size_t);
    auto appenders = [&]<Layer_type Type>(const Out_element& el) {
        std::vector<Appender> list;
        for (const Out_column& c : el.columns)
            list.push_back(with_value_type(c.value, []<class T>() -> Appender {
                return [](std::string& out, const Layer_base& layer, std::size_t slot) {
                    append_value(out, static_cast<const Layer<T, Type>&>(layer).at_slot(slot));
                };
            }));
        return list;
    };
    const auto vertex_appenders = appenders.template operator()<Layer_type::vertex>(vertices);
    const auto face_appenders = appenders.template operator()<Layer_type::face>(faces);
    const auto* pos = static_cast<const Layer<glm::vec3, Layer_type::vertex>*>(positions);
    for (const Vertex v : m.vertices()) {
        if (pos)
            append_value(text, pos->at_slot(v.index()));
        else
            text += "0 0 0";
        for (std::size_t i = 0; i < vertices.columns.size(); ++i) {
            const Out_column& c = vertices.columns[i];
            if (c.value == Value_type::int64) {
                const auto x =
                    static_cast<const Layer<std::int64_t, Layer_type::vertex>&>(*c.layer).at_slot(
                        v.index());
                if (x > exact_int64_limit || x < -exact_int64_limit)
                    refuse_int64(path, *c.layer, v.index(), x);
            }
            text += ' ';
            vertex_appenders[i](text, *c.layer, v.index());
        }
        text += '\n';
    }
    std::array<std::uint32_t, 3> t{};
    for (const Face f : m.faces()) {
        corners(f, t);
        text += '3';
        for (const std::uint32_t x : t) {
            text += ' ';
            append_text(text, x);
        }
        for (std::size_t i = 0; i < faces.columns.size(); ++i) {
            const Out_column& c = faces.columns[i];
            if (c.value == Value_type::int64) {
                const auto x =
                    static_cast<const Layer<std::int64_t, Layer_type::face>&>(*c.layer).at_slot(
                        f.index());
                if (x > exact_int64_limit || x < -exact_int64_limit)
                    refuse_int64(path, *c.layer, f.index(), x);
            }
            text += ' ';
            face_appenders[i](text, *c.layer, f.index());
        }
        text += '\n';
    }
    std::vector<std::byte> out(text.size());
    std::memcpy(out.data(), text.data(), text.size());
    return out;
}

// ---------------------------------------------------------------------------------------------
// Reading: the header

enum class Encoding { ascii, binary_little_endian, binary_big_endian };

struct In_property {
    std::string name;
    bool list = false;
    Ply_type type{};       // the value's type, or the type of a list's items
    Ply_type count_type{}; // lists only
};

struct In_element {
    std::string name;
    std::uint64_t count = 0;
    std::vector<In_property> properties;
    std::size_t line = 0; // of the header
};

// A `comment orbis_layer ELEMENT NAME TYPE` line.
struct Annotation {
    std::string element;
    std::string name;
    Value_type type{};
};

struct In_header {
    Encoding encoding = Encoding::ascii;
    std::vector<In_element> elements;
    std::vector<Annotation> annotations;
    std::size_t data_offset = 0; // first byte after end_header's line
    std::size_t data_line = 0;   // line number of that byte (ASCII messages)
};

std::string header_line(std::size_t n) { return "header line " + std::to_string(n); }

std::vector<std::string_view> split_tokens(std::string_view line) {
    std::vector<std::string_view> tokens;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        if (i > start) tokens.push_back(line.substr(start, i - start));
    }
    return tokens;
}

std::optional<std::uint64_t> parse_count(std::string_view s) {
    std::uint64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc{} || r.ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

In_header parse_header(std::string_view text, const std::filesystem::path& name) {
    In_header h;
    std::size_t pos = 0;
    std::size_t line_no = 0;
    bool have_format = false;
    bool ended = false;
    while (!ended) {
        const std::size_t eol = text.find('\n', pos);
        ++line_no;
        if (eol == std::string_view::npos)
            throw File_error(name, header_line(line_no),
                             line_no == 1 ? "not a PLY file (no header)"
                                          : "the header ends without an end_header line");
        std::string_view line = text.substr(pos, eol - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        pos = eol + 1;
        if (line_no == 1) {
            const auto first = split_tokens(line);
            if (first.size() != 1 || first[0] != "ply")
                throw File_error(name, header_line(1),
                                 "not a PLY file (the first line is not 'ply')");
            continue;
        }
        if (line.find('\0') != std::string_view::npos)
            throw File_error(name, header_line(line_no),
                             "the header contains a NUL byte (is end_header missing?)");
        const auto tok = split_tokens(line);
        if (tok.empty()) continue; // not in the format, but harmless
        const std::string_view key = tok[0];
        auto bad = [&](const std::string& problem) {
            return File_error(name, header_line(line_no), problem);
        };
        if (key == "comment" || key == "obj_info") {
            if (key == "comment" && tok.size() == 5 && tok[1] == "orbis_layer" &&
                (tok[2] == "vertex" || tok[2] == "face"))
                if (const auto type = parse_value_type(tok[4]))
                    h.annotations.push_back({std::string(tok[2]), std::string(tok[3]), *type});
        } else if (key == "format") {
            if (have_format) throw bad("a second format line");
            if (tok.size() != 3) throw bad("expected 'format ENCODING 1.0'");
            if (tok[1] == "ascii")
                h.encoding = Encoding::ascii;
            else if (tok[1] == "binary_little_endian")
                h.encoding = Encoding::binary_little_endian;
            else if (tok[1] == "binary_big_endian")
                h.encoding = Encoding::binary_big_endian;
            else
                throw bad("unknown encoding '" + std::string(tok[1]) + "'");
            if (tok[2] != "1.0" && tok[2] != "1")
                throw bad("unsupported PLY version '" + std::string(tok[2]) + "' (1.0 is known)");
            have_format = true;
        } else if (key == "element") {
            if (tok.size() != 3) throw bad("expected 'element NAME COUNT'");
            const auto count = parse_count(tok[2]);
            if (!count)
                throw bad("the element count '" + std::string(tok[2]) + "' is not a number");
            for (const In_element& e : h.elements)
                if (e.name == tok[1]) throw bad("a second element '" + std::string(tok[1]) + "'");
            h.elements.push_back({std::string(tok[1]), *count, {}, line_no});
        } else if (key == "property") {
            if (h.elements.empty()) throw bad("a property before any element");
            In_property p;
            if (tok.size() >= 2 && tok[1] == "list") {
                if (tok.size() != 5) throw bad("expected 'property list COUNT_TYPE TYPE NAME'");
                const auto ct = parse_type(tok[2]);
                const auto it = parse_type(tok[3]);
                if (!ct || !is_integer(*ct))
                    throw bad("the list count type '" + std::string(tok[2]) +
                              "' is not an integer type");
                if (!it) throw bad("unknown type '" + std::string(tok[3]) + "'");
                p.list = true;
                p.count_type = *ct;
                p.type = *it;
                p.name = tok[4];
            } else {
                if (tok.size() != 3) throw bad("expected 'property TYPE NAME'");
                const auto t = parse_type(tok[1]);
                if (!t) throw bad("unknown type '" + std::string(tok[1]) + "'");
                p.type = *t;
                p.name = tok[2];
            }
            for (const In_property& q : h.elements.back().properties)
                if (q.name == p.name)
                    throw bad("a second property '" + p.name + "' in element '" +
                              h.elements.back().name + "'");
            h.elements.back().properties.push_back(std::move(p));
        } else if (key == "end_header") {
            if (tok.size() != 1) throw bad("unexpected text after end_header");
            ended = true;
        } else {
            throw bad("unknown header keyword '" + std::string(key) + "'");
        }
    }
    if (!have_format) throw File_error(name, "header", "no format line");
    h.data_offset = pos;
    h.data_line = line_no + 1;
    return h;
}

// ---------------------------------------------------------------------------------------------
// Reading: the data

// What happens to each property of an element while reading.
enum class Role : std::uint8_t { skip, column, corners };

struct Element_plan {
    const In_element* element = nullptr;
    std::vector<Role> roles;                  // per property
    std::vector<std::size_t> column_of;       // per property: index into columns
    std::vector<std::vector<double>> columns; // scalar values, one per column property
};

// Everything read from the data, before the mesh is built.
struct Read_data {
    std::uint32_t vertex_count = 0;
    std::vector<Triangle> triangles;
};

std::string element_part(const In_element& e, std::uint64_t index, std::size_t line = 0) {
    std::string s = e.name + " " + std::to_string(index);
    if (line) s += " (line " + std::to_string(line) + ")";
    return s;
}

template <class C>
C get(const std::byte* p, bool swap) {
    std::array<std::byte, sizeof(C)> b;
    std::memcpy(b.data(), p, sizeof(C));
    if (swap) std::reverse(b.begin(), b.end());
    return std::bit_cast<C>(b);
}

template <bool Swap>
double read_scalar(const std::byte* p, Ply_type t) {
    switch (t) {
    case Ply_type::int8:
        return get<std::int8_t>(p, Swap);
    case Ply_type::uint8:
        return get<std::uint8_t>(p, Swap);
    case Ply_type::int16:
        return get<std::int16_t>(p, Swap);
    case Ply_type::uint16:
        return get<std::uint16_t>(p, Swap);
    case Ply_type::int32:
        return get<std::int32_t>(p, Swap);
    case Ply_type::uint32:
        return get<std::uint32_t>(p, Swap);
    case Ply_type::float32:
        return get<float>(p, Swap);
    case Ply_type::float64:
        return get<double>(p, Swap);
    }
    return 0;
}

template <bool Swap>
std::int64_t read_integer(const std::byte* p, Ply_type t) {
    switch (t) {
    case Ply_type::int8:
        return get<std::int8_t>(p, Swap);
    case Ply_type::uint8:
        return get<std::uint8_t>(p, Swap);
    case Ply_type::int16:
        return get<std::int16_t>(p, Swap);
    case Ply_type::uint16:
        return get<std::uint16_t>(p, Swap);
    case Ply_type::int32:
        return get<std::int32_t>(p, Swap);
    case Ply_type::uint32:
        return get<std::uint32_t>(p, Swap);
    default:
        return -1; // float types are refused before reading
    }
}

class Reader {
public:
    Reader(std::span<const std::byte> bytes, const std::filesystem::path& name,
           const In_header& header)
        : bytes_(bytes)
        , name_(name)
        , header_(header)
        , vertex_count_(count_vertices(header)) {}

    // Reads every element; fills `plans` for vertex and face and `data`.
    void read(std::vector<Element_plan>& plans, Read_data& data) {
        std::size_t pos = header_.data_offset;
        std::size_t line = header_.data_line;
        for (Element_plan& plan : plans) {
            if (header_.encoding == Encoding::ascii)
                read_ascii(plan, data, pos, line);
            else if (header_.encoding == Encoding::binary_little_endian)
                read_binary<std::endian::native != std::endian::little>(plan, data, pos);
            else
                read_binary<std::endian::native != std::endian::big>(plan, data, pos);
        }
        if (header_.encoding == Encoding::ascii) {
            // Whitespace may follow the last element; anything else means the counts are wrong.
            for (; pos < bytes_.size(); ++pos) {
                const char c = static_cast<char>(bytes_[pos]);
                if (c == '\n')
                    ++line;
                else if (c != ' ' && c != '\t' && c != '\r')
                    throw File_error(name_, "line " + std::to_string(line),
                                     "data after the last element (the header's counts are "
                                     "smaller than the data)");
            }
        }
        // Binary files may carry trailing bytes (padding); they are ignored.
    }

private:
    // The fewest bytes one record can take (lists empty, except the three face corners).
    static std::size_t min_record_bytes(const Element_plan& plan, bool ascii) {
        std::size_t n = 0;
        for (std::size_t i = 0; i < plan.roles.size(); ++i) {
            const In_property& p = plan.element->properties[i];
            if (ascii) {
                // A value and a separator (space or newline).
                n += 2 * (p.list ? 1 + (plan.roles[i] == Role::corners ? 3 : 0) : 1);
            } else if (p.list) {
                n += size_of(p.count_type) +
                     (plan.roles[i] == Role::corners ? 3 * size_of(p.type) : 0);
            } else {
                n += size_of(p.type);
            }
        }
        return n;
    }

    // Binary: refuses counts the remaining bytes cannot hold, before anything is allocated for
    // them. ASCII: reserves only what the remaining bytes can hold; a short file is then reported
    // at the record where it ends, which says more than a count would.
    void prepare(Element_plan& plan, Read_data& data, std::size_t pos, bool ascii) {
        const In_element& e = *plan.element;
        const std::size_t min = min_record_bytes(plan, ascii);
        const std::size_t left = bytes_.size() - std::min(pos, bytes_.size());
        // An ASCII file may omit the last newline.
        const std::size_t room = ascii ? left + 1 : left;
        std::uint64_t capacity = e.count;
        if (min > 0 && e.count > room / min) {
            if (!ascii)
                throw File_error(name_, header_line(e.line),
                                 "element '" + e.name + "' announces " + std::to_string(e.count) +
                                     " records of at least " + std::to_string(min) +
                                     " bytes each, but only " + std::to_string(left) +
                                     " bytes follow (truncated file or forged count)");
            capacity = room / min;
        }
        for (auto& column : plan.columns)
            column.reserve(static_cast<std::size_t>(capacity));
        if (std::find(plan.roles.begin(), plan.roles.end(), Role::corners) != plan.roles.end())
            data.triangles.reserve(static_cast<std::size_t>(capacity));
    }

    [[noreturn]] void wrong_corner_count(const In_element& e, std::uint64_t r, std::int64_t n,
                                         std::size_t line = 0) {
        if (n > 3)
            throw File_error(name_, element_part(e, r, line),
                             "has " + std::to_string(n) +
                                 " corners; only triangles can be read (triangulate the mesh "
                                 "first)");
        throw File_error(name_, element_part(e, r, line),
                         "has " + std::to_string(n) + " corners; a face needs three");
    }

    void check_corner(const In_element& e, std::uint64_t r, std::int64_t v, std::size_t line = 0) {
        if (v < 0 || static_cast<std::uint64_t>(v) >= vertex_limit())
            throw File_error(name_, element_part(e, r, line),
                             "corner " + std::to_string(v) + " is not a vertex (the file has " +
                                 std::to_string(vertex_limit()) + " vertices)");
    }

    // The number of vertices, from the header (faces may come before the vertices).
    std::uint64_t vertex_limit() const { return vertex_count_; }

    static std::uint64_t count_vertices(const In_header& header) {
        for (const In_element& e : header.elements)
            if (e.name == "vertex") return e.count;
        return 0;
    }

    template <bool Swap>
    void read_binary(Element_plan& plan, Read_data& data, std::size_t& pos) {
        const In_element& e = *plan.element;
        if (e.properties.empty()) return; // no bytes, whatever the count
        prepare(plan, data, pos, false);
        const std::byte* p = bytes_.data() + pos;
        const std::byte* const end = bytes_.data() + bytes_.size();
        auto truncated = [&](std::uint64_t r) {
            return File_error(name_, element_part(e, r),
                              "the file ends inside this record (the header announces " +
                                  std::to_string(e.count) + ")");
        };
        const std::size_t nprops = e.properties.size();
        for (std::uint64_t r = 0; r < e.count; ++r) {
            for (std::size_t i = 0; i < nprops; ++i) {
                const In_property& prop = e.properties[i];
                if (!prop.list) {
                    const std::size_t size = size_of(prop.type);
                    if (static_cast<std::size_t>(end - p) < size) throw truncated(r);
                    if (plan.roles[i] == Role::column)
                        plan.columns[plan.column_of[i]].push_back(read_scalar<Swap>(p, prop.type));
                    p += size;
                    continue;
                }
                const std::size_t csize = size_of(prop.count_type);
                if (static_cast<std::size_t>(end - p) < csize) throw truncated(r);
                const std::int64_t n = read_integer<Swap>(p, prop.count_type);
                p += csize;
                if (n < 0)
                    throw File_error(name_, element_part(e, r),
                                     "list '" + prop.name + "' has a negative length " +
                                         std::to_string(n));
                const std::size_t isize = size_of(prop.type);
                if (static_cast<std::uint64_t>(end - p) / isize < static_cast<std::uint64_t>(n))
                    throw truncated(r);
                if (plan.roles[i] == Role::corners) {
                    if (n != 3) wrong_corner_count(e, r, n);
                    Triangle t{};
                    for (std::size_t k = 0; k < 3; ++k) {
                        const std::int64_t v = read_integer<Swap>(p + k * isize, prop.type);
                        check_corner(e, r, v);
                        t[k] = static_cast<std::uint32_t>(v);
                    }
                    data.triangles.push_back(t);
                }
                p += static_cast<std::size_t>(n) * isize;
            }
        }
        pos = static_cast<std::size_t>(p - bytes_.data());
    }

    // One token of the current ASCII line, or an empty view at the end of the line.
    std::string_view next_token(std::size_t& pos, std::size_t eol) const {
        const char* text = reinterpret_cast<const char*>(bytes_.data());
        while (pos < eol && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\r'))
            ++pos;
        const std::size_t start = pos;
        while (pos < eol && text[pos] != ' ' && text[pos] != '\t' && text[pos] != '\r')
            ++pos;
        return {text + start, pos - start};
    }

    // Parses an ASCII value of PLY type t, range-checked; nullopt for garbage.
    static std::optional<double> parse_value(std::string_view s, Ply_type t) {
        if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);
        const char* first = s.data();
        const char* last = s.data() + s.size();
        if (is_integer(t)) {
            std::int64_t v = 0;
            const auto r = std::from_chars(first, last, v);
            if (r.ec != std::errc{} || r.ptr != last) return std::nullopt;
            const auto [lo, hi] = integer_range(t);
            const auto d = static_cast<double>(v);
            if (d < lo || d > hi) return std::nullopt;
            return d;
        }
        double v = 0;
        const auto r = std::from_chars(first, last, v);
        if (r.ec != std::errc{} || r.ptr != last) return std::nullopt;
        if (t == Ply_type::float32 && std::isfinite(v) &&
            std::abs(v) > static_cast<double>(std::numeric_limits<float>::max()))
            return std::nullopt;
        return v;
    }

    void read_ascii(Element_plan& plan, Read_data& data, std::size_t& pos, std::size_t& line) {
        const In_element& e = *plan.element;
        if (e.properties.empty() || e.count == 0) return;
        prepare(plan, data, pos, true);
        const char* text = reinterpret_cast<const char*>(bytes_.data());
        const std::size_t size = bytes_.size();
        for (std::uint64_t r = 0; r < e.count; ++r) {
            // The record's line; blank lines are skipped.
            std::size_t eol = pos;
            for (;;) {
                if (pos >= size)
                    throw File_error(name_, element_part(e, r, line),
                                     "the file ends before this record (the header announces " +
                                         std::to_string(e.count) + ")");
                const void* nl = std::memchr(text + pos, '\n', size - pos);
                eol = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - text) : size;
                std::size_t q = pos;
                if (!next_token(q, eol).empty()) break;
                pos = eol + 1;
                ++line;
            }
            auto value = [&](const In_property& prop, Ply_type t, const char* what) {
                const std::string_view tok = next_token(pos, eol);
                if (tok.empty())
                    throw File_error(name_, element_part(e, r, line),
                                     std::string("the line ends before ") + what + " of '" +
                                         prop.name + "'");
                const auto v = parse_value(tok, t);
                if (!v)
                    throw File_error(name_, element_part(e, r, line),
                                     "'" + std::string(tok.substr(0, 40)) + "' is not a valid " +
                                         std::string(type_name(t)) + " (" + what + " of '" +
                                         prop.name + "')");
                return *v;
            };
            for (std::size_t i = 0; i < e.properties.size(); ++i) {
                const In_property& prop = e.properties[i];
                if (!prop.list) {
                    const double v = value(prop, prop.type, "the value");
                    if (plan.roles[i] == Role::column) plan.columns[plan.column_of[i]].push_back(v);
                    continue;
                }
                const auto n =
                    static_cast<std::int64_t>(value(prop, prop.count_type, "the length"));
                if (n < 0)
                    throw File_error(name_, element_part(e, r, line),
                                     "list '" + prop.name + "' has a negative length " +
                                         std::to_string(n));
                if (plan.roles[i] == Role::corners) {
                    if (n != 3) wrong_corner_count(e, r, n, line);
                    Triangle t{};
                    for (std::size_t k = 0; k < 3; ++k) {
                        const auto v =
                            static_cast<std::int64_t>(value(prop, prop.type, "a corner"));
                        check_corner(e, r, v, line);
                        t[k] = static_cast<std::uint32_t>(v);
                    }
                    data.triangles.push_back(t);
                } else {
                    for (std::int64_t k = 0; k < n; ++k)
                        (void)value(prop, prop.type, "an item");
                }
            }
            if (!next_token(pos, eol).empty())
                throw File_error(name_, element_part(e, r, line),
                                 "more values on the line than the header's " +
                                     std::to_string(e.properties.size()) + " properties");
            pos = eol + 1;
            ++line;
        }
    }

    std::span<const std::byte> bytes_;
    const std::filesystem::path& name_;
    const In_header& header_;
    std::uint64_t vertex_count_;
};

// ---------------------------------------------------------------------------------------------
// Reading: from properties to layers

// A layer to create from properties of the vertex or face element.
struct Layer_plan {
    std::string name;
    Value_type type{};
    std::vector<std::size_t> properties; // component order
};

bool is_float_type(Ply_type t) { return !is_integer(t); }

// The layer type of a lone scalar property with no annotation.
Value_type scalar_layer_type(Ply_type t) {
    switch (t) {
    case Ply_type::uint32:
        return Value_type::uint32;
    case Ply_type::float32:
        return Value_type::float32;
    case Ply_type::float64:
        return Value_type::float64;
    default:
        return Value_type::int32; // every smaller integer fits
    }
}

std::vector<Layer_plan> plan_layers(const In_element& e, const std::vector<Role>& roles,
                                    const std::vector<Annotation>& annotations) {
    const auto& props = e.properties;
    std::vector<bool> claimed(props.size());
    for (std::size_t i = 0; i < props.size(); ++i)
        claimed[i] = roles[i] != Role::column || props[i].list;
    if (e.name == "vertex")
        for (std::size_t i = 0; i < props.size(); ++i)
            if (props[i].name == "x" || props[i].name == "y" || props[i].name == "z")
                claimed[i] = true;
    auto find = [&](const std::string& name) -> std::optional<std::size_t> {
        for (std::size_t i = 0; i < props.size(); ++i)
            if (!claimed[i] && props[i].name == name) return i;
        return std::nullopt;
    };

    std::vector<Layer_plan> plans;
    // Orbis's own comments say exactly which properties form which layer; they are trusted only
    // when the properties are there with the types Orbis writes.
    for (const Annotation& a : annotations) {
        if (a.element != e.name) continue;
        Layer_plan plan{a.name, a.type, {}};
        for (const std::string& p : property_names(a.name, a.type)) {
            const auto i = find(p);
            if (!i || props[*i].type != ply_type_of(a.type)) {
                plan.properties.clear();
                break;
            }
            plan.properties.push_back(*i);
        }
        if (plan.properties.empty()) continue;
        for (const std::size_t i : plan.properties)
            claimed[i] = true;
        plans.push_back(std::move(plan));
    }
    // Other properties: NAME_x, NAME_y (, NAME_z (, NAME_w)) of floating types form a vector.
    for (std::size_t i = 0; i < props.size(); ++i) {
        if (claimed[i]) continue;
        const std::string& n = props[i].name;
        if (n.size() > 2 && n.ends_with("_x") && is_float_type(props[i].type)) {
            const std::string base = n.substr(0, n.size() - 2);
            std::vector<std::size_t> comps{i};
            for (std::size_t k = 1; k < 4; ++k) {
                const auto j = find(base + std::string(component_suffix[k]));
                if (!j || !is_float_type(props[*j].type)) break;
                comps.push_back(*j);
            }
            if (comps.size() >= 2) {
                const bool wide = std::any_of(comps.begin(), comps.end(), [&](std::size_t j) {
                    return props[j].type == Ply_type::float64;
                });
                const Value_type types[2][3] = {
                    {Value_type::vec2, Value_type::vec3, Value_type::vec4},
                    {Value_type::dvec2, Value_type::dvec3, Value_type::dvec4}};
                for (const std::size_t j : comps)
                    claimed[j] = true;
                plans.push_back({base, types[wide ? 1 : 0][comps.size() - 2], comps});
                continue;
            }
        }
        claimed[i] = true;
        plans.push_back({n, scalar_layer_type(props[i].type), {i}});
    }
    return plans;
}

std::string describe_properties(const In_element& e, const Layer_plan& plan) {
    std::string s = e.name + (plan.properties.size() > 1 ? " properties " : " property ");
    for (std::size_t k = 0; k < plan.properties.size(); ++k)
        s += (k ? ", " : "") + e.properties[plan.properties[k]].name;
    return s;
}

// Converts the columns of one layer's properties into values of T (checking what can fail).
template <class T>
T make_value(const std::vector<const std::vector<double>*>& cols, std::size_t row,
             const auto& fail) {
    if constexpr (std::same_as<T, bool>) {
        return (*cols[0])[row] != 0;
    } else if constexpr (std::same_as<T, std::int64_t>) {
        const double d = (*cols[0])[row];
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || d != std::trunc(d))
            fail(row, d);
        return static_cast<std::int64_t>(d);
    } else if constexpr (Layer_scalar<T>) {
        return static_cast<T>((*cols[0])[row]);
    } else {
        using C = Layer_component_t<T>;
        T v(C{0});
        for (int i = 0; i < layer_value_length<T>; ++i)
            v[i] = static_cast<C>((*cols[static_cast<std::size_t>(i)])[row]);
        return v;
    }
}

template <class T, Layer_type Type>
void fill_layer(World& world, const Layer_info<T, Type>& info,
                const std::vector<const std::vector<double>*>& cols, std::size_t rows,
                std::span<const Face> faces, const auto& fail) {
    auto [lock] = world.lock_layer(info);
    if constexpr (Type == Layer_type::vertex) {
        constexpr std::size_t n = Chunked_array<T>::chunk_size;
        for (std::size_t c = 0; c * n < rows; ++c) {
            const std::span<T> chunk = lock.chunk(c);
            const std::size_t count = std::min(chunk.size(), rows - c * n);
            for (std::size_t i = 0; i < count; ++i)
                chunk[i] = make_value<T>(cols, c * n + i, fail);
        }
    } else {
        for (std::size_t r = 0; r < rows; ++r)
            lock[faces[r]] = make_value<T>(cols, r, fail);
    }
}

World decode_ply(std::span<const std::byte> bytes, const std::filesystem::path& name) {
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const In_header header = parse_header(text, name);

    std::vector<Element_plan> plans(header.elements.size());
    const In_element* vertex = nullptr;
    const In_element* face = nullptr;
    std::size_t vertex_plan = 0, face_plan = 0;
    for (std::size_t k = 0; k < header.elements.size(); ++k) {
        const In_element& e = header.elements[k];
        Element_plan& plan = plans[k];
        plan.element = &e;
        plan.roles.assign(e.properties.size(), Role::skip);
        plan.column_of.assign(e.properties.size(), 0);
        const bool is_vertex = e.name == "vertex";
        const bool is_face = e.name == "face";
        if (is_vertex) vertex = &e, vertex_plan = k;
        if (is_face) face = &e, face_plan = k;
        if (!is_vertex && !is_face) continue; // read past, never stored
        bool have_corners = false;
        for (std::size_t i = 0; i < e.properties.size(); ++i) {
            const In_property& p = e.properties[i];
            if (p.list) {
                if (is_face && !have_corners &&
                    (p.name == "vertex_indices" || p.name == "vertex_index")) {
                    if (!is_integer(p.type))
                        throw File_error(name, header_line(e.line),
                                         "the face list '" + p.name +
                                             "' has the non-integer "
                                             "type " +
                                             std::string(type_name(p.type)));
                    plan.roles[i] = Role::corners;
                    have_corners = true;
                }
                continue; // other lists (texture coordinates, ...) have no layer to go to
            }
            plan.roles[i] = Role::column;
            plan.column_of[i] = plan.columns.size();
            plan.columns.emplace_back();
        }
        if (is_face && !have_corners && e.count > 0)
            throw File_error(name, header_line(e.line),
                             "the face element has no 'vertex_indices' list");
        if (is_vertex) {
            for (const char* axis : {"x", "y", "z"}) {
                const auto it = std::find_if(e.properties.begin(), e.properties.end(),
                                             [&](const In_property& p) { return p.name == axis; });
                if (it == e.properties.end() || it->list)
                    throw File_error(name, header_line(e.line),
                                     std::string("the vertex element has no scalar property '") +
                                         axis + "'");
            }
        }
    }
    // Ids are 32 bits and a mesh holds fewer than 2^30 quad-edges (mesh.hpp).
    if (vertex && vertex->count >= (std::uint64_t{1} << 31))
        throw File_error(name, header_line(vertex->line),
                         std::to_string(vertex->count) + " vertices are more than a mesh can hold");
    if (face && face->count >= (std::uint64_t{1} << 30))
        throw File_error(name, header_line(face->line),
                         std::to_string(face->count) + " faces are more than a mesh can hold");

    // Layers are planned (and name clashes refused) before the data is read.
    std::vector<Layer_plan> vertex_layers, face_layers;
    if (vertex) vertex_layers = plan_layers(*vertex, plans[vertex_plan].roles, header.annotations);
    if (face) face_layers = plan_layers(*face, plans[face_plan].roles, header.annotations);
    {
        std::map<std::string, std::string, std::less<>> owner;
        if (vertex) owner[std::string(position_layer.name())] = "the vertex positions x, y, z";
        for (const auto& [e, list] :
             {std::pair{vertex, &vertex_layers}, std::pair{face, &face_layers}})
            for (const Layer_plan& p : *list) {
                const std::string what = describe_properties(*e, p);
                if (const auto it = owner.find(p.name); it != owner.end())
                    throw File_error(name, what,
                                     "would become layer '" + p.name + "', which " + it->second +
                                         " already make; layer names are unique in a World, so "
                                         "rename one of the properties");
                owner[p.name] = what;
            }
    }

    Read_data data;
    data.vertex_count = vertex ? static_cast<std::uint32_t>(vertex->count) : 0;
    Reader(bytes, name, header).read(plans, data);

    auto result =
        detail::build_mesh_checked(name, data.vertex_count, data.triangles,
                                   [](std::size_t i) { return "face " + std::to_string(i); });
    World world;
    world.lock_mesh().assign(std::move(result.mesh));

    if (vertex) {
        const Element_plan& plan = plans[vertex_plan];
        std::vector<const std::vector<double>*> xyz;
        for (const char* axis : {"x", "y", "z"})
            for (std::size_t i = 0; i < vertex->properties.size(); ++i)
                if (vertex->properties[i].name == axis)
                    xyz.push_back(&plan.columns[plan.column_of[i]]);
        fill_layer(world, position_layer, xyz, data.vertex_count, {}, [](std::size_t, double) {});
    }
    for (const auto& entry : {std::tuple{vertex, &vertex_layers, vertex_plan},
                              std::tuple{face, &face_layers, face_plan}}) {
        // Named copies: lambdas may not capture structured bindings before C++20's later fix
        // (clang 14 refuses).
        const auto e = std::get<0>(entry);
        const auto* list = std::get<1>(entry);
        const auto k = std::get<2>(entry);
        for (const Layer_plan& lp : *list) {
            const Element_plan& plan = plans[k];
            std::vector<const std::vector<double>*> cols;
            for (const std::size_t i : lp.properties)
                cols.push_back(&plan.columns[plan.column_of[i]]);
            const auto fail = [&](std::size_t row, double d) {
                std::string shown = std::to_string(d);
                throw File_error(name, element_part(*e, row),
                                 "property '" + e->properties[lp.properties[0]].name +
                                     "' = " + shown +
                                     " is not an integer that an int64 layer can hold "
                                     "(the file declares layer '" +
                                     lp.name + "' as int64)");
            };
            with_value_type(lp.type, [&]<class T>() {
                if (e == vertex)
                    fill_layer(world, Layer_info<T, Layer_type::vertex>(lp.name), cols,
                               data.vertex_count, {}, fail);
                else
                    fill_layer(world, Layer_info<T, Layer_type::face>(lp.name), cols,
                               data.triangles.size(), result.faces, fail);
            });
        }
    }
    return world;
}

// ---------------------------------------------------------------------------------------------
// Building the mesh (shared with obj.cpp through ply_soup.hpp)

std::string corners_text(const Triangle& t) {
    return std::to_string(t[0]) + " " + std::to_string(t[1]) + " " + std::to_string(t[2]);
}

} // namespace

namespace detail {

Face_soup_result build_mesh_checked(const std::filesystem::path& file, std::uint32_t vertex_count,
                                    std::span<const Triangle> triangles,
                                    const std::function<std::string(std::size_t)>& face_name) {
    Face_soup_result result = build_from_face_soup(vertex_count, triangles);
    const Mesh& m = result.mesh;
    // Mesh faces back to input faces, to name them as the file numbers them.
    std::vector<std::size_t> input_of(m.face_slots(), SIZE_MAX);
    for (std::size_t i = 0; i < result.faces.size(); ++i)
        if (result.faces[i].valid()) input_of[result.faces[i].index()] = i;
    auto named = [&](Face f) {
        if (!f.valid() || f.index() >= input_of.size() || input_of[f.index()] == SIZE_MAX)
            return to_string(f);
        const std::size_t i = input_of[f.index()];
        return face_name(i) + " (corners " + corners_text(triangles[i]) + ")";
    };

    if (!result.refused.empty()) {
        const Refused_face& first = result.refused.front();
        auto reason = [&](const Refused_face& rf) {
            const Refusal& r = rf.refusal;
            const std::string v = std::to_string(r.vertex.index());
            switch (r.kind) {
            case Refusal_kind::edge_side_taken:
                return "the edge from vertex " + v + " to vertex " +
                       std::to_string(r.other_vertex.index()) + " already has " + named(r.face) +
                       " on the same side: three or more faces share the edge (non-manifold), or "
                       "the faces around it are not oriented consistently";
            case Refusal_kind::duplicate_face:
                return "it repeats " + named(r.face);
            case Refusal_kind::repeated_vertex:
                return "vertex " + v + " is a corner twice";
            case Refusal_kind::vertex_closed:
                return "vertex " + v +
                       " is already surrounded by other faces (a non-manifold vertex)";
            case Refusal_kind::ambiguous_fan:
                return "vertex " + v +
                       " joins fans of faces that share no edge (a non-manifold vertex)";
            default:
                return r.message();
            }
        };
        std::string problem = "corners " + corners_text(triangles[first.index]) +
                              ": cannot be added to the mesh: " + reason(first);
        const std::size_t more = result.refused.size() - 1;
        if (more > 0) {
            problem += "; " + std::to_string(more) + " more face" + (more > 1 ? "s" : "") +
                       " cannot be added: ";
            const std::size_t shown = std::min<std::size_t>(more, 5);
            for (std::size_t k = 1; k <= shown; ++k)
                problem += (k > 1 ? ", " : "") + face_name(result.refused[k].index) + " (corners " +
                           corners_text(triangles[result.refused[k].index]) + ")";
            if (more > shown) problem += ", ...";
        }
        throw File_error(file, face_name(first.index), problem);
    }

    // add_face accepts a vertex where fans meet at a point only (it is a step of building a
    // mesh); a finished file with such a vertex is not a manifold surface.
    // A closed mesh (every edge between two faces: 2E = 3F) has no open wedge at all.
    if (2 * m.edge_count() == 3 * m.face_count()) return result;
    std::vector<std::uint8_t> gaps(m.vertex_slots(), 0);
    bool pinched = false;
    for (const Edge e : m.edges()) {
        for (const Edge x : {e, e.sym()})
            if (!x.left(m).valid()) {
                auto& g = gaps[x.origin(m).index()];
                if (g < 2) ++g;
                pinched |= g > 1;
            }
    }
    if (!pinched) return result;
    for (const Vertex v : m.vertices()) {
        if (gaps[v.index()] < 2) continue;
        // The fans: runs of faces between the open wedges of v's ring.
        const Edge start = [&] {
            for (const Edge x : v.edges(m))
                if (!x.left(m).valid()) return x;
            return v.edge(m);
        }();
        std::vector<std::vector<Face>> fans;
        Edge x = start;
        do {
            const Face f = x.left(m);
            if (!f.valid() || fans.empty()) fans.emplace_back();
            if (f.valid()) fans.back().push_back(f);
            x = x.origin_next(m);
        } while (x != start);
        std::string list;
        for (std::size_t k = 0; k < fans.size(); ++k) {
            list += k ? "; fan " : "fan ";
            list += std::to_string(k + 1) + ": ";
            for (std::size_t j = 0; j < fans[k].size() && j < 4; ++j) {
                list += (j ? ", " : "") + named(fans[k][j]);
            }
            if (fans[k].size() > 4) list += ", ...";
        }
        throw File_error(file, "vertex " + std::to_string(v.index()),
                         "is shared by " + std::to_string(fans.size()) +
                             " fans of faces that have no edge in common (a non-manifold "
                             "\"bow-tie\" vertex): " +
                             list);
    }
    return result;
}

} // namespace detail

void save_ply(const World& world, const std::filesystem::path& path,
              const Ply_save_options& options) {
    const std::vector<std::byte> bytes = encode_ply(world, options.format, path);
    const std::span<const std::byte> pieces[] = {bytes};
    write_file_atomically(path, pieces, options.sync);
}

std::vector<std::byte> write_ply(const World& world, Ply_format format) {
    return encode_ply(world, format, "<memory>");
}

World load_ply(const std::filesystem::path& path) { return decode_ply(read_file(path), path); }

World read_ply(std::span<const std::byte> bytes, const std::string& name) {
    return decode_ply(bytes, name);
}

} // namespace orbis::io
