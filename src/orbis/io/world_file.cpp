// SPDX-License-Identifier: MIT
// Writing and reading the world file. Layout (docs/file-format.md): a 32-byte header, a table
// of 40-byte section entries, then the sections. Every number is little-endian.
#include "orbis/io/world_file.hpp"

#include "orbis/core/mesh_arrays.hpp"
#include "orbis/io/crc32c.hpp"
#include "orbis/io/file_error.hpp"
#include "orbis/io/world_records.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

namespace orbis::io {

static_assert(std::endian::native == std::endian::little,
              "the world file is little-endian and written from memory as it is");

namespace {

using Bytes = std::vector<std::byte>;
using Piece = std::span<const std::byte>;

constexpr char magic[8] = {'O', 'R', 'B', 'I', 'S', 'W', 'L', 'D'};
constexpr std::size_t header_bytes = 32;
constexpr std::size_t entry_bytes = 40;

enum class Kind : std::uint32_t {
    mesh = 1,
    layer = 2,
    dict = 3,
    random = 4,
    hints = 5,      // format version 2
    provenance = 6, // format version 2
};
constexpr std::uint32_t last_kind = 6;
enum class Compression : std::uint32_t { none = 0, zstd = 1 };

constexpr int max_dict_depth = 64;
constexpr std::size_t max_random_text = 64 * 1024;

std::string kind_name(Kind k) {
    switch (k) {
    case Kind::mesh:
        return "mesh";
    case Kind::layer:
        return "layer";
    case Kind::dict:
        return "dict";
    case Kind::random:
        return "random";
    case Kind::hints:
        return "hints";
    case Kind::provenance:
        return "provenance";
    }
    return "unknown";
}

template <class T>
Piece as_bytes_of(const std::vector<T>& v) {
    return std::as_bytes(std::span<const T>(v));
}

// ---- writing ------------------------------------------------------------------------------

// Bytes built for a section (headers, small sections), appended little-endian.
struct Builder {
    Bytes bytes;
    template <class T>
    void put(const T& value) {
        const auto* p = reinterpret_cast<const std::byte*>(&value);
        bytes.insert(bytes.end(), p, p + sizeof(T));
    }
    void put_string(std::string_view s) {
        put(static_cast<std::uint32_t>(s.size()));
        const auto* p = reinterpret_cast<const std::byte*>(s.data());
        bytes.insert(bytes.end(), p, p + s.size());
    }
};

// A section: owned bytes plus pieces that point into the World (layer chunks) or into
// `owned`, written in order.
struct Section {
    Kind kind;
    std::string name;
    std::vector<Bytes> owned;
    std::vector<Piece> pieces;
    std::uint64_t raw_size() const {
        std::uint64_t n = 0;
        for (const auto& p : pieces)
            n += p.size();
        return n;
    }
    void add(Bytes b) {
        owned.push_back(std::move(b));
        pieces.push_back(owned.back());
    }
};

// The mesh's arrays straight from its chunks (the snapshot being saved keeps them alive).
Section mesh_section(const Mesh& m) {
    Section s{Kind::mesh, "", {}, {}};
    const Mesh_chunks chunks = mesh_chunks(m);
    Builder head;
    head.bytes.reserve(sizeof(chunks.words)); // also quiets GCC 12's false stringop-overflow
    for (const std::uint64_t words : chunks.words)
        head.put(words);
    s.owned.reserve(1);
    s.add(std::move(head.bytes));
    for (const auto& array : chunks.pieces)
        s.pieces.insert(s.pieces.end(), array.begin(), array.end());
    return s;
}

Section layer_section(const Layer_base& base) {
    Section s{Kind::layer, base.name(), {}, {}};
    s.owned.reserve(1);
    with_value_type(base.value_tag(), [&]<class T>() {
        with_layer_type(base.type(), [&]<Layer_type Type>() {
            const auto& layer = dynamic_cast<const Layer<T, Type>&>(base);
            const auto& info = layer.info();
            Builder head;
            head.put_string(base.name());
            head.put(static_cast<std::uint8_t>(Type));
            head.put(static_cast<std::uint8_t>(value_type_of<T>));
            head.put(static_cast<std::uint8_t>(info.validation()));
            head.put(static_cast<std::uint8_t>(info.mesh_change()));
            head.put(static_cast<std::uint8_t>(info.interpolation_mode()));
            head.put(info.initial_value());
            head.put(info.min_value());
            head.put(info.max_value());
            head.put(static_cast<std::uint64_t>(layer.size()));
            s.add(std::move(head.bytes));
            for (std::size_t c = 0; c < layer.chunk_count(); ++c)
                s.pieces.push_back(std::as_bytes(layer.chunk(c)));
        });
    });
    return s;
}

void put_dict_value(Builder& b, const Dict_value& v);

void put_dict(Builder& b, const Dict& d) {
    b.put(static_cast<std::uint32_t>(d.size()));
    for (const auto& e : d.entries()) {
        b.put_string(e.key);
        put_dict_value(b, e.value);
    }
}

void put_dict_value(Builder& b, const Dict_value& v) {
    b.put(static_cast<std::uint8_t>(v.kind()));
    if (v.is<bool>()) b.put(static_cast<std::uint8_t>(v.as<bool>()));
    if (v.is<std::int64_t>()) b.put(v.as<std::int64_t>());
    if (v.is<double>()) b.put(v.as<double>());
    if (v.is<std::string>()) b.put_string(v.as<std::string>());
    if (v.is<glm::dvec3>()) b.put(v.as<glm::dvec3>());
    if (v.is<Dict_array>()) {
        const auto& items = v.as<Dict_array>();
        b.put(static_cast<std::uint32_t>(items.size()));
        for (const auto& item : items)
            put_dict_value(b, item);
    }
    if (v.is<Dict>()) put_dict(b, v.as<Dict>());
}

Section dict_section(const std::string& name, const Dict& d) {
    Section s{Kind::dict, name, {}, {}};
    Builder b;
    b.put_string(name);
    put_dict(b, d);
    s.add(std::move(b.bytes));
    return s;
}

// Hints and provenance: one Dict each, written without a name.
Section record_section(Kind kind, const Dict& d) {
    Section s{kind, "", {}, {}};
    Builder b;
    put_dict(b, d);
    s.add(std::move(b.bytes));
    return s;
}

Section random_section(const std::mt19937_64& engine) {
    Section s{Kind::random, "", {}, {}};
    std::ostringstream text;
    text << engine;
    Builder b;
    b.put_string(text.str());
    s.add(std::move(b.bytes));
    return s;
}

std::vector<Section> sections_of(const World& world) {
    std::vector<Section> sections;
    sections.push_back(mesh_section(world.mesh()));
    for (const auto& name : world.layer_names()) {
        if (const Layer_base* layer = world.find_layer(name))
            sections.push_back(layer_section(*layer));
        else if (const Dict* dict = world.layer(name))
            sections.push_back(dict_section(name, *dict));
    }
    sections.push_back(random_section(world.random()));
    if (!world.all_hints().empty())
        sections.push_back(record_section(Kind::hints, hints_to_dict(world)));
    if (!world.provenance().steps.empty())
        sections.push_back(record_section(Kind::provenance, provenance_to_dict(world)));
    return sections;
}

// The whole file as pieces: header, table, then each section (compressed into `owned` when
// asked). `owned` keeps the bytes the pieces point to alive.
std::vector<Piece> file_pieces(const World& world, const World_save_options& options,
                               std::vector<Section>& sections, std::vector<Bytes>& owned) {
    sections = sections_of(world);
    struct Entry {
        Kind kind;
        Compression compression;
        std::uint64_t offset, stored, raw;
        std::uint32_t crc;
    };
    std::vector<Entry> entries;
    std::vector<Piece> data;
    owned.reserve(sections.size() + 2);
    std::uint64_t offset = header_bytes + entry_bytes * sections.size();
    for (auto& s : sections) {
        Entry e{s.kind, Compression::none, offset, 0, s.raw_size(), 0};
        if (options.compress && e.raw >= 64) {
            Bytes raw;
            raw.reserve(e.raw);
            for (const auto& p : s.pieces)
                raw.insert(raw.end(), p.begin(), p.end());
            Bytes packed(ZSTD_compressBound(raw.size()));
            const std::size_t n =
                ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), options.level);
            if (ZSTD_isError(n))
                throw File_error("<memory>", kind_name(s.kind) + " " + s.name,
                                 std::string("cannot compress: ") + ZSTD_getErrorName(n));
            packed.resize(n);
            owned.push_back(std::move(packed));
            data.push_back(owned.back());
            e.compression = Compression::zstd;
            e.stored = n;
            e.crc = crc32c(owned.back());
        } else {
            data.insert(data.end(), s.pieces.begin(), s.pieces.end());
            e.crc = crc32c_of_pieces(s.pieces);
            e.stored = e.raw;
        }
        offset += e.stored;
        entries.push_back(e);
    }
    Builder table;
    for (const auto& e : entries) {
        table.put(static_cast<std::uint32_t>(e.kind));
        table.put(static_cast<std::uint32_t>(e.compression));
        table.put(e.offset);
        table.put(e.stored);
        table.put(e.raw);
        table.put(e.crc);
        table.put(std::uint32_t{0});
    }
    Builder header;
    header.bytes.insert(header.bytes.end(), reinterpret_cast<const std::byte*>(magic),
                        reinterpret_cast<const std::byte*>(magic) + 8);
    header.put(world_format_version);
    header.put(std::uint32_t{0}); // flags
    header.put(static_cast<std::uint32_t>(entries.size()));
    header.put(crc32c(table.bytes));
    header.put(offset); // the file's size
    owned.push_back(std::move(header.bytes));
    std::vector<Piece> pieces{owned.back()};
    owned.push_back(std::move(table.bytes));
    pieces.push_back(owned.back());
    pieces.insert(pieces.end(), data.begin(), data.end());
    return pieces;
}

