// Reshard on one n-d mesh (Paddle's SameNdMeshReshardFunction), mesh dim by mesh dim with the
// 1-D primitives of reshard_1d.h over each dim's slice through this process:
//   1. Partial dims the target does not keep: reduce-scatter when the target shards a dim no
//      other mesh dim holds, else all-reduce;
//   2. Shard(a) -> Shard(b) on one mesh dim: all-to-all, when b is free elsewhere;
//   3. remaining changed Shard dims: all-gather;
//   4. Replicate -> Shard (slice) or -> Partial (identity terms).
// A tensor dim is never sharded on two mesh dims at once, so each step's "global" size of the
// dim it moves is the full global size. Processes outside the mesh only update the metadata.
#pragma once

#include "skiff/core/tensor.h"
#include "skiff/dist/reshard/comm_context.h"
#include "skiff/dist/reshard/reshard_1d.h"
#include "skiff/dist/spmd/dist_attr.h"

namespace skiff::dist {

/// `t` (a DistTensor) laid out as `dst` (same mesh; Unimplemented across meshes). `ctx` may be
/// nullptr only when every mesh dim that changes has size 1 (PreconditionNotMet otherwise);
/// mesh process ids must be below its world size (InvalidArgument).
Tensor reshard(const Tensor& t, const spmd::DistAttr& dst, CommContext* ctx);

/// Collectives reshard has issued in this process, per primitive (over groups of more than one
/// process): tests check that a program makes no needless all-gather.
struct ReshardCounts {
  int64_t all_reduce = 0;      // p_to_r
  int64_t reduce_scatter = 0;  // p_to_s
  int64_t all_to_all = 0;      // s_to_s
  int64_t all_gather = 0;      // s_to_r
};
ReshardCounts reshard_counts();

/// The slice of mesh dim `axis` through `rank`'s coordinate: the global ranks, in order.
std::vector<int64_t> axis_ranks(const ProcessMesh& mesh, int64_t axis, int64_t rank);

/// The slice of mesh dim `axis` through `rank` with its process group from `ctx` (no group for
/// a dim of size 1); PreconditionNotMet naming `op` when the dim has several processes and `ctx`
/// is nullptr.
AxisGroup axis_group(const char* op, const ProcessMesh& mesh, int64_t axis, int64_t rank,
                     CommContext* ctx);

/// InvalidArgument naming `op` unless every process id of `mesh` is below `world_size`.
void check_mesh_in_world(const char* op, const ProcessMesh& mesh, int64_t world_size);

}  // namespace skiff::dist
