// Replicate -> Shard: every process already holds the whole dim, so it keeps its own chunk.
#include "skiff/core/views.h"
#include "skiff/dist/reshard/local_ops.h"
#include "skiff/dist/reshard/reshard_1d.h"
#include "skiff/dist/shard_layout.h"

namespace skiff::dist {

DenseTensor r_to_s(const DenseTensor& local, int64_t dim, const AxisGroup& g) {
  auto r = shard_range(local.dims()[static_cast<int>(dim)], g.size, g.index);
  return local_ops::clone(view_slice(local, dim, r.begin, r.end));
}

}  // namespace skiff::dist