// ---- reading ------------------------------------------------------------------------------

// Reads little-endian values from a span; every read is bounds-checked and a failure names
// the file and part.
class Reader {
public:
    Reader(Piece bytes, const std::filesystem::path& file, std::string part)
        : bytes_(bytes)
        , file_(file)
        , part_(std::move(part)) {}

    [[noreturn]] void fail(const std::string& problem) const {
        throw File_error(file_, part_, problem);
    }
    std::size_t left() const { return bytes_.size() - pos_; }
    Piece take(std::size_t n, const char* what) {
        if (n > left())
            fail(std::string("truncated: ") + what + " needs " + std::to_string(n) + " bytes, " +
                 std::to_string(left()) + " left");
        const Piece p = bytes_.subspan(pos_, n);
        pos_ += n;
        return p;
    }
    template <class T>
    T get(const char* what) {
        T value;
        std::memcpy(&value, take(sizeof(T), what).data(), sizeof(T));
        return value;
    }
    std::string get_string(const char* what) {
        const auto n = get<std::uint32_t>(what);
        const Piece p = take(n, what);
        return std::string(reinterpret_cast<const char*>(p.data()), p.size());
    }
    // A count of items of at least `item_bytes` each, checked against what is left so that a
    // forged count cannot make the reader allocate more than the file holds.
    std::size_t get_count(std::uint64_t count, std::size_t item_bytes, const char* what) {
        if (item_bytes > 0 && count > left() / item_bytes)
            fail(std::string(what) + ": " + std::to_string(count) + " items of " +
                 std::to_string(item_bytes) + " bytes do not fit in the " + std::to_string(left()) +
                 " bytes left");
        return static_cast<std::size_t>(count);
    }
    void expect_end() const {
        if (left() != 0) fail(std::to_string(left()) + " unexpected bytes after the end");
    }
    const std::string& part() const { return part_; }

private:
    Piece bytes_;
    std::size_t pos_ = 0;
    const std::filesystem::path& file_;
    std::string part_;
};

