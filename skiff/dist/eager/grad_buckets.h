// Note [Leaf gradients are reduced in buckets]: in data parallel every replicated parameter's
// gradient arrives Partial(dp). Reducing each one as it lands costs one blocking all-reduce per
// parameter (dozens per step, each paying Gloo's fixed cost). Instead a leaf whose gradient only
// needs its pending reductions applied (the same dims_mapping, minus the partial status) keeps
// the Partial gradient during backward, and when the outermost backward has finished the
// gradients are reduced together: grouped by mesh, partial status and dtype, packed into flat
// buffers of at most grad_bucket_bytes(), one all-reduce per partial mesh dim per buffer, and
// unpacked into each leaf's `.grad`. Every rank runs the same program, so the leaves arrive in
// the same order everywhere and the buffers match. A backward that records its own graph
// (create_graph) reduces at once, as do gradients bound for another layout (ShardingStage2's
// reduce-scatter).
#pragma once

#include <cstdint>

#include "skiff/core/tensor.h"
#include "skiff/dist/spmd/dist_attr.h"

namespace skiff::dist {

/// The largest flat buffer of one bucket: 64 MiB, or SKIFF_GRAD_BUCKET_BYTES (a positive byte
/// count, read at each reduction; other values keep the default).
int64_t grad_bucket_bytes();

/// True when `grad` (a DistTensor) reaches `want` by its pending reductions alone, inside a
/// backward that records nothing: the leaf may then keep it until backward ends.
bool can_defer_leaf_reduction(const Tensor& grad, const spmd::DistAttr& want);

/// Remembers `leaf` (a DistTensor leaf whose gradient is now Partial) and queues the reduction
/// of every remembered leaf's `.grad` for the end of the outermost backward.
void defer_leaf_reduction(const Tensor& leaf, const spmd::DistAttr& want);

/// All-reduces issued by the bucketed reductions in this process (tests check the counts).
int64_t bucketed_all_reduce_count();

}  // namespace skiff::dist
