// In-place updates of distributed tensors in the eager distributed mode: the fused optimizer ops
// (fused_sgd_, fused_momentum_, fused_adam_, fused_adamw_, ...), whose tensor lists run in
// parallel (element i of every list belongs to parameter i) and whose single tensors (learning
// rate, step) are scalars. Element i of every list runs in one layout, the most sharded of the
// written tensors at i (a ShardingStage1 moment sharded over dp, a replicated parameter: the
// update runs on the parameter's dp shard); read-only lists are resharded to it (a Partial
// gradient reduced), written tensors in another layout are resharded to it and their updated
// pieces resharded back and copied into their own local values, so every handle keeps its
// placements and its storage.
#pragma once

#include "skiff/ops/dispatch/mode.h"

namespace skiff::dist {

/// True for in-place, non-differentiable ops with tensor-list arguments (the optimizer updates).
bool is_inplace_update(const dispatch::OpCall& call);

/// The replaced kernel of such a call whose inputs include DistTensors.
void inplace_update_kernel(dispatch::OpCall& call, void* ctx);

}  // namespace skiff::dist
