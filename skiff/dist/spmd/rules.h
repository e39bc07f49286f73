// The SPMD (sharding propagation) rules that op records name in `spmd_rule`
// (skiff/ops/spmd_rules.yaml; Paddle's *InferSpmd in paddle/phi/infermeta/spmd_rules). A rule
// takes the inputs' global shapes and dist attrs plus the op's attributes and returns the dist
// attrs the inputs must be resharded to and the outputs' dist attrs (SpmdInfo). Inputs are
// validated first: a bad dims_mapping or partial status is InvalidArgument naming the rule and
// the argument, and all inputs must share one process mesh. Partial inputs are not propagated:
// the inferred input attrs are never partial (the caller reduces them first), as in Paddle,
// except index_add_spmd's x (see there).
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

/// Three-way elementwise select over condition, x, y with right-aligned broadcasting
/// (WhereInferSpmd).
SpmdInfo where_spmd(const DistTensorSpec& condition, const DistTensorSpec& x,
                    const DistTensorSpec& y);

/// out[i] takes x's sharding of dim perm[i] (negative perm entries count from the end)
/// (TransposeInferSpmd).
SpmdInfo transpose_spmd(const DistTensorSpec& x, const std::vector<int64_t>& perm);

/// Shardings through a reshape to `shape` (one -1 inferred, 0 copies x's dim; Paddle's reshape
/// semantics; a dynamic (-1) dim of x must be copied by a 0 at its position): dims are grouped into
/// runs of equal element count; a dim that maps one to one keeps its sharding; in a run that merges
/// or splits dims only the first source dim may stay sharded, and only when both it and the first
/// target dim divide by the mesh axis's size; every other dim of the run is replicated
/// (ReshapeInferSpmd with its dim_trans).
SpmdInfo reshape_spmd(const DistTensorSpec& x, const std::vector<int64_t>& shape);

/// Broadcast of x to `shape` (right-aligned; -1 keeps x's size): new leading dims and size-1
/// dims that grow are replicated, the others keep x's sharding (as Paddle's ExpandAsInferSpmd;
/// broadcast_to and expand).
SpmdInfo expand_spmd(const DistTensorSpec& x, const std::vector<int64_t>& shape);

/// The softmax axis replicated on x and out (SoftmaxInferSpmd).
SpmdInfo softmax_spmd(const DistTensorSpec& x, int64_t axis);

/// Dims >= begin_norm_axis replicated; scale and bias (nullptr when absent: an empty DistAttr in
/// the result) replicated; out follows x; mean and variance (x.dims[:begin_norm_axis]) take x's
/// leading shardings (LayerNormInferSpmd).
SpmdInfo layer_norm_spmd(const DistTensorSpec& x, const DistTensorSpec* scale,
                         const DistTensorSpec* bias, float epsilon, int64_t begin_norm_axis);

/// As layer_norm_spmd for rms_norm's (out, inv_rms); begin_norm_axis -1 normalizes the last dim
/// (RmsNormInferSpmd).
SpmdInfo rms_norm_spmd(const DistTensorSpec& x, const DistTensorSpec* weight, float epsilon,
                       int64_t begin_norm_axis);

/// The concat axis replicated; the other dims merged across the inputs, which must have one
/// rank (ConcatInferSpmd).
SpmdInfo concat_spmd(const std::vector<DistTensorSpec>& x, int64_t axis);

/// The split axis replicated on x and on each of the `num_outputs` outputs; the section sizes do
/// not change the layout (SplitInferSpmd, SplitWithNumInferSpmd).
SpmdInfo split_spmd(const DistTensorSpec& x, int64_t num_outputs, int64_t axis);

/// The sliced axes replicated; decrease_axis dims are dropped from out (SliceInferSpmd).
SpmdInfo slice_spmd(const DistTensorSpec& input, const std::vector<int64_t>& axes,
                    const std::vector<int64_t>& decrease_axis = {});

/// Dims with a nonzero padding replicated on x and out, the others keep x's sharding; `paddings`
/// as paddle's pad op takes it (one pair per dim, or pairs from the last dim back) (PadInferSpmd).
SpmdInfo pad_spmd(const DistTensorSpec& x, const std::vector<int64_t>& paddings);

