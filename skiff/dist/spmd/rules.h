// The SPMD (sharding propagation) rules that op records name in `spmd_rule`
// (skiff/ops/spmd_rules.yaml; Paddle's *InferSpmd in paddle/phi/infermeta/spmd_rules). A rule
// takes the inputs' global shapes and dist attrs plus the op's attributes and returns the dist
// attrs the inputs must be resharded to and the outputs' dist attrs (SpmdInfo). Inputs are
// validated first: a bad dims_mapping or partial status is InvalidArgument naming the rule and
// the argument, and all inputs must share one process mesh. Partial inputs are not propagated:
// the inferred input attrs are never partial (the caller reduces them first), as in Paddle.
#pragma once

#include <cstdint>
#include <vector>

#include "skiff/dist/spmd/dist_attr.h"

namespace skiff::dist::spmd {

/// out keeps x's shardings (ElementwiseUnaryInferSpmd).
SpmdInfo elementwise_unary_spmd(const DistTensorSpec& x);

/// Right-aligned broadcast; a size-1 dim broadcast against a larger one is replicated; the other
/// dims merge their shardings across x and y (ElementwiseBinaryInferSpmd).
SpmdInfo elementwise_binary_spmd(const DistTensorSpec& x, const DistTensorSpec& y);

/// x [b..]mk, y [b..]kn -> out [b..]mn (1-d operands as in paddle.matmul; trans_* swap the last
/// two dims of a >= 2-d operand); batch dims broadcast; a sharded k makes out Partial(sum) on that
/// mesh axis (MatmulInferSpmd).
SpmdInfo matmul_spmd(const DistTensorSpec& x, const DistTensorSpec& y, bool trans_x = false,
                     bool trans_y = false);

/// Reduces `axis` (negative counts from the end; empty = all dims); a reduced sharded dim makes
/// out Partial(`reduce_type`) on its mesh axis; keepdim keeps a replicated size-1 dim
/// (ReductionInferSpmd; mean passes kRedAvg, max kRedMax, ...).
SpmdInfo reduction_spmd(const DistTensorSpec& x, const std::vector<int64_t>& axis, bool keepdim,
                        ReduceType reduce_type = ReduceType::kRedSum);

/// Every input and output replicated on the first input's mesh; `output_ndims` gives each
/// output's rank (ReplicatedInferSpmd).
SpmdInfo replicated_spmd(const std::vector<DistTensorSpec>& inputs,
                         const std::vector<int64_t>& output_ndims);

}  // namespace skiff::dist::spmd
