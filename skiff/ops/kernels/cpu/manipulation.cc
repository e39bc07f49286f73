// CPU kernels of the manipulation ops. Views assign a tensor sharing x's storage; copies move
// bytes through strided_copy (negative strides for flip) or table_copy (manipulation_util.h).
// Nothing here depends on the element type beyond its size, so every kernel is one
// non-template function instantiated trivially per dtype.
#include "skiff/ops/generated/kernels/manipulation.h"

#include "skiff/core/parallel.h"
#include "skiff/core/views.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/manipulation_util.h"
#include "skiff/ops/meta/manipulation_meta.h"

namespace skiff::ops {

namespace {

using cpu::table_copy;

DenseTensor empty_like_dims(const DenseTensor& x, const Dims& dims) {
  return DenseTensor::empty(dims, x.dtype(), x.place());
}

// A copy of x into a new contiguous tensor of dims `shape` (same numel, row-major order).
DenseTensor reshape_copy(const DenseTensor& x, const Dims& shape) {
  DenseTensor out = empty_like_dims(x, shape);
  DenseTensor as_x = out.as_strided(x.dims(), contiguous_strides(x.dims()), 0);
  as_x.copy_from(x);
  return out;
}

DenseTensor reshape_or_copy(const DenseTensor& x, const Dims& shape) {
  if (auto v = try_view_reshape(x, shape)) return *v;
  return reshape_copy(x, shape);
}

void reshape_impl(const KernelContext& c, const ReshapeArgs& a) {
  TensorMeta m;
  meta::reshape_meta(c.op, a.x.meta(), a.shape, &m);
  *a.out = reshape_or_copy(a.x, m.dims);
}

void flatten_impl(const KernelContext& c, const FlattenArgs& a) {
  TensorMeta m;
  meta::flatten_meta(c.op, a.x.meta(), a.start_axis, a.stop_axis, &m);
  *a.out = reshape_or_copy(a.x, m.dims);
}

void transpose_impl(const KernelContext&, const TransposeArgs& a) {
  *a.out = view_permute(a.x, a.perm);
}

void squeeze_impl(const KernelContext& c, const SqueezeArgs& a) {
  TensorMeta m;
  meta::squeeze_meta(c.op, a.x.meta(), a.axis, &m);
  if (a.x.rank() == 0) {
    *a.out = a.x;
    return;
  }
  *a.out = view_squeeze(a.x, a.axis);
}

void unsqueeze_impl(const KernelContext&, const UnsqueezeArgs& a) {
  *a.out = view_unsqueeze(a.x, a.axis);
}

void expand_impl(const KernelContext& c, const ExpandArgs& a) {
  // A copy, as in Paddle: the result is its own tensor, so writing it never writes x.
  TensorMeta m;
  meta::expand_meta(c.op, a.x.meta(), a.shape, &m);
  a.out->copy_from(view_expand(a.x, m.dims));
}

void broadcast_to_impl(const KernelContext& c, const BroadcastToArgs& a) {
  // A copy, as in Paddle: the result is its own tensor, so writing it never writes x.
  TensorMeta m;
  meta::expand_meta(c.op, a.x.meta(), a.shape, &m);
  a.out->copy_from(view_expand(a.x, m.dims));
}

// The strided view selected by normalized slice parameters (steps may be negative).
DenseTensor sliced_view(const DenseTensor& x, const std::vector<meta::SliceDim>& sd) {
  Dims dims = x.dims(), strides = x.strides();
  int64_t offset = x.offset();
  bool empty = false;
  for (int i = 0; i < x.rank(); ++i) {
    dims[i] = sd[i].len;
    empty |= sd[i].len == 0;
    offset += sd[i].start * x.strides()[i];
    strides[i] = x.strides()[i] * sd[i].step;
  }
  return x.as_strided(dims, strides, empty ? x.offset() : offset);
}

void slice_impl(const KernelContext& c, const SliceArgs& a) {
  const auto sd = meta::slice_dims(c.op, a.input.dims(), a.axes, a.starts, a.ends, nullptr);
  DenseTensor v = sliced_view(a.input, sd);
  if (!a.decrease_axis.empty()) {
    TensorMeta m;
    meta::slice_meta(c.op, a.input.meta(), a.axes, a.starts, a.ends, a.decrease_axis, &m);
    Dims dims, strides;
    bool drop[kMaxRank] = {};
    for (int64_t d : a.decrease_axis) drop[normalize_axis(d, v.rank(), c.op)] = true;
    for (int i = 0; i < v.rank(); ++i) {
      if (drop[i]) continue;
      dims.push_back(v.dim(i));
      strides.push_back(v.strides()[i]);
    }
    v = v.as_strided(dims, strides, v.offset());
  }
  *a.out = v;
}

void strided_slice_impl(const KernelContext& c, const StridedSliceArgs& a) {
  const auto sd = meta::slice_dims(c.op, a.x.dims(), a.axes, a.starts, a.ends, &a.strides);
  const DenseTensor v = sliced_view(a.x, sd);
  const bool negative = std::any_of(sd.begin(), sd.end(), [](auto& s) { return s.step < 0; });
  *a.out = negative ? cpu::clone(v) : v;  // views keep non-negative strides
}

void diagonal_impl(const KernelContext& c, const DiagonalArgs& a) {
  TensorMeta m;
  meta::diagonal_meta(c.op, a.x.meta(), a.offset, a.axis1, a.axis2, &m);
  *a.out = view_diagonal(a.x, a.offset, a.axis1, a.axis2);
}

void split_pieces(const DenseTensor& x, int axis, const std::vector<int64_t>& sizes,
                  std::vector<DenseTensor>* out) {
  out->clear();
  int64_t start = 0;
  for (int64_t s : sizes) {
    Dims dims = x.dims();
    dims[axis] = s;
    out->push_back(
        x.as_strided(dims, x.strides(), x.offset() + (s ? start * x.strides()[axis] : 0)));
    start += s;
  }
}

void split_impl(const KernelContext& c, const SplitArgs& a) {
  std::vector<TensorMeta> m;
  meta::split_meta(c.op, a.x.meta(), a.sections, a.axis, &m);
  const int axis = normalize_axis(a.axis, a.x.rank(), c.op);
  split_pieces(a.x, axis, meta::split_sizes(c.op, a.x.dim(axis), a.sections), a.out);
}

void split_equal(const KernelContext& c, const DenseTensor& x, int64_t num, int64_t axis,
                 std::vector<DenseTensor>* out) {
  std::vector<TensorMeta> m;
  meta::split_with_num_meta(c.op, x.meta(), num, axis, &m);
  const int ax = normalize_axis(axis, x.rank(), c.op);
  split_pieces(x, ax, std::vector<int64_t>(num, x.dim(ax) / num), out);
}

void split_with_num_impl(const KernelContext& c, const SplitWithNumArgs& a) {
  split_equal(c, a.x, a.num, a.axis, a.out);
}

void chunk_impl(const KernelContext& c, const ChunkArgs& a) {
  split_equal(c, a.x, a.chunks, a.axis, a.out);
}

// x with `axis` fixed at `i` (a view without that dim).
DenseTensor select(const DenseTensor& x, int axis, int64_t i) {
  Dims dims = x.dims(), strides = x.strides();
  dims.erase(axis);
  strides.erase(axis);
  return x.as_strided(dims, strides, x.offset() + i * x.strides()[axis]);
}

void unbind_impl(const KernelContext& c, const UnbindArgs& a) {
  std::vector<TensorMeta> m;
  meta::unbind_meta(c.op, a.input.meta(), a.axis, &m);
  const int axis = normalize_axis(a.axis, a.input.rank(), c.op);
  a.out->clear();
  for (int64_t i = 0; i < a.input.dim(axis); ++i) a.out->push_back(select(a.input, axis, i));
}

void concat_impl(const KernelContext& c, const ConcatArgs& a) {
  const int axis = normalize_axis(a.axis, a.out->rank(), c.op);
  int64_t start = 0;
  for (const DenseTensor& x : a.x) {
    Dims dims = a.out->dims();
    dims[axis] = x.dim(axis);
    DenseTensor part = a.out->as_strided(dims, a.out->strides(), start * a.out->strides()[axis]);
    part.copy_from(x);
    start += x.dim(axis);
  }
}

void stack_impl(const KernelContext& c, const StackArgs& a) {
  const int axis = normalize_axis(a.axis, a.out->rank(), c.op);
  for (size_t i = 0; i < a.x.size(); ++i) {
    DenseTensor part = select(*a.out, axis, static_cast<int64_t>(i));
    part.copy_from(a.x[i]);
  }
}

void tile_impl(const KernelContext&, const TileArgs& a) {
  const Dims& od = a.out->dims();
  const int rank = od.size(), lead = rank - a.x.rank();
  std::vector<std::vector<int64_t>> t(rank);
  for (int d = 0; d < rank; ++d) {
    const int j = d - lead;
    const int64_t n = j >= 0 ? a.x.dim(j) : 1, stride = j >= 0 ? a.x.strides()[j] : 0;
    t[d].resize(od[d]);
    for (int64_t i = 0; i < od[d]; ++i) t[d][i] = (i % n) * stride;
  }
  table_copy(a.x, *a.out, t);
}

void flip_impl(const KernelContext& c, const FlipArgs& a) {
  Dims strides = a.x.strides();
  int64_t offset = a.x.offset();
  bool seen[kMaxRank] = {};
  for (int64_t ax : a.axis) seen[normalize_axis(ax, a.x.rank(), c.op)] = true;
  for (int d = 0; d < a.x.rank(); ++d) {
    if (!seen[d] || a.x.dim(d) == 0) continue;
    offset += (a.x.dim(d) - 1) * strides[d];
    strides[d] = -strides[d];
  }
  a.out->copy_from(a.x.as_strided(a.x.dims(), strides, offset));
}

void roll_impl(const KernelContext& c, const RollArgs& a) {
  if (a.axis.empty()) {  // the flattened tensor rolls
    const DenseTensor flat = reshape_or_copy(a.x, Dims{a.x.numel()});
    DenseTensor out_flat = a.out->as_strided(Dims{a.x.numel()}, Dims{1}, 0);
    const int64_t n = a.x.numel();
    std::vector<std::vector<int64_t>> t(1, std::vector<int64_t>(n));
    const int64_t s = n ? ((a.shifts[0] % n) + n) % n : 0;
    for (int64_t i = 0; i < n; ++i) t[0][i] = ((i - s + n) % n) * flat.strides()[0];
    table_copy(flat, out_flat, t);
    return;
  }
  auto t = cpu::identity_tables(a.x, a.x.dims());
  int64_t shift[kMaxRank] = {};
  for (size_t k = 0; k < a.axis.size(); ++k) {
    shift[normalize_axis(a.axis[k], a.x.rank(), c.op)] += a.shifts[k];
  }
  for (int d = 0; d < a.x.rank(); ++d) {
    const int64_t n = a.x.dim(d);
    if (n == 0 || shift[d] == 0) continue;
    const int64_t s = ((shift[d] % n) + n) % n;
    for (int64_t i = 0; i < n; ++i) t[d][i] = ((i - s + n) % n) * a.x.strides()[d];
  }
  table_copy(a.x, *a.out, t);
}

int64_t pad_source(int64_t j, int64_t n, const std::string& mode) {
  if (j >= 0 && j < n) return j;
  if (mode == "constant") return -1;
  if (mode == "replicate") return j < 0 ? 0 : n - 1;
  if (mode == "circular") return ((j % n) + n) % n;
  return j < 0 ? -j : 2 * (n - 1) - j;  // reflect
}

template <typename T>
void pad_typed(const KernelContext& c, const PadArgs& a) {
  const auto p = meta::pad_pairs(c.op, a.x.rank(), a.paddings);
  std::vector<std::vector<int64_t>> t(a.x.rank());
  for (int d = 0; d < a.x.rank(); ++d) {
    const int64_t n = a.x.dim(d);
    t[d].resize(a.out->dim(d));
    for (int64_t i = 0; i < a.out->dim(d); ++i) {
      const int64_t j = pad_source(i - p[d].first, n, a.mode);
      t[d][i] = j < 0 ? cpu::kFillOffset : j * a.x.strides()[d];
    }
  }
  const T fill = static_cast<T>(a.value);
  table_copy(a.x, *a.out, t, &fill);
}

// Zeroes the elements of out (a contiguous copy of x) outside the triangle.
void triangle(const KernelContext&, const DenseTensor& x, DenseTensor& out, int64_t diagonal,
              bool lower) {
  out.copy_from(x);
  const int64_t rows = out.dim(out.rank() - 2), cols = out.dim(out.rank() - 1);
  const int64_t nrows = rows ? out.numel() / cols : 0;
  if (cols == 0) return;
  char* base = static_cast<char*>(out.raw_data());
  const int64_t isz = out.itemsize();
  parallel_for(0, nrows, std::max<int64_t>(1, kParallelGrain / cols), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t i = r % rows;
      // lower keeps j <= i + diagonal; upper keeps j >= i + diagonal.
      const int64_t edge = std::clamp<int64_t>(lower ? i + diagonal + 1 : i + diagonal, 0, cols);
      char* row = base + r * cols * isz;
      if (lower) {
        std::memset(row + edge * isz, 0, (cols - edge) * isz);
      } else {
        std::memset(row, 0, edge * isz);
      }
    }
  });
}

