// Shard -> Replicate: each process pads its chunk to the ceil size with the shard dim in front,
// one all-gather concatenates the padded chunks, and each chunk's real rows are written back to
// their place in the full dim.
#include "skiff/core/views.h"
#include "skiff/dist/reshard/local_ops.h"
#include "skiff/dist/reshard/reshard_1d.h"
#include "skiff/dist/shard_layout.h"

namespace skiff::dist {

DenseTensor s_to_r(const DenseTensor& local, int64_t dim, int64_t global_n, const AxisGroup& g) {
  if (g.size == 1) return local_ops::clone(local);
  auto shape = local.dims().to_vector();
  shape[static_cast<size_t>(dim)] = global_n;
  DenseTensor out = local_ops::zeros(shape, local.dtype());
  if (out.numel() == 0) return out;
  int64_t c = chunk_size(global_n, g.size);
  DenseTensor mine = local_ops::front_padded(local, dim, c);
  auto all_shape = mine.dims().to_vector();
  all_shape.insert(all_shape.begin(), g.size);
  DenseTensor all = DenseTensor::empty(Dims(all_shape), local.dtype());
  g.group->all_gather(all, mine, true)->wait();
  for (int64_t i = 0; i < g.size; ++i) {
    auto r = shard_range(global_n, g.size, i);
    if (r.size() == 0) continue;
    DenseTensor chunk = view_squeeze(view_slice(all, 0, i, i + 1), std::vector<int64_t>{0});
    local_ops::unpad_into(chunk, dim, view_slice(out, dim, r.begin, r.end));
  }
  return out;
}

}  // namespace skiff::dist
