// Replicate -> Partial: the pending reduction of the terms must give back the value, so one
// process keeps it and the others hold the identity (nothing is sent).
#include "skiff/dist/reshard/local_ops.h"
#include "skiff/dist/reshard/reshard_1d.h"

namespace skiff::dist {

DenseTensor r_to_p(const DenseTensor& local, ReduceType reduce, const AxisGroup& g) {
  DenseTensor out = local_ops::clone(local);
  if (g.index != 0) local_ops::fill_identity(out, reduce);
  return out;
}

}  // namespace skiff::dist