void tril_impl(const KernelContext& c, const TrilArgs& a) {
  triangle(c, a.x, *a.out, a.diagonal, true);
}
void triu_impl(const KernelContext& c, const TriuArgs& a) {
  triangle(c, a.x, *a.out, a.diagonal, false);
}

// Copies x into out repeating element i of `axis` counts[i] times.
void repeat_along(const DenseTensor& x0, DenseTensor& out, int axis,
                  const std::vector<int64_t>& counts) {
  const DenseTensor x = x0.rank() == 0 ? x0.as_strided(Dims{1}, Dims{1}, x0.offset()) : x0;
  DenseTensor o = out.rank() == 0 ? out.as_strided(Dims{1}, Dims{1}, 0) : out;
  auto t = cpu::identity_tables(x, o.dims());
  std::vector<int64_t>& ta = t[axis];
  ta.clear();
  for (int64_t i = 0; i < static_cast<int64_t>(counts.size()); ++i) {
    ta.insert(ta.end(), counts[i], i * x.strides()[axis]);
  }
  table_copy(x, o, t);
}

void repeat_interleave_impl(const KernelContext& c, const RepeatInterleaveArgs& a) {
  const int axis = normalize_axis(a.axis, a.x.rank(), c.op);
  const int64_t n = a.x.rank() ? a.x.dim(axis) : 1;
  repeat_along(a.x, *a.out, axis, std::vector<int64_t>(n, a.repeats));
}

