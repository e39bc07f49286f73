// Partial -> Shard: every process lays the whole term out as size ceil-sized chunks (shard dim
// in front, zero padded); one reduce-scatter gives each process the reduction of its chunk,
// whose real rows it keeps.
#include "skiff/core/views.h"
#include "skiff/dist/reshard/local_ops.h"
#include "skiff/dist/reshard/reshard_1d.h"
#include "skiff/dist/shard_layout.h"

namespace skiff::dist {

DenseTensor p_to_s(const DenseTensor& local, ReduceType reduce, int64_t dim, const AxisGroup& g) {
  int64_t n = local.dims()[static_cast<int>(dim)];
  auto r = shard_range(n, g.size, g.index);
  if (g.size == 1) return local_ops::clone(local);
  comm::ReduceOp op = comm_reduce_op(reduce);
  auto shape = local.dims().to_vector();
  shape[static_cast<size_t>(dim)] = r.size();
  DenseTensor out = local_ops::zeros(shape, local.dtype());
  int64_t c = chunk_size(n, g.size);
  DenseTensor all = local_ops::front_padded(local, dim, c * g.size);
  if (all.numel() == 0) return out;
  auto mine_shape = all.dims().to_vector();
  mine_shape[0] = c;
  DenseTensor mine = DenseTensor::empty(Dims(mine_shape), local.dtype());
  g.group->reduce_scatter(mine, all, op, true)->wait();
  local_ops::unpad_into(mine, dim, out);
  return out;
}

}  // namespace skiff::dist
