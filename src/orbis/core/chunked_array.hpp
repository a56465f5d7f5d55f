// SPDX-License-Identifier: MIT
// A growable array stored in fixed-size chunks that copies share until one side writes.
#pragma once

#include "orbis/core/chunk_pool.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace orbis {

/// An array of `T` in chunks of 2^ChunkBits elements, shared copy-on-write between copies.
///
/// Copying is a snapshot: it copies one pointer per 64 chunks (with a reference count) and one
/// raw pointer per chunk, never element data. The first write to a chunk that another copy
/// still sees clones that chunk (16 KiB for 4,096 4-byte elements), so an edit after a snapshot
/// costs memory in proportion to what it touches. Reads go through a flat table of raw chunk
/// pointers: one extra dependent load compared with `std::vector`
/// (see shared/notes/copy-on-write-measurements.md).
///
/// Each array remembers which chunks it has already found to be its own, so a write to such a
/// chunk costs one byte load more than a vector's; the reference counts are consulted only on
/// the first write to a chunk after a copy. Copying therefore also clears the source's
/// remembered ownership (a mutable member): copy one array from one thread at a time; distinct
/// copies may be read and written from distinct threads.
template <class T, std::size_t ChunkBits = 12>
class Chunked_array {
public:
    /// log2 of the elements per chunk.
    static constexpr std::size_t chunk_bits = ChunkBits;
    /// Elements per chunk.
    static constexpr std::size_t chunk_size = std::size_t{1} << chunk_bits;
    /// log2 of the chunks per page (the unit of reference-counted table sharing).
    static constexpr std::size_t page_bits = 6;
    /// Chunks per page.
    static constexpr std::size_t page_size = std::size_t{1} << page_bits;

    /// An empty array.
    Chunked_array() = default;
    /// A snapshot of `other`: shares all its chunks.
    Chunked_array(const Chunked_array& other)
        : pages_(other.pages_)
        , data_(other.data_)
        , owned_(other.owned_.size(), 0)
        , size_(other.size_) {
        other.forget_ownership();
    }
    /// Takes over `other`'s chunks; `other` is left empty.
    Chunked_array(Chunked_array&& other) noexcept
        : pages_(std::move(other.pages_))
        , data_(std::move(other.data_))
        , owned_(std::move(other.owned_))
        , size_(std::exchange(other.size_, 0)) {
        other.pages_.clear();
        other.data_.clear();
        other.owned_.clear();
    }
    /// Becomes a snapshot of `other`.
    Chunked_array& operator=(const Chunked_array& other) {
        if (this != &other) *this = Chunked_array(other);
        return *this;
    }
    /// Takes over `other`'s chunks.
    Chunked_array& operator=(Chunked_array&& other) noexcept {
        if (this != &other) {
            pages_ = std::move(other.pages_);
            data_ = std::move(other.data_);
            owned_ = std::move(other.owned_);
            size_ = std::exchange(other.size_, 0);
            other.pages_.clear();
            other.data_.clear();
            other.owned_.clear();
        }
        return *this;
    }
    /// `n` copies of `value`.
    Chunked_array(std::size_t n, const T& value) { resize(n, value); }

    /// Number of elements.
    std::size_t size() const { return size_; }
    /// True when there are no elements.
    bool empty() const { return size_ == 0; }

    /// Element `i`. Precondition: `i < size()`.
    const T& operator[](std::size_t i) const {
        assert(i < size_);
        return data_[i >> chunk_bits][i & (chunk_size - 1)];
    }

    /// Element `i` for writing; clones its chunk first if a copy shares it.
    /// Precondition: `i < size()`.
    T& mut(std::size_t i) {
        assert(i < size_);
        const std::size_t c = i >> chunk_bits;
        if (!owned_[c]) own(c);
        return data_[c][i & (chunk_size - 1)];
    }

    /// Writes `value` at `i` (copy-on-write).
    void set(std::size_t i, const T& value) { mut(i) = value; }

    /// Appends `value`.
    void push_back(const T& value) {
        if (size_ == data_.size() * chunk_size) add_chunk();
        ++size_;
        mut(size_ - 1) = value;
    }

    /// Grows or shrinks to `n` elements; new elements are `value`.
    void resize(std::size_t n, const T& value = T{}) {
        while (data_.size() * chunk_size < n)
            add_chunk();
        for (std::size_t i = size_; i < n; ++i) {
            if ((i & (chunk_size - 1)) == 0 && i + chunk_size <= n) {
                std::fill_n(mut_chunk(i >> chunk_bits), chunk_size, value);
                i += chunk_size - 1;
            } else {
                size_ = std::max(size_, i + 1);
                mut(i) = value;
            }
        }
        size_ = n;
        while (data_.size() > (n + chunk_size - 1) / chunk_size)
            remove_chunk();
    }

