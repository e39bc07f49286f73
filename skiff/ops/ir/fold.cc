// Kernel-executing constant folding: an op.* op whose operands are all constants runs through
// the boxed call path (infer-meta, kernel selection, the CPU kernel) like an eager call, and its
// results become dense<...> constants. Ops that cannot be evaluated now (random, side effects,
// dynamic or large results, Tensor[] operands or results, no kernel for the dtype) stay.
#include "skiff/ops/ir/fold.h"

#include "skiff/base/error.h"
#include "skiff/base/flags.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ops/boxed.h"
#include "skiff/ops/ir/bridge_util.h"

SKIFF_DEFINE_FLAG(int, ir_fold_max_elements, 65536,
                  "largest number of result elements that IR constant folding materializes")

namespace skiff::ops::ir_bridge {

int64_t fold_max_elements() { return flags::ir_fold_max_elements(); }

bool kernel_fold(OpId id, ir::Operation* op, std::span<const ir::Attribute> operands,
                 std::vector<ir::Attribute>& results) {
  const OpSchema& s = op_schema(id);
  if (s.is_random || !ir::is_pure(op) || op->num_regions()) return false;
  int64_t total = 0;
  for (uint32_t j = 0; j < op->num_results(); ++j) {
    auto t = op->result_type(j).dyn_cast<ir::TensorType>();
    if (!t || t.is_dynamic()) return false;
    total += t.numel();
  }
  if (total > fold_max_elements()) return false;

  BoxedInputs in;
  size_t k = 0;
  for (const ArgSchema& arg : s.args) {
    if (!is_tensor_kind(arg.kind)) continue;
    if (k >= operands.size() || arg.kind == ArgKind::kTensorList) return false;
    ir::Value v = op->operand(static_cast<uint32_t>(k));
    std::vector<DenseTensor>& list = in.tensors.emplace_back();
    if (v) {
      auto t = v.type().dyn_cast<ir::TensorType>();
      if (!t || t.is_dynamic() || !operands[k]) return false;
      list.push_back(to_dense(operands[k], t));
    } else if (arg.kind != ArgKind::kOptionalTensor) {
      return false;
    }
    ++k;
  }
  BoxedOutputs outs;
  try {
    in.attrs = attr_map(s, op->attrs());
    outs = call_boxed(id, in);
  } catch (const Error&) {
    return false;  // e.g. no CPU kernel for this dtype: the op stays for the executor to report
  }
  if (outs.size() != op->num_results()) return false;
  results.clear();
  for (uint32_t j = 0; j < op->num_results(); ++j) {
    if (outs[j].size() != 1) return false;
    const DenseTensor& r = outs[j][0];
    ir::DenseElementsAttr a = to_attr(op->context(), r);
    if (a.type() != op->result_type(j)) return false;  // infer-meta and the IR disagree: keep
    results.push_back(a);
  }
  return true;
}

}  // namespace skiff::ops::ir_bridge
