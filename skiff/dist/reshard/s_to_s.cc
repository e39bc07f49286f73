// Shard(from) -> Shard(to): process i holds rows range(from, i) of every column; process j
// needs every row of columns range(to, j). Block (i -> j) = my rows x j's columns, laid out as
// [ceil rows, ceil columns, rest] padded with zeros so one equal-chunk all-to-all moves them all;
// each received block's real part is written to its rows.
#include "skiff/core/views.h"
#include "skiff/dist/reshard/local_ops.h"
#include "skiff/dist/reshard/reshard_1d.h"
#include "skiff/dist/shard_layout.h"

namespace skiff::dist {

namespace {

// [from, to, the other dims in order]: the layout of blocks.
std::vector<int64_t> block_perm(int64_t ndim, int64_t from, int64_t to) {
  std::vector<int64_t> perm{from, to};
  for (int64_t d = 0; d < ndim; ++d) {
    if (d != from && d != to) perm.push_back(d);
  }
  return perm;
}

// Block i of a [size, block...] buffer.
DenseTensor at(const DenseTensor& buf, int64_t i) {
  return view_squeeze(view_slice(buf, 0, i, i + 1), std::vector<int64_t>{0});
}

}  // namespace

DenseTensor s_to_s(const DenseTensor& local, int64_t from, int64_t from_n, int64_t to,
                   const AxisGroup& g) {
  if (g.size == 1) return local_ops::clone(local);
  int64_t to_n = local.dims()[static_cast<int>(to)];
  auto perm = block_perm(local.rank(), from, to);
  DenseTensor moved = view_permute(local, perm);  // [my rows, to_n, rest]
  auto block = moved.dims().to_vector();
  block[0] = chunk_size(from_n, g.size);
  block[1] = chunk_size(to_n, g.size);
  auto buf_shape = block;
  buf_shape.insert(buf_shape.begin(), g.size);

  auto out_shape = local.dims().to_vector();
  out_shape[static_cast<size_t>(from)] = from_n;
  out_shape[static_cast<size_t>(to)] = shard_range(to_n, g.size, g.index).size();
  DenseTensor out = local_ops::zeros(out_shape, local.dtype());
  DenseTensor send = local_ops::zeros(buf_shape, local.dtype());
  if (send.numel() == 0) return out;

  int64_t rows = moved.dims()[0];
  for (int64_t j = 0; j < g.size; ++j) {
    auto cols = shard_range(to_n, g.size, j);
    if (rows == 0 || cols.size() == 0) continue;
    DenseTensor dst = view_slice(view_slice(at(send, j), 0, 0, rows), 1, 0, cols.size());
    dst.copy_from(view_slice(moved, 1, cols.begin, cols.end));
  }
  DenseTensor recv = DenseTensor::empty(Dims(buf_shape), local.dtype());
  g.group->all_to_all(recv, send, {}, {}, true)->wait();

  DenseTensor out_moved = view_permute(out, perm);  // [from_n, my columns, rest]
  int64_t my_cols = out_moved.dims()[1];
  for (int64_t i = 0; i < g.size; ++i) {
    auto r = shard_range(from_n, g.size, i);
    if (r.size() == 0 || my_cols == 0) continue;
    view_slice(out_moved, 0, r.begin, r.end)
        .copy_from(view_slice(view_slice(at(recv, i), 0, 0, r.size()), 1, 0, my_cols));
  }
  return out;
}

}  // namespace skiff::dist
