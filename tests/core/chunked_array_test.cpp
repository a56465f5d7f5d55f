// SPDX-License-Identifier: MIT
// Chunked_array (copy-on-write chunks) and the snapshot semantics of Mesh built on it.
#include <orbis/core.hpp>

#include "support/checks.hpp"
#include "support/fixtures.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace orbis {
namespace {

using Array = Chunked_array<std::uint32_t>;
constexpr std::size_t chunk = Array::chunk_size;

// Elements whose value is their index plus an offset, so that misplaced elements show.
Array iota(std::size_t n, std::uint32_t offset = 0) {
    Array a;
    for (std::size_t i = 0; i < n; ++i)
        a.push_back(static_cast<std::uint32_t>(i) + offset);
    return a;
}

std::size_t bytes_per_chunk(const Array& a) { return a.chunk_bytes() / a.chunk_count(); }

TEST(ChunkedArray, PushBackAcrossChunkBoundaries) {
    const std::size_t n = 2 * chunk + 5;
    const Array a = iota(n);
    ASSERT_EQ(a.size(), n);
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a.chunk_count(), 3u);
    for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(a[i], i) << "at " << i;
    EXPECT_TRUE(Array{}.empty());
    EXPECT_EQ(Array{}.chunk_count(), 0u);
}

TEST(ChunkedArray, ResizeKeepsPrefixAndFillsWithValue) {
    Array a = iota(10);
    a.resize(chunk * 3 + 1, 7);
    ASSERT_EQ(a.size(), chunk * 3 + 1);
    EXPECT_EQ(a.chunk_count(), 4u);
    for (std::size_t i = 0; i < 10; ++i)
        EXPECT_EQ(a[i], i);
    for (std::size_t i = 10; i < a.size(); ++i)
        ASSERT_EQ(a[i], 7u) << "at " << i;

    // Shrinking drops whole chunks; growing again must not show the old values.
    a.resize(chunk + 2);
    EXPECT_EQ(a.size(), chunk + 2);
    EXPECT_EQ(a.chunk_count(), 2u);
    a.resize(3 * chunk, 9);
    EXPECT_EQ(a[chunk + 1], 7u);
    for (std::size_t i = chunk + 2; i < a.size(); ++i)
        ASSERT_EQ(a[i], 9u) << "at " << i;

    a.resize(0);
    EXPECT_TRUE(a.empty());
    EXPECT_EQ(a.chunk_count(), 0u);
    const Array filled(chunk + 1, 4);
    EXPECT_EQ(filled.size(), chunk + 1);
    EXPECT_EQ(filled[chunk], 4u);
}

TEST(ChunkedArray, SetAndMutAcrossChunkBoundaries) {
    Array a = iota(3 * chunk);
    for (std::size_t i : {chunk - 1, chunk, 2 * chunk - 1, 2 * chunk})
        a.set(i, 100000 + static_cast<std::uint32_t>(i));
    a.mut(0) = 42;
    EXPECT_EQ(a[0], 42u);
    EXPECT_EQ(a[chunk - 1], 100000 + chunk - 1);
    EXPECT_EQ(a[chunk], 100000 + chunk);
    EXPECT_EQ(a[chunk + 1], chunk + 1);
    EXPECT_EQ(a[2 * chunk], 100000 + 2 * chunk);
}

TEST(ChunkedArray, CopySharesEveryChunk) {
    const Array a = iota(3 * chunk + 1);
    const Array b = a; // NOLINT(performance-unnecessary-copy-initialization): the test is the copy
    for (std::size_t c = 0; c < a.chunk_count(); ++c) {
        EXPECT_TRUE(a.shares_chunk(b, c));
        EXPECT_EQ(a.chunk_data(c), b.chunk_data(c));
    }
    EXPECT_FALSE(a.shares_chunk(b, a.chunk_count())); // out of range
    EXPECT_EQ(a.private_chunk_bytes(), 0u);
    EXPECT_EQ(b.private_chunk_bytes(), 0u);
    EXPECT_EQ(a.chunk_bytes(), b.chunk_bytes());
    EXPECT_GE(a.chunk_bytes(), 4 * chunk * sizeof(std::uint32_t));
    EXPECT_TRUE(a == b);
}

TEST(ChunkedArray, WriteToCopyDoesNotShowInOriginal) {
    Array a = iota(3 * chunk);
    Array b = a;
    b.set(chunk + 3, 999);
    EXPECT_EQ(b[chunk + 3], 999u);
    EXPECT_EQ(a[chunk + 3], chunk + 3);
    // Only the written chunk was cloned.
    EXPECT_TRUE(a.shares_chunk(b, 0));
    EXPECT_FALSE(a.shares_chunk(b, 1));
    EXPECT_TRUE(a.shares_chunk(b, 2));
    EXPECT_FALSE(a == b);
}

