// The eager distributed mode's rule table: which SPMD rule (skiff/dist/spmd/rules.h) runs an op,
// looked up by op name, and in which inputs an op is linear (a Partial value there may pass
// through unreduced). A stand-in until the generator carries each record's `spmd_rule` into
// OpSchema with a boxed adapter; the table covers the ops the forward and backward of
// matmul/linear, elementwise, activation, reduction, norm and shape (RoPE) programs call.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "skiff/dist/spmd/dist_attr.h"
#include "skiff/ops/dispatch/mode.h"

namespace skiff::dist {

/// The rule's result for op `name` on `specs` (one per defined tensor input, their partial
/// statuses cleared), or nullopt when the table has no rule for it.
std::optional<spmd::SpmdInfo> table_rule(const std::string& name,
                                         const std::vector<spmd::DistTensorSpec>& specs,
                                         const dispatch::Attrs& attrs);

/// Where op `name` is linear in its (defined) tensor inputs. Note [Partial through linear ops]:
/// a Partial(sum) or Partial(avg) value v = sum_r v_r (or their mean) gives f(v) = sum_r f(v_r)
/// when f is linear in it and every other input is the same on all ranks, so the op can run on
/// the local terms and its output stays Partial: no reduction where backward makes Partial
/// gradients (a dW contracted over a dp-sharded batch, reshaped and accumulated).
struct Linearity {
  std::vector<size_t> args;  // inputs the op is linear in (at most one of them Partial)
  bool together = false;     // add/subtract: every input Partial alike, summed termwise
};
std::optional<Linearity> linearity(const std::string& name, const dispatch::Attrs& attrs,
                                   size_t n_inputs);

/// True for ops whose output takes only x's shape and dtype (full_like, zeros_like, ...): x is
/// not resharded, even when Partial, and out is x's layout without the partial status.
bool shape_only(const std::string& name);

}  // namespace skiff::dist