struct Table_entry {
    Kind kind;
    Compression compression;
    std::uint64_t offset, stored, raw;
    std::uint32_t crc;
};

struct Parsed_header {
    std::uint32_t version;
    std::uint64_t file_bytes;
    std::vector<Table_entry> entries;
};

// The header and table of a file of `file_size` bytes whose first bytes are `file`: all of it,
// or at least its header and section table (see head_bytes).
Parsed_header parse_header(Piece file, std::uint64_t file_size, const std::filesystem::path& name) {
    Reader r(file, name, "header");
    if (file_size == 0) r.fail("the file is empty");
    if (file_size < 8 || std::memcmp(file.data(), magic, 8) != 0)
        r.fail("not an Orbis world file (the first bytes are not \"ORBISWLD\")");
    if (file_size < header_bytes)
        r.fail("truncated: " + std::to_string(file_size) + " bytes, the header alone has " +
               std::to_string(header_bytes));
    (void)r.take(8, "magic");
    Parsed_header h;
    h.version = r.get<std::uint32_t>("version");
    if (h.version == 0) r.fail("format version 0 does not exist");
    if (h.version > world_format_version)
        r.fail("the file needs format version " + std::to_string(h.version) +
               "; this Orbis reads versions up to " + std::to_string(world_format_version) +
               " (update Orbis to open it)");
    if (const auto flags = r.get<std::uint32_t>("flags"); flags != 0)
        r.fail("unknown flags " + std::to_string(flags));
    const auto count = r.get<std::uint32_t>("section count");
    const auto table_crc = r.get<std::uint32_t>("table checksum");
    h.file_bytes = r.get<std::uint64_t>("file size");
    if (h.file_bytes != file_size)
        r.fail("the header says " + std::to_string(h.file_bytes) + " bytes, the file has " +
               std::to_string(file_size) +
               (file_size < h.file_bytes ? " (truncated)" : " (trailing bytes)"));
    Reader t(file.subspan(header_bytes), name, "section table");
    const Piece table =
        t.take(t.get_count(count, entry_bytes, "section count") * entry_bytes, "section table");
    if (crc32c(table) != table_crc) t.fail("checksum mismatch (the table is damaged)");
    Reader e(table, name, "section table");
    const std::uint64_t data_start = header_bytes + table.size();
    std::uint64_t expected_offset = data_start;
    for (std::uint32_t i = 0; i < count; ++i) {
        Table_entry x;
        const auto kind = e.get<std::uint32_t>("kind");
        if (kind < 1 || kind > last_kind)
            e.fail("section " + std::to_string(i) + " has unknown kind " + std::to_string(kind));
        if (kind > 4 && h.version < 2)
            e.fail("section " + std::to_string(i) + " has kind " + std::to_string(kind) +
                   ", which format version " + std::to_string(h.version) + " does not have");
        x.kind = static_cast<Kind>(kind);
        const auto compression = e.get<std::uint32_t>("compression");
        if (compression > 1)
            e.fail("section " + std::to_string(i) + " has unknown compression " +
                   std::to_string(compression));
        x.compression = static_cast<Compression>(compression);
        x.offset = e.get<std::uint64_t>("offset");
        x.stored = e.get<std::uint64_t>("stored size");
        x.raw = e.get<std::uint64_t>("raw size");
        x.crc = e.get<std::uint32_t>("checksum");
        (void)e.get<std::uint32_t>("reserved");
        // Sections follow each other without gaps, so every offset is known in advance.
        if (x.offset != expected_offset || x.stored > file_size - x.offset)
            e.fail("section " + std::to_string(i) + " (" + kind_name(x.kind) +
                   ") lies outside the file or overlaps another");
        if (x.compression == Compression::none && x.raw != x.stored)
            e.fail("section " + std::to_string(i) + " is uncompressed but its sizes differ");
        expected_offset += x.stored;
        h.entries.push_back(x);
    }
    if (expected_offset != file_size)
        e.fail(std::to_string(file_size - expected_offset) +
               " bytes after the last section belong to no section");
    return h;
}

Parsed_header parse_header(Piece file, const std::filesystem::path& name) {
    return parse_header(file, file.size(), name);
}

// How many of the first bytes of a file parse_header needs, given its first `got` bytes
// (header_bytes of them, or the whole file when shorter): the header and the section table,
// or the whole file when that is shorter, so that a short file fails with the same message.
std::uint64_t head_bytes(Piece got, std::uint64_t file_size) {
    if (got.size() < header_bytes) return file_size;
    std::uint32_t count = 0;
    std::memcpy(&count, got.data() + 16, sizeof count);
    return std::min<std::uint64_t>(file_size, header_bytes + std::uint64_t{count} * entry_bytes);
}

// The section's bytes as stored, `stored`, checksum verified and decompressed into `buffer`
// when needed.
Piece stored_section_bytes(Piece stored, const Table_entry& x, const std::filesystem::path& name,
                           const std::string& part, Bytes& buffer) {
    if (crc32c_of_pieces(std::span<const Piece>(&stored, 1)) != x.crc)
        throw File_error(name, part, "checksum mismatch (damaged)");
    if (x.compression == Compression::none) return stored;
    // Decompress in steps, so that a forged raw size costs no more memory than the data
    // really decompresses to.
    ZSTD_DCtx* context = ZSTD_createDCtx();
    if (!context) throw File_error(name, part, "out of memory for decompression");
    struct Free {
        ZSTD_DCtx* c;
        ~Free() { ZSTD_freeDCtx(c); }
    } free_context{context};
    buffer.clear();
    std::size_t capacity = static_cast<std::size_t>(
        std::min<std::uint64_t>(x.raw, std::uint64_t{16} * x.stored + (1u << 20)));
    buffer.resize(capacity);
    ZSTD_inBuffer in{stored.data(), stored.size(), 0};
    ZSTD_outBuffer out{buffer.data(), buffer.size(), 0};
    for (;;) {
        const std::size_t r = ZSTD_decompressStream(context, &out, &in);
        if (ZSTD_isError(r))
            throw File_error(name, part, std::string("cannot decompress: ") + ZSTD_getErrorName(r));
        if (r == 0) break; // frame complete
        if (out.pos == out.size) {
            if (out.size >= x.raw)
                throw File_error(name, part,
                                 "decompresses to more than its stated " + std::to_string(x.raw) +
                                     " bytes");
            capacity = static_cast<std::size_t>(std::min<std::uint64_t>(x.raw, 2 * out.size));
            buffer.resize(capacity);
            out.dst = buffer.data();
            out.size = buffer.size();
        } else if (in.pos == in.size) {
            throw File_error(name, part, "truncated compressed data");
        }
    }
    if (in.pos != in.size) throw File_error(name, part, "bytes after the compressed data");
    if (out.pos != x.raw)
        throw File_error(name, part,
                         "decompresses to " + std::to_string(out.pos) + " bytes, not the stated " +
                             std::to_string(x.raw));
    buffer.resize(out.pos);
    return buffer;
}