TEST(ChunkedArray, WriteToOriginalDoesNotShowInCopy) {
    Array a = iota(3 * chunk);
    const Array b = a;
    a.set(2 * chunk, 999);
    a.mut(5) = 998;
    EXPECT_EQ(b[2 * chunk], 2 * chunk);
    EXPECT_EQ(b[5], 5u);
    EXPECT_EQ(a[2 * chunk], 999u);
    EXPECT_FALSE(a.shares_chunk(b, 0));
    EXPECT_TRUE(a.shares_chunk(b, 1));
    EXPECT_FALSE(a.shares_chunk(b, 2));
}

TEST(ChunkedArray, GrowingEitherSideOfASharedPartialChunkStaysPrivate) {
    // The last chunk is only partly used and shared: appending on one side must clone it.
    Array a = iota(chunk + 10);
    Array b = a;
    b.push_back(111);
    a.push_back(222);
    EXPECT_EQ(a.size(), chunk + 11);
    EXPECT_EQ(b.size(), chunk + 11);
    EXPECT_EQ(a[chunk + 10], 222u);
    EXPECT_EQ(b[chunk + 10], 111u);
    EXPECT_TRUE(a.shares_chunk(b, 0));

    Array c = a;
    c.resize(3 * chunk, 5);
    EXPECT_EQ(a.size(), chunk + 11);
    EXPECT_EQ(a[chunk + 10], 222u);
    c.resize(10);
    EXPECT_EQ(a.size(), chunk + 11);
    EXPECT_EQ(a[chunk + 5], chunk + 5);
    c.clear();
    EXPECT_EQ(a[chunk + 5], chunk + 5);
}

TEST(ChunkedArray, ChainedCopiesKeepSharingUntouchedChunks) {
    Array a = iota(2 * chunk);
    Array b = a;
    Array c = b;
    b.set(0, 7);
    EXPECT_TRUE(a.shares_chunk(c, 0));
    EXPECT_FALSE(a.shares_chunk(b, 0));
    EXPECT_EQ(a[0], 0u);
    EXPECT_EQ(c[0], 0u);
    c.set(chunk, 8);
    EXPECT_EQ(a[chunk], chunk);
    EXPECT_EQ(b[chunk], chunk);
    EXPECT_TRUE(a.shares_chunk(b, 1));
}

TEST(ChunkedArray, CopiesAcrossPagesShareTheUntouchedChunks) {
    // More than one page (64 chunks) of chunks.
    const std::size_t n = (Array::page_size + 6) * chunk;
    Array a(n, 1);
    Array b = a;
    const std::size_t last = a.chunk_count() - 1;
    b.set(last * chunk, 2);
    EXPECT_EQ(a[last * chunk], 1u);
    EXPECT_FALSE(a.shares_chunk(b, last));
    for (std::size_t c = 0; c < last; ++c)
        ASSERT_TRUE(a.shares_chunk(b, c)) << "chunk " << c;
    a.set(0, 3);
    EXPECT_EQ(b[0], 1u);
    EXPECT_EQ(b.private_chunk_bytes(), 2 * bytes_per_chunk(b)) << "b's own last chunk and chunk 0";
}

TEST(ChunkedArray, PrivateChunkBytesCountsUnsharedChunks) {
    Array a = iota(4 * chunk);
    const std::size_t per_chunk = bytes_per_chunk(a);
    EXPECT_GE(per_chunk, chunk * sizeof(std::uint32_t));
    EXPECT_EQ(a.private_chunk_bytes(), a.chunk_bytes());
    {
        Array b = a;
        EXPECT_EQ(a.private_chunk_bytes(), 0u);
        b.set(1, 1);
        b.set(3 * chunk, 1);
        // Each side now owns the two chunks that differ; the other two are still shared.
        EXPECT_EQ(b.private_chunk_bytes(), 2 * per_chunk);
        EXPECT_EQ(a.private_chunk_bytes(), 2 * per_chunk);
        b.set(2, 1); // same chunk again: no further cost
        EXPECT_EQ(b.private_chunk_bytes(), 2 * per_chunk);
    }
    // With the copy gone, everything is private again.
    EXPECT_EQ(a.private_chunk_bytes(), a.chunk_bytes());
}