    /// Replaces the elements with the `bytes.size() / sizeof(T)` values stored in `bytes` (a
    /// whole number of elements, any alignment), each written once into fresh chunks: what a
    /// file loader needs. Precondition: `bytes.size() % sizeof(T) == 0`.
    void assign_bytes(std::span<const std::byte> bytes) {
        static_assert(std::is_trivially_copyable_v<T>);
        assert(bytes.size() % sizeof(T) == 0);
        clear();
        const std::size_t n = bytes.size() / sizeof(T);
        for (std::size_t first = 0; first < n; first += chunk_size)
            add_chunk(bytes.data() + first * sizeof(T), std::min(chunk_size, n - first));
        size_ = n;
    }

    /// Replaces the elements with `n` values whose bytes the caller must write, through the
    /// returned spans (one per chunk, in order, together `n * sizeof(T)` bytes), before anything
    /// reads them: how a loader reads a file straight into fresh chunks, from several threads
    /// if it likes (one writer per span). Full chunks are not touched here, so their page
    /// faults fall to whoever fills them. O(n / chunk_size).
    std::vector<std::span<std::byte>> assign_to_fill(std::size_t n) {
        static_assert(std::is_trivially_copyable_v<T>);
        clear();
        std::vector<std::span<std::byte>> out;
        out.reserve((n + chunk_size - 1) / chunk_size);
        for (std::size_t first = 0; first < n; first += chunk_size) {
            const std::size_t count = std::min(chunk_size, n - first);
            add_chunk(nullptr, count, /*to_fill=*/true);
            out.push_back(std::as_writable_bytes(std::span<T>(data_.back(), count)));
        }
        size_ = n;
        return out;
    }

    /// A copy that shares no chunk with this array (a plain copy is a snapshot).
    Chunked_array deep_copy() const {
        Chunked_array out;
        if constexpr (std::is_trivially_copyable_v<T>) {
            // Each full chunk is written once, by the copy, instead of constructed and then
            // copied.
            out.data_.reserve(data_.size());
            out.owned_.reserve(data_.size());
            for (std::size_t c = 0; c < data_.size(); ++c)
                out.add_chunk(reinterpret_cast<const std::byte*>(data_[c]),
                              std::min(chunk_size, size_ - c * chunk_size));
            out.size_ = size_;
        } else {
            out.resize(size_);
            for (std::size_t c = 0; c < data_.size(); ++c)
                std::copy_n(data_[c], std::min(chunk_size, size_ - c * chunk_size),
                            out.mut_chunk(c));
        }
        return out;
    }

    /// Removes every element.
    void clear() { *this = Chunked_array{}; }

    /// Number of chunks.
    std::size_t chunk_count() const { return data_.size(); }
    /// True when chunk `c` of this array and of `other` are the same memory.
    bool shares_chunk(const Chunked_array& other, std::size_t c) const {
        return c < data_.size() && c < other.data_.size() && data_[c] == other.data_[c];
    }
    /// Bytes of this array's chunks that `other` does not share at the same index: what a
    /// snapshot costs beyond the one it was copied from. O(chunks).
    std::size_t chunk_bytes_not_shared_with(const Chunked_array& other) const {
        std::size_t bytes = 0;
        for (std::size_t c = 0; c < data_.size(); ++c)
            if (!shares_chunk(other, c)) bytes += sizeof(Chunk);
        return bytes;
    }
    /// Bytes of chunk storage this array refers to (shared or not).
    std::size_t chunk_bytes() const { return data_.size() * sizeof(Chunk); }
    /// Bytes of chunks no other copy refers to.
    std::size_t private_chunk_bytes() const {
        std::size_t bytes = 0;
        for (std::size_t c = 0; c < data_.size(); ++c)
            if (pages_[c >> page_bits].use_count() == 1 &&
                pages_[c >> page_bits]->chunks[c & (page_size - 1)].use_count() == 1)
                bytes += sizeof(Chunk);
        return bytes;
    }

    /// Equal sizes and elements; chunks shared by both sides are skipped without reading.
    friend bool operator==(const Chunked_array& a, const Chunked_array& b) {
        if (a.size_ != b.size_) return false;
        for (std::size_t c = 0; c < a.data_.size(); ++c) {
            if (a.data_[c] == b.data_[c]) continue;
            const std::size_t n = std::min(chunk_size, a.size_ - c * chunk_size);
            if (!std::equal(a.data_[c], a.data_[c] + n, b.data_[c])) return false;
        }
        return true;
    }