void repeat_interleave_with_tensor_index_impl(const KernelContext& c,
                                              const RepeatInterleaveWithTensorIndexArgs& a) {
  const int axis = normalize_axis(a.axis, a.x.rank(), c.op);
  const int64_t n = a.x.rank() ? a.x.dim(axis) : 1;
  std::vector<int64_t> counts = cpu::index_values(a.repeats);
  for (int64_t k : counts) {
    SKIFF_ENFORCE(k >= 0, kInvalidArgument, c.op, "repeats", "values >= 0", k);
  }
  if (counts.size() == 1) counts.assign(n, counts[0]);
  int64_t total = 0;
  for (int64_t k : counts) total += k;
  Dims dims = a.x.rank() ? a.x.dims() : Dims{1};
  dims[axis] = total;
  *a.out = empty_like_dims(a.x, dims);
  repeat_along(a.x, *a.out, axis, counts);
}

}  // namespace

// Every kernel above is dtype-agnostic; these wrappers give the registry its per-dtype entries.
#define SKIFF_BYTES_KERNEL(op, Args)                     \
  template <typename T>                                  \
  void op##_cpu(const KernelContext& c, const Args& a) { \
    op##_impl(c, a);                                     \
  }                                                      \
  SKIFF_INSTANTIATE_KERNEL(op, cpu)