TEST(ChunkedArray, DeepCopySharesNothingAtEverySize) {
    // Trivially copyable elements are copied chunk by chunk from raw bytes; the partial last
    // chunk and growth after the copy must behave as in any other array.
    for (const std::size_t n :
         {std::size_t{0}, std::size_t{1}, chunk - 1, chunk, chunk + 1, 3 * chunk + 7}) {
        SCOPED_TRACE(n);
        const Array a = iota(n, 11);
        Array d = a.deep_copy();
        ASSERT_TRUE(d == a);
        for (std::size_t c = 0; c < a.chunk_count(); ++c)
            EXPECT_FALSE(d.shares_chunk(a, c)) << "chunk " << c;
        EXPECT_EQ(d.private_chunk_bytes(), d.chunk_bytes());
        std::vector<const std::uint32_t*> chunks;
        for (std::size_t c = 0; c < d.chunk_count(); ++c)
            chunks.push_back(d.chunk_data(c));
        for (std::size_t i = 0; i < n; ++i)
            d.set(i, 7);
        for (std::size_t c = 0; c < chunks.size(); ++c)
            EXPECT_EQ(d.chunk_data(c), chunks[c]) << "a write copied chunk " << c << " again";
        d.push_back(5);
        d.resize(n + chunk, 9);
        ASSERT_TRUE(a == iota(n, 11)) << "writes to the deep copy showed in the original";
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(d[i], 7u) << "at " << i;
        ASSERT_EQ(d[n], 5u);
        ASSERT_EQ(d[n + chunk - 1], 9u);
    }
}

TEST(ChunkedArray, AssignToFillGivesOneSpanPerChunkCoveringEveryElement) {
    // A loader writes the bytes through the spans; the array then reads, grows and copies as
    // any other, and what it held before is gone.
    for (const std::size_t n :
         {std::size_t{0}, std::size_t{1}, chunk - 1, chunk, chunk + 1, 3 * chunk + 7}) {
        SCOPED_TRACE(n);
        Array a = iota(5, 100);
        const Array snapshot = a;
        const auto pieces = a.assign_to_fill(n);
        ASSERT_EQ(a.size(), n);
        ASSERT_EQ(pieces.size(), a.chunk_count());
        std::size_t bytes = 0;
        for (std::size_t c = 0; c < pieces.size(); ++c) {
            EXPECT_EQ(static_cast<const void*>(pieces[c].data()),
                      static_cast<const void*>(a.chunk_data(c)));
            bytes += pieces[c].size();
        }
        ASSERT_EQ(bytes, n * sizeof(std::uint32_t));
        const Array want = iota(n, 3);
        std::size_t done = 0;
        for (const auto piece : pieces) {
            for (std::size_t k = 0; k < piece.size() / 4; ++k) {
                const std::uint32_t v = want[done + k];
                std::memcpy(piece.data() + 4 * k, &v, 4);
            }
            done += piece.size() / 4;
        }
        ASSERT_TRUE(a == want);
        EXPECT_TRUE(snapshot == iota(5, 100)) << "filling touched a copy of the old elements";
        EXPECT_EQ(a.private_chunk_bytes(), a.chunk_bytes());
        Array b = a;
        b.push_back(1);
        b.set(0, 42);
        EXPECT_TRUE(a == want) << "a write to a copy showed in the filled array";
    }
}

TEST(ChunkedArray, EqualityIgnoresSharing) {
    const Array a = iota(2 * chunk + 3);
    Array b = a;
    EXPECT_TRUE(a == b); // shared
    b.set(chunk, 5);
    EXPECT_FALSE(a == b);
    b.set(chunk, static_cast<std::uint32_t>(chunk)); // same values, different memory
    EXPECT_FALSE(a.shares_chunk(b, 1));
    EXPECT_TRUE(a == b);
    EXPECT_TRUE(a == iota(2 * chunk + 3)); // built separately
    EXPECT_FALSE(a == iota(2 * chunk + 2));
    EXPECT_FALSE(a == iota(2 * chunk + 3, 1));
    EXPECT_TRUE(Array{} == Array{});
}

TEST(ChunkedArray, RandomEditsMatchAVectorOnBothSidesOfACopy) {
    // A model check: two copies edited independently behave like two std::vectors.
    std::mt19937 rng(7);
    Array a = iota(3 * chunk);
    std::vector<std::uint32_t> va(a.size());
    for (std::size_t i = 0; i < va.size(); ++i)
        va[i] = a[i];
    Array b = a;
    std::vector<std::uint32_t> vb = va;
    for (int step = 0; step < 2000; ++step) {
        const bool on_a = rng() % 2;
        Array& x = on_a ? a : b;
        auto& v = on_a ? va : vb;
        switch (rng() % 9) {
        case 0:
            x.push_back(rng());
            v.push_back(x[x.size() - 1]);
            break;
        case 1: {
            const std::size_t n = rng() % (4 * chunk);
            const std::uint32_t value = rng();
            x.resize(n, value);
            v.resize(n, value);
            break;
        }
        case 2:
            if (on_a)
                b = a, vb = va;
            else
                a = b, va = vb;
            break;
        case 3: {
            // Copies that come and go, a move round trip and a self-assignment in between.
            Array keep(x);
            Array moved(std::move(keep));
            x = moved;
            x = *&x;
            Array round = std::move(moved);
            x = std::move(round);
            if (!v.empty()) x.set(0, v[0]);
            break;
        }
        default:
            if (!v.empty()) {
                const std::size_t i = rng() % v.size();
                const std::uint32_t value = rng();
                x.set(i, value);
                v[i] = value;
            }
        }
        ASSERT_EQ(a.size(), va.size());
        ASSERT_EQ(b.size(), vb.size());
    }
    for (std::size_t i = 0; i < va.size(); ++i)
        ASSERT_EQ(a[i], va[i]) << "a at " << i;
    for (std::size_t i = 0; i < vb.size(); ++i)
        ASSERT_EQ(b[i], vb[i]) << "b at " << i;
}

