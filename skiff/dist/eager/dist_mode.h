// The eager distributed mode (Note [DistMode above autograd] in docs/ARCHITECTURE.md): a
// dispatch Mode at order::kDistributed that runs every op with a DistTensor input as SPMD rule ->
// reshard inputs -> the dense op on local values -> DistTensor outputs with the rule's
// placements. It replaces only the kernel, so autograd below records the grad node on the
// DistTensor handles and backward's ops come back through the mode.
#pragma once

#include <cstdint>

namespace skiff::dist {

/// Puts the mode on every thread's stack (idempotent); shard_tensor and dtensor_from_local call
/// it, so programs without dist tensors keep the fast path.
void enable_dist_mode();
/// Distinct (op, input placements, shapes) keys whose rule result is cached.
int64_t dist_mode_cache_size();

}  // namespace skiff::dist
