// The 1-D reshard primitives (Paddle's r_to_s, s_to_r, p_to_r, p_to_s, s_to_s, r_to_p reshard
// functions): each turns this process's local value for one mesh dim into the value for another
// placement on that dim, talking only to the processes of that dim's slice through this one
// (`AxisGroup`). Shards are the ceil-sized chunks of shard_layout.h; collectives that need equal
// chunks carry uneven shards in zero-padded buffers of the ceil size, and the padding is dropped
// on arrival. Sizes depend only on the global shape, so every member makes the same calls, and a
// step whose buffers have no elements makes none on every member.
#pragma once

#include <cstdint>

#include "skiff/comm/process_group.h"
#include "skiff/core/dense_tensor.h"
#include "skiff/dist/placement.h"

namespace skiff::dist {

/// One mesh dim's slice through this process: its size, this process's index in it, and the
/// group of its processes (nullptr when size is 1: every step is then local).
struct AxisGroup {
  int64_t size = 1;
  int64_t index = 0;
  comm::ProcessGroup* group = nullptr;
};

/// Replicate -> Shard(dim): this process's chunk of dim `dim` (no communication).
DenseTensor r_to_s(const DenseTensor& local, int64_t dim, const AxisGroup& g);
/// Shard(dim) -> Replicate: all-gather; `global_n` is the dim's full size.
DenseTensor s_to_r(const DenseTensor& local, int64_t dim, int64_t global_n, const AxisGroup& g);
/// Partial(reduce) -> Replicate: all-reduce.
DenseTensor p_to_r(const DenseTensor& local, ReduceType reduce, const AxisGroup& g);
/// Partial(reduce) -> Shard(dim): reduce-scatter over ceil-sized padded chunks.
DenseTensor p_to_s(const DenseTensor& local, ReduceType reduce, int64_t dim, const AxisGroup& g);
/// Shard(from) -> Shard(to): all-to-all of padded blocks; `from_n` is dim `from`'s full size.
DenseTensor s_to_s(const DenseTensor& local, int64_t from, int64_t from_n, int64_t to,
                   const AxisGroup& g);
/// Replicate -> Partial(reduce): index 0 keeps the value, the others hold the reduction's
/// identity (no communication; avg, max, min keep the value everywhere).
DenseTensor r_to_p(const DenseTensor& local, ReduceType reduce, const AxisGroup& g);

/// The comm ReduceOp of a placement's ReduceType (Unimplemented for any/all).
comm::ReduceOp comm_reduce_op(ReduceType reduce);

}  // namespace skiff::dist