    /// Read-only pointer to the elements of chunk `c`.
    const T* chunk_data(std::size_t c) const { return data_[c]; }

    /// Writable pointer to the whole of chunk `c` (for bulk fills); clones it if shared.
    T* mut_chunk(std::size_t c) {
        if (!owned_[c]) own(c);
        return data_[c];
    }

private:
    struct Chunk {
        std::array<T, chunk_size> values;
    };
    struct Chunk_deleter {
        void operator()(Chunk* chunk) const noexcept {
            chunk->~Chunk();
            detail::release_chunk(chunk, sizeof(Chunk));
        }
    };
    // A chunk from the huge-page pool: a copy of `source`, or default elements.
    static std::shared_ptr<Chunk> make_chunk(const Chunk* source) {
        void* memory = detail::allocate_chunk(sizeof(Chunk));
        Chunk* chunk = source ? new (memory) Chunk(*source) : new (memory) Chunk;
        return std::shared_ptr<Chunk>(chunk, Chunk_deleter{});
    }
    // A chunk holding `count` elements copied from raw bytes. A whole chunk is created by the
    // copy itself (Chunk is an implicit-lifetime aggregate of trivially copyable values), so
    // its memory is written once instead of default-constructed first.
    static std::shared_ptr<Chunk> make_chunk(const std::byte* source, std::size_t count) {
        void* memory = detail::allocate_chunk(sizeof(Chunk));
        Chunk* chunk;
        if (count == chunk_size) {
            std::memcpy(memory, source, sizeof(Chunk));
            chunk = std::launder(static_cast<Chunk*>(memory));
        } else {
            chunk = new (memory) Chunk;
            std::memcpy(static_cast<void*>(chunk->values.data()), source, count * sizeof(T));
        }
        return std::shared_ptr<Chunk>(chunk, Chunk_deleter{});
    }
    // A whole chunk whose bytes its caller writes next (see assign_to_fill): like the copy
    // above, the bytes written create the values, so the memory is not constructed first.
    static std::shared_ptr<Chunk> make_chunk_to_fill() {
        void* memory = detail::allocate_chunk(sizeof(Chunk));
        return std::shared_ptr<Chunk>(std::launder(static_cast<Chunk*>(memory)), Chunk_deleter{});
    }
    struct Page {
        std::array<std::shared_ptr<Chunk>, page_size> chunks;
    };

    // Makes chunk c private to this array, cloning it (and its page) if a copy shares it. Kept
    // out of line so that mut() stays small enough to inline into every edit.
    [[gnu::noinline]] void own(std::size_t c) {
        auto& page = pages_[c >> page_bits];
        if (page.use_count() != 1) page = std::make_shared<Page>(*page);
        auto& chunk = page->chunks[c & (page_size - 1)];
        if (chunk.use_count() != 1) {
            chunk = make_chunk(chunk.get());
            data_[c] = chunk->values.data();
        }
        owned_[c] = 1;
    }

    void forget_ownership() const { std::fill(owned_.begin(), owned_.end(), 0); }

    // Appends a chunk, default-constructed, holding `count` elements copied from `source`, or
    // (to_fill, count a whole chunk) left for its caller to write.
    void add_chunk(const std::byte* source = nullptr, std::size_t count = 0, bool to_fill = false) {
        const std::size_t c = data_.size();
        if ((c & (page_size - 1)) == 0) pages_.push_back(std::make_shared<Page>());
        auto& page = pages_.back();
        if (page.use_count() != 1) page = std::make_shared<Page>(*page);
        auto chunk = source                           ? make_chunk(source, count)
                     : to_fill && count == chunk_size ? make_chunk_to_fill()
                                                      : make_chunk(nullptr);
        data_.push_back(chunk->values.data());
        owned_.push_back(1);
        page->chunks[c & (page_size - 1)] = std::move(chunk);
    }

    void remove_chunk() {
        const std::size_t c = data_.size() - 1;
        auto& page = pages_[c >> page_bits];
        if (page.use_count() != 1) page = std::make_shared<Page>(*page);
        page->chunks[c & (page_size - 1)].reset();
        data_.pop_back();
        owned_.pop_back();
        if ((c & (page_size - 1)) == 0) pages_.pop_back();
    }

    std::vector<std::shared_ptr<Page>> pages_;
    std::vector<T*> data_;
    mutable std::vector<std::uint8_t> owned_; // 1: chunk known to be private to this array
    std::size_t size_ = 0;
};

} // namespace orbis