// ---- Mesh copies are snapshots built on the chunks ----

TEST(MeshSnapshot, CopyIsEqualAndSharesAllConnectivity) {
    const Mesh m = test::build(test::icosphere(3));
    const Mesh copy = m; // NOLINT(performance-unnecessary-copy-initialization)
    EXPECT_TRUE(copy == m);
    EXPECT_EQ(m.private_connectivity_bytes(), 0u);
    EXPECT_EQ(copy.private_connectivity_bytes(), 0u);
    EXPECT_EQ(copy.connectivity_bytes(), m.connectivity_bytes());
}

TEST(MeshSnapshot, EditAfterCopyCostsChunksNotTheWholeMesh) {
    // Big enough for many chunks per array: an edit must clone only the chunks it touches.
    const Mesh original = build_from_face_soup(10242, test::icosphere(5).triangles).mesh;
    Mesh m = original;
    m.flip(Edge{0});
    EXPECT_FALSE(m == original);
    EXPECT_TRUE(test::valid(original));
    EXPECT_TRUE(test::valid(m));
    EXPECT_GT(m.private_connectivity_bytes(), 0u);
    EXPECT_LT(m.private_connectivity_bytes() * 4, m.connectivity_bytes());
    // The original did not change: flipping back three more times restores the same rings.
    for (int i = 0; i < 3; ++i)
        m.flip(Edge{0});
    EXPECT_TRUE(test::same_connectivity(m, original));
}

TEST(MeshSnapshot, DeepCopyIsEqualAndSharesNothing) {
    const Mesh m = test::build(test::icosphere(2));
    const Mesh snapshot = m; // m's chunks are now shared with snapshot
    const Mesh deep = m.deep_copy();
    EXPECT_TRUE(deep == m);
    EXPECT_TRUE(test::valid(deep));
    EXPECT_EQ(deep.private_connectivity_bytes(), deep.connectivity_bytes());
    EXPECT_EQ(m.private_connectivity_bytes(), 0u) << "still shared with the snapshot only";
    EXPECT_EQ(deep.vertex_slots(), m.vertex_slots());
    EXPECT_EQ(deep.face_slots(), m.face_slots());
    EXPECT_EQ(deep.edge_slots(), m.edge_slots());

    // Deleted elements and free lists are copied too.
    Mesh edited = m;
    edited.collapse(Edge{0});
    const Mesh deep_edited = edited.deep_copy();
    EXPECT_TRUE(deep_edited == edited);
    Mesh a = edited, b = deep_edited;
    EXPECT_EQ(a.add_vertex(), b.add_vertex()) << "same free list top";
}

TEST(MeshSnapshot, EqualityComparesElementsConnectivityAndFreeLists) {
    const auto shape = test::octahedron();
    const Mesh a = test::build(shape);
    const Mesh b = test::build(shape);
    EXPECT_TRUE(a == b) << "same input, same order: same ids";
    EXPECT_TRUE(Mesh{} == Mesh{});

    Mesh c = a;
    c.add_vertex();
    EXPECT_FALSE(c == a);

    // Same faces added in another order: another numbering of the same surface.
    std::vector<Triangle> reversed(shape.triangles.rbegin(), shape.triangles.rend());
    const Mesh d = test::build(shape, reversed);
    EXPECT_EQ(test::face_corners(d), test::face_corners(a));
    EXPECT_FALSE(d == a);

    // A split followed by a collapse of the new vertex gives back the counts but the ids of the
    // deleted elements are now on the free lists, so the meshes differ.
    Mesh e = a;
    const Edge n = e.split(Edge{0});
    e.collapse(n.sym());
    EXPECT_TRUE(test::valid(e));
    EXPECT_EQ(e.vertex_count(), a.vertex_count());
    EXPECT_FALSE(e == a);
}

} // namespace
} // namespace orbis
