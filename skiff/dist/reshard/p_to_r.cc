// Partial -> Replicate: one all-reduce with the placement's reduction (avg divides the sum).
#include "skiff/base/error.h"
#include "skiff/dist/reshard/local_ops.h"
#include "skiff/dist/reshard/reshard_1d.h"

namespace skiff::dist {

comm::ReduceOp comm_reduce_op(ReduceType reduce) {
  switch (reduce) {
    case ReduceType::kRedSum:
      return comm::ReduceOp::kSum;
    case ReduceType::kRedAvg:
      return comm::ReduceOp::kAvg;
    case ReduceType::kRedMax:
      return comm::ReduceOp::kMax;
    case ReduceType::kRedMin:
      return comm::ReduceOp::kMin;
    case ReduceType::kRedProd:
      return comm::ReduceOp::kProd;
    default:
      break;
  }
  SKIFF_THROW(kUnimplemented, "reshard", "placements",
              "Partial with reduce type sum, avg, max, min or prod",
              str("Partial(", reduce_type_name(reduce), ")"));
}

DenseTensor p_to_r(const DenseTensor& local, ReduceType reduce, const AxisGroup& g) {
  DenseTensor out = local_ops::clone(local);
  if (g.size == 1 || out.numel() == 0) return out;
  g.group->all_reduce(out, comm_reduce_op(reduce), true)->wait();
  return out;
}

}  // namespace skiff::dist