/// The rolled axes replicated on x and out (a shift moves elements between shards); with
/// `axis` empty the flattened tensor rolls, so every dim is replicated (RollInferSpmd). roll's
/// gradient is roll with negated shifts: the same rule.
SpmdInfo roll_spmd(const DistTensorSpec& x, const std::vector<int64_t>& shifts,
                   const std::vector<int64_t>& axis);

/// ids x [..] and table weight [vocab, hidden] -> out [.., hidden]; a vocab-sharded table gives
/// out Partial(sum) on that mesh axis (each process looks up its rows, others give zeros), except
/// with a padding_idx, where the vocab dim is replicated (EmbeddingInferSpmd).
SpmdInfo embedding_spmd(const DistTensorSpec& x, const DistTensorSpec& weight,
                        int64_t padding_idx = -1);

/// Outputs (softmax, loss): logits and label share the non-class dims (a hard label's class dim
/// has size 1 and is replicated); the class axis is replicated, so loss needs no reduction (the
/// vocab-parallel c_softmax_with_cross_entropy variant is not implemented)
/// (CrossEntropyWithSoftmaxInferSpmd).
SpmdInfo cross_entropy_with_softmax_spmd(const DistTensorSpec& logits, const DistTensorSpec& label,
                                         bool soft_label = false, bool use_softmax = true,
                                         bool numeric_stable_mode = true,
                                         int64_t ignore_index = -100, int64_t axis = -1);

/// put_along_axis(arr, indices, values, axis): the axis replicated in all three (an index
/// may point anywhere along it), the other dims merged where indices cover arr (values
/// broadcast to indices from the right; its size-1 dims replicated); out like arr. The same
/// layouts for every reduce mode (PutAlongAxisInferSpmd).
SpmdInfo put_along_axis_spmd(const DistTensorSpec& arr, const DistTensorSpec& indices,
                             const DistTensorSpec& values, int64_t axis);

/// index_add(x, index [n], axis, value): x's axis replicated, its other dims merged with
/// value's; value's axis dim goes with index. Sharded index rows make out Partial(sum) on that
/// mesh axis (each process adds its rows), and x then enters as Partial on it (held by one
/// process, zeros elsewhere) so that it is counted once: the one rule whose inferred inputs may
/// be partial, done by an r->p reshard (no communication). embedding's weight gradient is
/// index_add(zeros, ids, 0, grad): Partial over the axes sharding the ids.
SpmdInfo index_add_spmd(const DistTensorSpec& x, const DistTensorSpec& index, int64_t axis,
                        const DistTensorSpec& value);

/// flash_attn on q [b, sq, h, d], k and v [b, sk, hk, d] (optional fixed_seed_offset [2]):
/// batch and heads merged across q, k, v and kept sharded (each process attends its own batch
/// rows and heads: no communication); the sequence and head_dim axes are replicated (a
/// sharded sequence is all-gathered first: causal attention needs every earlier key). With
/// grouped heads (hk < h) the heads stay sharded only when hk divides by the mesh axis, so that
/// every process holds the key heads of its query heads. Outputs (out, softmax, softmax_lse,
/// seed_offset): out like q, softmax [b, h, sq, sk] (or [0] without return_softmax) and
/// softmax_lse [b, h, sq] with q's batch and heads, seed_offset replicated (FlashAttInferSpmd).
SpmdInfo flash_attn_spmd(const DistTensorSpec& q, const DistTensorSpec& k, const DistTensorSpec& v,
                         const DistTensorSpec* fixed_seed_offset, bool return_softmax = false);

/// flash_attn_grad on (q, k, v, out, softmax_lse, seed_offset, out_grad): the forward rule's
/// layouts for q, k, v (out and out_grad like q, softmax_lse [b, h, sq], seed_offset
/// replicated, all merged into the batch and heads shardings); q_grad, k_grad, v_grad take the
/// layouts of q, k, v, so no gradient is Partial (FlashAttGradInferSpmd).
SpmdInfo flash_attn_grad_spmd(const DistTensorSpec& q, const DistTensorSpec& k,
                              const DistTensorSpec& v, const DistTensorSpec& out,
                              const DistTensorSpec& softmax_lse, const DistTensorSpec& seed_offset,
                              const DistTensorSpec& out_grad);

}  // namespace skiff::dist::spmd
