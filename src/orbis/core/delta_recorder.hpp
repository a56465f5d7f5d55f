// SPDX-License-Identifier: MIT
// Collects the World_delta of the edits made on a World, for in-place buffer updates.
#pragma once

#include "orbis/core/world_delta.hpp"

#include <cstdint>
#include <memory>

namespace orbis {

class World;

/// Records which vertices and faces the mesh edits on a World touch (flip, split, collapse,
/// through the World's mesh callbacks), from the moment it is made until it is destroyed.
/// Edits of positions or layer values made outside the mesh edits are added with touch().
///
/// The callbacks hold the record through a shared pointer, not the recorder: snapshots copied
/// while it records carry them, and they stay harmless after the recorder is gone.
class Delta_recorder {
public:
    /// Starts recording on `world`, which must outlive the recorder.
    explicit Delta_recorder(World& world);
    ~Delta_recorder();
    Delta_recorder(const Delta_recorder&) = delete;
    Delta_recorder& operator=(const Delta_recorder&) = delete;

    /// Adds a vertex whose position or layer values were changed directly.
    void touch(Vertex v);
    /// Adds a face whose layer values were changed directly.
    void touch(Face f);
    /// The delta from the state the recorder started at to now (elements may repeat).
    World_delta delta() const;

private:
    struct State;
    World& world_;
    std::shared_ptr<State> state_;
    std::uint64_t callbacks_id_ = 0;
};

} // namespace orbis