// The section's bytes, checksum verified and decompressed into `buffer` when needed.
Piece section_bytes(Piece file, const Table_entry& x, const std::filesystem::path& name,
                    const std::string& part, Bytes& buffer) {
    return stored_section_bytes(file.subspan(x.offset, x.stored), x, name, part, buffer);
}

Mesh read_mesh(Reader r) {
    std::uint64_t counts[6];
    for (auto& c : counts)
        c = r.get<std::uint64_t>("array sizes");
    const char* names[6] = {"vertex array",     "face array",     "quad-edge array",
                            "free vertex list", "free face list", "free edge list"};
    Piece arrays[6];
    for (int i = 0; i < 6; ++i)
        arrays[i] = r.take(r.get_count(counts[i], 4, names[i]) * 4, names[i]);
    r.expect_end();
    try {
        return mesh_from_arrays(
            Mesh_arrays_view{arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5]});
    } catch (const std::invalid_argument& x) {
        r.fail(x.what());
    }
}

template <class E>
E get_enum(Reader& r, int count, const char* what) {
    const auto v = r.get<std::uint8_t>(what);
    if (v >= count) r.fail(std::string("unknown ") + what + " " + std::to_string(v));
    return static_cast<E>(v);
}

template <class T>
T get_value(Reader& r, const char* what) {
    if constexpr (std::is_same_v<T, bool>) {
        const auto b = r.get<std::uint8_t>(what);
        if (b > 1) r.fail(std::string(what) + " is not a bool (" + std::to_string(b) + ")");
        return b != 0;
    } else {
        return r.get<T>(what);
    }
}

// Reads a layer section's header from `r` and checks its slot count against the mesh, then
// hands the values (the rest of `r`, or what follows in the file) to
// `values.template operator()<T, Type>(info, slots)`, which makes the layer.
template <class Values>
void read_layer_header(Reader& r, World& world, Values&& values) {
    const std::string name = r.get_string("name");
    if (name.empty()) r.fail("a layer without a name");
    const auto names = world.layer_names();
    if (std::find(names.begin(), names.end(), name) != names.end())
        r.fail("a second layer named '" + name + "'");
    const auto type = get_enum<Layer_type>(r, 6, "layer type");
    const auto value = get_enum<Value_type>(r, 12, "value type");
    const auto validation = get_enum<Validation>(r, 2, "validation mode");
    const auto change = get_enum<On_mesh_change>(r, 4, "on_mesh_change mode");
    const auto interpolation = get_enum<Interpolation>(r, 12, "interpolation mode");
    with_value_type(value, [&]<class T>() {
        with_layer_type(type, [&]<Layer_type Type>() {
            const T initial = get_value<T>(r, "initial value");
            const T low = get_value<T>(r, "minimum");
            const T high = get_value<T>(r, "maximum");
            const auto info = Layer_info<T, Type>(name)
                                  .initial(initial)
                                  .min(low)
                                  .max(high)
                                  .validate(validation)
                                  .on_mesh_change(change)
                                  .interpolation(interpolation);
            const auto slots = r.get<std::uint64_t>("slot count");
            const auto expected = Layer<T, Type>::slot_count(world.mesh());
            if (slots != expected)
                r.fail("has " + std::to_string(slots) + " values, the mesh has " +
                       std::to_string(expected) + " " + std::string(layer_type_name(Type)) +
                       " slots");
            values.template operator()<T, Type>(info, slots);
        });
    });
}

void read_layer(Reader r, World& world) {
    read_layer_header(
        r, world,
        [&]<class T, Layer_type Type>(const Layer_info<T, Type>& info, std::uint64_t slots) {
            const Piece values =
                r.take(r.get_count(slots, sizeof(T), "values") * sizeof(T), "values");
            r.expect_end();
            if constexpr (std::is_same_v<T, bool>) {
                for (const std::byte b : values)
                    if (static_cast<unsigned>(b) > 1) r.fail("a bool value that is not 0 or 1");
            }
            try {
                auto [lock] = world.lock_layer(info);
                std::size_t done = 0;
                for (std::size_t c = 0; c < lock->chunk_count(); ++c) {
                    const std::span<T> out = lock.chunk(c);
                    std::memcpy(static_cast<void*>(out.data()), values.data() + done,
                                out.size_bytes());
                    done += out.size_bytes();
                }
                lock.release(); // range validation, if the layer asks for it
            } catch (const Layer_error& x) {
                r.fail(x.what());
            }
        });
}

Dict_value get_dict_value(Reader& r, int depth);

Dict get_dict(Reader& r, int depth) {
    if (depth > max_dict_depth)
        r.fail("dicts nested deeper than " + std::to_string(max_dict_depth));
    Dict d;
    const std::size_t n = r.get_count(r.get<std::uint32_t>("entry count"), 5, "dict entries");
    for (std::size_t i = 0; i < n; ++i) {
        std::string key = r.get_string("key");
        if (d.contains(key)) r.fail("key '" + key + "' appears twice");
        d.set(key, get_dict_value(r, depth + 1));
    }
    return d;
}

