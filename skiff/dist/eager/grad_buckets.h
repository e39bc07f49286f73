// Note [Leaf gradients are reduced in buckets]: in data parallel every replicated parameter's
// gradient arrives Partial(dp). Reducing each one as it lands costs one blocking all-reduce per
// parameter (dozens per step, each paying Gloo's fixed cost), and reducing them all after
// backward leaves the communication exposed. Instead a leaf whose gradient only needs its
// pending reductions applied (the same dims_mapping, minus the partial status) keeps the Partial
// gradient, and the gradients are reduced together: grouped by mesh, partial status and dtype,
// packed into flat buffers of about grad_bucket_bytes(), one all-reduce per partial mesh dim per
// buffer. As soon as the leaves deferred so far hold that many bytes of final gradients (a
// leaf's accumulation runs once per backward), their bucket is packed and its all-reduce
// launched on the group's thread, so it runs while backward computes the earlier layers'
// gradients, as Paddle's and PyTorch's DataParallel reducers do. When the outermost backward
// ends, the rest is launched, and every bucket is waited for in launch order and unpacked into
// its leaves' `.grad`. Every rank runs the same program, so the leaves arrive in the same order
// everywhere and the buffers match. A backward that records its own graph (create_graph)
// reduces at once, as do gradients bound for another layout (ShardingStage2's reduce-scatter).
#pragma once

#include <cstdint>

#include "skiff/core/tensor.h"
#include "skiff/dist/spmd/dist_attr.h"

namespace skiff::dist {

/// The size at which deferred gradients are packed and launched, and the largest flat buffer of
/// one bucket: 25 MiB, or SKIFF_GRAD_BUCKET_BYTES (a positive byte count, read at the first
/// deferral of each backward; other values keep the default).
int64_t grad_bucket_bytes();

/// True when `grad` (a DistTensor) reaches `want` by its pending reductions alone, inside a
/// backward that records nothing: the leaf may then keep it until backward ends.
bool can_defer_leaf_reduction(const Tensor& grad, const spmd::DistAttr& want);

/// Remembers `leaf` (a DistTensor leaf about to accumulate the Partial gradient `grad`), launches
/// the bucket of the leaves remembered before it once they hold grad_bucket_bytes(), and queues
/// the rest, and the landing of every bucket, for the end of the outermost backward.
void defer_leaf_reduction(const Tensor& leaf, const Tensor& grad, const spmd::DistAttr& want);

/// All-reduces issued by the bucketed reductions in this process (tests check the counts).
int64_t bucketed_all_reduce_count();

/// Buckets launched while their backward was still running (tests check overlap happens).
int64_t overlapped_bucket_launches();

}  // namespace skiff::dist