SKIFF_BYTES_KERNEL(reshape, ReshapeArgs)
SKIFF_BYTES_KERNEL(flatten, FlattenArgs)
SKIFF_BYTES_KERNEL(transpose, TransposeArgs)
SKIFF_BYTES_KERNEL(squeeze, SqueezeArgs)
SKIFF_BYTES_KERNEL(unsqueeze, UnsqueezeArgs)
SKIFF_BYTES_KERNEL(expand, ExpandArgs)
SKIFF_BYTES_KERNEL(broadcast_to, BroadcastToArgs)
SKIFF_BYTES_KERNEL(slice, SliceArgs)
SKIFF_BYTES_KERNEL(strided_slice, StridedSliceArgs)
SKIFF_BYTES_KERNEL(diagonal, DiagonalArgs)
SKIFF_BYTES_KERNEL(split, SplitArgs)
SKIFF_BYTES_KERNEL(split_with_num, SplitWithNumArgs)
SKIFF_BYTES_KERNEL(chunk, ChunkArgs)
SKIFF_BYTES_KERNEL(unbind, UnbindArgs)
SKIFF_BYTES_KERNEL(concat, ConcatArgs)
SKIFF_BYTES_KERNEL(stack, StackArgs)
SKIFF_BYTES_KERNEL(tile, TileArgs)
SKIFF_BYTES_KERNEL(flip, FlipArgs)
SKIFF_BYTES_KERNEL(roll, RollArgs)
SKIFF_BYTES_KERNEL(tril, TrilArgs)
SKIFF_BYTES_KERNEL(triu, TriuArgs)
SKIFF_BYTES_KERNEL(repeat_interleave, RepeatInterleaveArgs)
SKIFF_BYTES_KERNEL(repeat_interleave_with_tensor_index, RepeatInterleaveWithTensorIndexArgs)

template <typename T>
void pad_cpu(const KernelContext& c, const PadArgs& a) {
  pad_typed<T>(c, a);
}
SKIFF_INSTANTIATE_KERNEL(pad, cpu)

}  // namespace skiff::ops