Dict_value get_dict_value(Reader& r, int depth) {
    if (depth > max_dict_depth)
        r.fail("dict values nested deeper than " + std::to_string(max_dict_depth));
    switch (r.get<std::uint8_t>("value kind")) {
    case 0:
        return {};
    case 1:
        return get_value<bool>(r, "bool");
    case 2:
        return r.get<std::int64_t>("int");
    case 3:
        return r.get<double>("double");
    case 4:
        return r.get_string("string");
    case 5:
        return r.get<glm::dvec3>("vec3");
    case 6: {
        Dict_array items;
        const std::size_t n = r.get_count(r.get<std::uint32_t>("array size"), 1, "array");
        items.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            items.push_back(get_dict_value(r, depth + 1));
        return items;
    }
    case 7:
        return get_dict(r, depth + 1);
    default:
        r.fail("unknown dict value kind");
    }
}

void read_dict(Reader r, World& world) {
    const std::string name = r.get_string("name");
    if (name.empty()) r.fail("a dict without a name");
    const auto names = world.layer_names();
    if (std::find(names.begin(), names.end(), name) != names.end())
        r.fail("a second layer named '" + name + "'");
    Dict d = get_dict(r, 0);
    r.expect_end();
    *world.lock_layer(name) = std::move(d);
}

Dict read_record(Reader r) {
    Dict d = get_dict(r, 0);
    r.expect_end();
    return d;
}

void read_random(Reader r, World& world) {
    const auto n = r.get<std::uint32_t>("state length");
    if (n > max_random_text) r.fail("state longer than " + std::to_string(max_random_text));
    const Piece text = r.take(n, "state");
    r.expect_end();
    std::istringstream in(std::string(reinterpret_cast<const char*>(text.data()), text.size()));
    std::mt19937_64 engine;
    in >> engine;
    if (!in) r.fail("not a mt19937_64 state");
    in >> std::ws;
    if (!in.eof()) r.fail("text after the generator state");
    *world.lock_random() = engine;
}

} // namespace

std::vector<std::byte> write_world(const World& world, const World_save_options& options) {
    const World snapshot = world; // refuses a World with a lock open (a half-written state)
    std::vector<Section> sections;
    std::vector<Bytes> owned;
    const auto pieces = file_pieces(snapshot, options, sections, owned);
    Bytes out;
    for (const auto& p : pieces)
        out.insert(out.end(), p.begin(), p.end());
    return out;
}

void save_world(const World& world, const std::filesystem::path& path,
                const World_save_options& options) {
    const World snapshot = world; // refuses a World with a lock open (a half-written state)
    std::vector<Section> sections;
    std::vector<Bytes> owned;
    const auto pieces = file_pieces(snapshot, options, sections, owned);
    write_file_atomically(path, pieces, options.sync, options.progress);
}

namespace {

// How messages name section `i`: by its kind, and a layer or dict also by its name when that
// can be read from `bytes` (the section's first bytes, checksum verified or not).
std::string named_part(std::size_t i, Kind kind, Piece bytes, const std::filesystem::path& name) {
    std::string part = "section " + std::to_string(i) + " (" + kind_name(kind) + ")";
    Reader peek(bytes, name, part);
    std::string layer_name = peek.get_string("name");
    for (char& c : layer_name)
        if (static_cast<unsigned char>(c) < 0x20) c = '?'; // messages stay one line
    if (layer_name.size() <= 200)
        part = "section " + std::to_string(i) + " (" + kind_name(kind) + " '" + layer_name + "')";
    return part;
}

// The World of a file with header `h`, whose sections come from `section(x, part, buffer)`
// (the section's bytes, checksum verified and decompressed, see section_bytes). The mesh comes
// from `mesh_in_place(x, part)` instead when that gives one (see read_mesh_in_place), and a
// layer from `layer_in_place(x, i, world)` when that makes it (see read_layer_in_place).
template <class Section_source, class Mesh_source, class Layer_source>
World read_sections(const Parsed_header& h, const std::filesystem::path& name,
                    Section_source&& section, Mesh_source&& mesh_in_place,
                    Layer_source&& layer_in_place) {
    if (h.entries.empty() || h.entries.front().kind != Kind::mesh)
        throw File_error(name, "section table", "the first section must be the mesh");
    World world;
    Bytes buffer;
    bool random_seen = false;
    std::optional<Dict> provenance; // read once every layer is, for their versions
    std::string provenance_part;
    bool hints_seen = false;
    for (std::size_t i = 0; i < h.entries.size(); ++i) {
        const auto& x = h.entries[i];
        std::string part = "section " + std::to_string(i) + " (" + kind_name(x.kind) + ")";
        if (i == 0) {
            if (std::optional<Mesh> m = mesh_in_place(x, part)) {
                world.lock_mesh().assign(std::move(*m));
                continue;
            }
        }
        if (x.kind == Kind::layer && layer_in_place(x, i, world)) continue;
        const Piece bytes = section(x, part, buffer);
        if (x.kind == Kind::layer || x.kind == Kind::dict)
            part = named_part(i, x.kind, bytes, name);
        const Reader r(bytes, name, part);
        switch (x.kind) {
        case Kind::mesh:
            if (i != 0) r.fail("a second mesh");
            world.lock_mesh().assign(read_mesh(r));
            break;
        case Kind::layer:
            read_layer(Reader(bytes, name, part), world);
            break;
        case Kind::dict:
            read_dict(Reader(bytes, name, part), world);
            break;
        case Kind::random:
            if (random_seen) r.fail("a second random generator");
            random_seen = true;
            read_random(Reader(bytes, name, part), world);
            break;
        case Kind::hints: {
            if (hints_seen) r.fail("a second hints section");
            hints_seen = true;
            try {
                for (auto& [layer, hints] : hints_from_dict(read_record(Reader(bytes, name, part))))
                    world.set_hints(layer, std::move(hints));
            } catch (const Record_error& e) {
                r.fail(e.what());
            }
            break;
        }
        case Kind::provenance:
            if (provenance) r.fail("a second provenance section");
            provenance = read_record(Reader(bytes, name, part));
            provenance_part = part;
            break;
        }
    }
    if (!random_seen) throw File_error(name, "section table", "no random generator section");
    if (provenance) {
        try {
            world.set_provenance(provenance_from_dict(*provenance, world));
        } catch (const Record_error& e) {
            throw File_error(name, provenance_part, e.what());
        }
    }
    return world;
}

} // namespace

World read_world(std::span<const std::byte> file, const std::filesystem::path& name) {
    const Parsed_header h = parse_header(file, name);
    return read_sections(
        h, name,
        [&](const Table_entry& x, const std::string& part, Bytes& buffer) {
            return section_bytes(file, x, name, part, buffer);
        },
        [](const Table_entry&, const std::string&) { return std::optional<Mesh>(); },
        [](const Table_entry&, std::size_t, World&) { return false; });
}

namespace {

// A world file open for reading pieces of it, refused as read_file refuses.
class Open_file {
public:
    explicit Open_file(const std::filesystem::path& path)
        : path_(path) {
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0)
            throw File_error(path, "", "cannot open: " + std::string(std::strerror(errno)));
        // The destructor does not run when the constructor throws: close the file first.
        const auto refuse = [&](const std::string& why) {
            ::close(fd_);
            throw File_error(path, "", why);
        };
        struct stat st {};
        if (::fstat(fd_, &st) != 0) refuse("cannot stat: " + std::string(std::strerror(errno)));
        if (S_ISDIR(st.st_mode)) refuse("is a folder, not a file");
        if (!S_ISREG(st.st_mode)) refuse("is not a regular file");
        size_ = static_cast<std::uint64_t>(st.st_size);
    }
    Open_file(const Open_file&) = delete;
    Open_file& operator=(const Open_file&) = delete;
    ~Open_file() { ::close(fd_); }

    std::uint64_t size() const { return size_; }
    // Bytes [offset, offset + n) into `out`, which must have room. A file that shrank while
    // read fails here as a truncated one would.
    void read(std::uint64_t offset, std::size_t n, std::byte* out) const {
        std::size_t done = 0;
        while (done < n) {
            const ssize_t r = ::pread(fd_, out + done, n - done, static_cast<off_t>(offset + done));
            if (r < 0) {
                if (errno == EINTR) continue;
                throw File_error(path_, "", "cannot read: " + std::string(std::strerror(errno)));
            }
            if (r == 0) throw File_error(path_, "", "shrank while being read (truncated)");
            done += static_cast<std::size_t>(r);
        }
    }

private:
    const std::filesystem::path& path_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
};

// Reads each (file offset, bytes) into its bytes, the first half of the list on this thread
// and the second on another, so that both cores take the page faults of fresh memory.
void read_on_two_threads(const Open_file& file,
                         const std::vector<std::pair<std::uint64_t, std::span<std::byte>>>& reads) {
    const auto read_run = [&](std::size_t first, std::size_t last) {
        for (std::size_t k = first; k < last; ++k)
            file.read(reads[k].first, reads[k].second.size(), reads[k].second.data());
    };
    const std::size_t half = reads.size() / 2;
    std::exception_ptr failed;
    std::thread other([&] {
        try {
            read_run(half, reads.size());
        } catch (...) {
            failed = std::current_exception();
        }
    });
    try {
        read_run(0, half);
    } catch (...) {
        other.join();
        throw;
    }
    other.join();
    if (failed) std::rethrow_exception(failed);
}

// Thrown from read_layer_in_place's header step when the section goes through the buffer.
struct Read_buffered {};

// Layer section `i` of `file` read straight into the new layer's chunks on two threads, then
// checksummed and checked as read_layer checks it: when it is stored uncompressed, holds no
// bools (whose bytes must be checked before they are bools) and its header can be read from
// its first 4 KiB. Otherwise false, with nothing changed: the buffered path then reads the
// section and says what is wrong.
bool read_layer_in_place(const Open_file& file, const Table_entry& x, std::size_t i,
                         const std::filesystem::path& path, World& world) {
    if (x.compression != Compression::none) return false;
    const auto head_size = static_cast<std::size_t>(std::min<std::uint64_t>(x.stored, 4096));
    std::vector<std::byte> head(head_size);
    file.read(x.offset, head_size, head.data());
    bool filling = false;
    try {
        const std::string part = named_part(i, x.kind, head, path);
        Reader r(head, path, part);
        read_layer_header(
            r, world,
            [&]<class T, Layer_type Type>(const Layer_info<T, Type>& info, std::uint64_t slots) {
                const std::uint64_t header = head_size - r.left();
                if (std::is_same_v<T, bool> || slots > (x.stored - header) / sizeof(T) ||
                    header + slots * sizeof(T) != x.stored)
                    throw Read_buffered{};
                // A layer the World refuses (or a second of one name) is named by the
                // buffered path, after the checksum.
                auto lock = [&] {
                    try {
                        return world.lock_new_layer(info);
                    } catch (const Layer_error&) {
                        throw Read_buffered{};
                    }
                }();
                filling = true;
                try {
                    std::vector<Piece> all{Piece(head).first(header)};
                    std::vector<std::pair<std::uint64_t, std::span<std::byte>>> reads;
                    std::uint64_t offset = x.offset + header;
                    for (std::size_t c = 0; c < lock->chunk_count(); ++c) {
                        const auto bytes = std::as_writable_bytes(lock.chunk(c));
                        reads.emplace_back(offset, bytes);
                        all.push_back(bytes);
                        offset += bytes.size();
                    }
                    read_on_two_threads(file, reads);
                    if (crc32c_of_pieces(all) != x.crc) // named as the buffered path names it
                        throw File_error(
                            path, "section " + std::to_string(i) + " (" + kind_name(x.kind) + ")",
                            "checksum mismatch (damaged)");
                    lock.release(); // range validation, if the layer asks for it
                } catch (const Layer_error& e) {
                    r.fail(e.what());
                }
            });
    } catch (const Read_buffered&) {
        return false;
    } catch (const File_error&) {
        if (filling) throw;
        return false;
    }
    return true;
}

// The mesh section of `file` read straight into the mesh's own chunks, on two threads, then
// checksummed and checked: a large world's mesh never sits in memory twice, and its pages are
// faulted in by both cores. Only for an uncompressed section whose six sizes add up to its
// length; otherwise nullopt, and the buffered path reads the section and says what is wrong.
std::optional<Mesh> read_mesh_in_place(const Open_file& file, const Table_entry& x,
                                       const std::filesystem::path& path, const std::string& part) {
    constexpr std::size_t head_size = 6 * sizeof(std::uint64_t);
    if (x.compression != Compression::none || x.stored < head_size) return std::nullopt;
    std::array<std::byte, head_size> head;
    file.read(x.offset, head_size, head.data());
    std::array<std::uint64_t, 6> words{};
    std::uint64_t total = 0;
    for (int i = 0; i < 6; ++i) {
        std::memcpy(&words[i], head.data() + 8 * i, 8);
        if (words[i] > x.stored / 4) return std::nullopt;
        total += words[i];
    }
    if (head_size + 4 * total != x.stored) return std::nullopt;
    std::optional<Mesh_to_fill> fill;
    try {
        fill.emplace(words);
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
    // The pieces in file order, cut into two runs of about equal bytes.
    std::vector<Piece> all{Piece(head)};
    std::vector<std::pair<std::uint64_t, std::span<std::byte>>> reads;
    std::uint64_t offset = x.offset + head_size;
    for (const auto& array : fill->pieces())
        for (const std::span<std::byte> piece : array) {
            reads.emplace_back(offset, piece);
            all.push_back(piece);
            offset += piece.size();
        }
    read_on_two_threads(file, reads);
    if (crc32c_of_pieces(all) != x.crc) throw File_error(path, part, "checksum mismatch (damaged)");
    try {
        return std::move(*fill).finish();
    } catch (const std::invalid_argument& e) {
        throw File_error(path, part, e.what());
    }
}

// The header and section table of `file`, read and checked.
Parsed_header read_header(const Open_file& file, const std::filesystem::path& path) {
    File_bytes head(static_cast<std::size_t>(std::min<std::uint64_t>(file.size(), header_bytes)));
    file.read(0, head.size(), head.data());
    const std::uint64_t need = head_bytes(head, file.size());
    if (need > head.size()) {
        head = File_bytes(static_cast<std::size_t>(need));
        file.read(0, head.size(), head.data());
    }
    return parse_header(head, file.size(), path);
}

} // namespace

World load_world(const std::filesystem::path& path) {
    // Section by section rather than the whole file at once: the file's bytes never sit in
    // memory beside the whole World they become, only the largest section's do.
    const Open_file file(path);
    const Parsed_header h = read_header(file, path);
    // Room for the largest section read through a buffer; the mesh usually is not.
    File_bytes stored;
    return read_sections(
        h, path,
        [&](const Table_entry& x, const std::string& part, Bytes& buffer) {
            if (stored.size() < x.stored) {
                std::uint64_t largest = x.stored;
                for (std::size_t i = 1; i < h.entries.size(); ++i)
                    largest = std::max(largest, h.entries[i].stored);
                stored = File_bytes(static_cast<std::size_t>(largest));
            }
            file.read(x.offset, static_cast<std::size_t>(x.stored), stored.data());
            const Piece bytes(stored.data(), static_cast<std::size_t>(x.stored));
            return stored_section_bytes(bytes, x, path, part, buffer);
        },
        [&](const Table_entry& x, const std::string& part) {
            return read_mesh_in_place(file, x, path, part);
        },
        [&](const Table_entry& x, std::size_t i, World& world) {
            return read_layer_in_place(file, x, i, path, world);
        });
}

namespace {

// Bytes of one value of value-type tag `tag` (docs/file-format.md); 0 for an unknown tag.
std::size_t value_bytes(std::uint8_t tag) {
    constexpr std::array<std::size_t, 12> sizes{1, 4, 4, 8, 4, 8, 8, 12, 16, 16, 24, 32};
    return tag < sizes.size() ? sizes[tag] : 0;
}

// A layer section's name, types and where its values lie, read from its first bytes.
struct Layer_head {
    std::string name;
    std::uint8_t layer_type = 0;
    std::uint8_t value_type = 0;
    std::uint64_t values_offset = 0; // from the start of the file
    std::uint64_t slots = 0;
};

// The head of layer section `x` when it is stored uncompressed and its sizes add up.
std::optional<Layer_head> peek_layer(const Open_file& file, const Table_entry& x,
                                     const std::filesystem::path& path) {
    if (x.compression != Compression::none) return std::nullopt;
    const auto head_size = static_cast<std::size_t>(std::min<std::uint64_t>(x.stored, 4096));
    std::vector<std::byte> head(head_size);
    file.read(x.offset, head_size, head.data());
    Reader r(head, path, "layer head");
    Layer_head h;
    h.name = r.get_string("name");
    h.layer_type = r.get<std::uint8_t>("layer type");
    h.value_type = r.get<std::uint8_t>("value type");
    const std::size_t bytes = value_bytes(h.value_type);
    if (bytes == 0) return std::nullopt;
    (void)r.take(3, "modes");
    (void)r.take(3 * bytes, "initial value, minimum and maximum");
    h.slots = r.get<std::uint64_t>("slot count");
    const std::uint64_t header = head_size - r.left();
    if (h.slots > (x.stored - header) / bytes || header + h.slots * bytes != x.stored)
        return std::nullopt;
    h.values_offset = x.offset + header;
    return h;
}

// Calls visit(slot, first byte) for slots 0, k, 2k, ... below `slots` of an array of
// `bytes`-byte values at `offset`, reading the file in blocks of about 1 MiB.
template <class Visit>
void visit_every_kth(const Open_file& file, std::uint64_t offset, std::size_t bytes,
                     std::uint64_t slots, std::uint64_t k, std::vector<std::byte>& block,
                     Visit&& visit) {
    const std::uint64_t per_block = std::max<std::uint64_t>(1, (std::uint64_t{1} << 20) / bytes);
    for (std::uint64_t first = 0; first < slots; first += per_block) {
        const std::uint64_t last = std::min(slots, first + per_block);
        const std::uint64_t from = (first + k - 1) / k * k;
        if (from >= last) continue;
        const std::uint64_t to = (last - 1) / k * k + 1;
        block.resize(static_cast<std::size_t>((to - from) * bytes));
        file.read(offset + from * bytes, block.size(), block.data());
        for (std::uint64_t s = from; s < last; s += k)
            visit(s, block.data() + (s - from) * bytes);
    }
}

} // namespace

std::optional<World_preview> read_world_preview(const std::filesystem::path& path,
                                                std::size_t max_points, std::string_view layer) {
    if (max_points == 0) return std::nullopt;
    try {
        const Open_file file(path);
        const Parsed_header h = read_header(file, path);
        if (h.entries.empty() || h.entries.front().kind != Kind::mesh ||
            h.entries.front().compression != Compression::none)
            return std::nullopt;
        const Table_entry& mesh = h.entries.front();
        constexpr std::size_t mesh_head = 6 * sizeof(std::uint64_t);
        if (mesh.stored < mesh_head) return std::nullopt;
        std::array<std::uint64_t, 6> counts{};
        file.read(mesh.offset, mesh_head, reinterpret_cast<std::byte*>(counts.data()));
        std::uint64_t words = 0;
        for (const std::uint64_t c : counts) {
            if (c > mesh.stored / 4) return std::nullopt;
            words += c;
        }
        if (mesh_head + 4 * words != mesh.stored) return std::nullopt;

        World_preview preview;
        preview.vertex_slots = counts[0];
        std::optional<Layer_head> position, values;
        for (const Table_entry& x : h.entries) {
            if (x.kind == Kind::hints && x.stored <= (std::uint64_t{64} << 20)) {
                try {
                    Bytes buffer;
                    File_bytes stored(static_cast<std::size_t>(x.stored));
                    file.read(x.offset, stored.size(), stored.data());
                    const Piece bytes = stored_section_bytes(stored, x, path, "hints", buffer);
                    preview.hints = hints_from_dict(read_record(Reader(bytes, path, "hints")));
                } catch (const std::exception&) {
                    preview.hints.clear(); // a picture without its colour map is still one
                }
            }
            if (x.kind != Kind::layer) continue;
            std::optional<Layer_head> l = peek_layer(file, x, path);
            if (!l || l->layer_type != 0 || l->slots != preview.vertex_slots) continue;
            if (l->name == position_layer.name() && l->value_type == 7) position = l;
            if (l->name == layer &&
                (l->value_type == 1 || l->value_type == 4 || l->value_type == 5))
                values = l;
        }
        if (!position) return std::nullopt;

        const std::uint64_t k =
            std::max<std::uint64_t>(1, (preview.vertex_slots + max_points - 1) / max_points);
        std::vector<std::byte> block;
        // Deleted and isolated vertices hold stale positions: only live ones are drawn.
        std::vector<bool> live;
        live.reserve(static_cast<std::size_t>(preview.vertex_slots / k + 1));
        visit_every_kth(file, mesh.offset + mesh_head, 4, preview.vertex_slots, k, block,
                        [&](std::uint64_t, const std::byte* p) {
                            std::uint32_t edge = 0;
                            std::memcpy(&edge, p, 4);
                            live.push_back(edge < 0xFFFFFFFEu);
                        });
        visit_every_kth(file, position->values_offset, 12, preview.vertex_slots, k, block,
                        [&](std::uint64_t s, const std::byte* p) {
                            if (!live[static_cast<std::size_t>(s / k)]) return;
                            glm::vec3 v;
                            std::memcpy(&v, p, sizeof v);
                            preview.positions.push_back(v);
                        });
        if (values) {
            preview.integer_values = values->value_type == 1;
            const std::size_t bytes = value_bytes(values->value_type);
            visit_every_kth(file, values->values_offset, bytes, preview.vertex_slots, k, block,
                            [&](std::uint64_t s, const std::byte* p) {
                                if (!live[static_cast<std::size_t>(s / k)]) return;
                                if (values->value_type == 1) {
                                    std::int32_t v = 0;
                                    std::memcpy(&v, p, 4);
                                    preview.values.push_back(v);
                                } else if (values->value_type == 4) {
                                    float v = 0;
                                    std::memcpy(&v, p, 4);
                                    preview.values.push_back(v);
                                } else {
                                    double v = 0;
                                    std::memcpy(&v, p, 8);
                                    preview.values.push_back(v);
                                }
                            });
        }
        return preview;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

World_file_info inspect_world(const std::filesystem::path& path) {
    const File_bytes file = read_file(path);
    const Parsed_header h = parse_header(file, path);
    World_file_info info{h.version, h.file_bytes, {}};
    Bytes buffer;
    for (std::size_t i = 0; i < h.entries.size(); ++i) {
        const auto& x = h.entries[i];
        const std::string part = "section " + std::to_string(i) + " (" + kind_name(x.kind) + ")";
        World_file_section s{kind_name(x.kind), "", x.stored, x.raw,
                             x.compression == Compression::zstd};
        const Piece bytes = section_bytes(file, x, path, part, buffer);
        if (x.kind == Kind::layer || x.kind == Kind::dict) {
            Reader r(bytes, path, part);
            s.name = r.get_string("name");
        }
        info.sections.push_back(std::move(s));
    }
    return info;
}

} // namespace orbis::io
