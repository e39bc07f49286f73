// Reference kernels of the manipulation ops: for every output multi-index, the input multi-index
// it comes from, by plain loops. Outputs are always fresh contiguous tensors (also for the ops
// whose CPU kernels return views), so the oracle never aliases its input.
#include "skiff/ops/generated/kernels/manipulation.h"

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/reference/ref_loops.h"
#include "skiff/ops/meta/manipulation_meta.h"

namespace skiff::ops {

namespace {

using reference::for_each_index;
using reference::get;
using reference::offset_of;
using reference::set;
using Index = std::vector<int64_t>;

// The row-major multi-index of linear position `i` in `dims`.
Index unravel(int64_t i, const Dims& dims) {
  Index idx(dims.size());
  for (int d = dims.size() - 1; d >= 0; --d) {
    idx[d] = i % dims[d];
    i /= dims[d];
  }
  return idx;
}

int64_t linear(const int64_t* idx, const Dims& dims) {
  int64_t i = 0;
  for (int d = 0; d < dims.size(); ++d) i = i * dims[d] + idx[d];
  return i;
}

DenseTensor fresh(const DenseTensor& like, const Dims& dims) {
  return DenseTensor::empty(dims, like.dtype(), like.place());
}

// out[i] = x[i] in row-major order (reshape, flatten, squeeze, unsqueeze).
template <typename T>
DenseTensor same_order(const DenseTensor& x, const Dims& dims) {
  DenseTensor out = fresh(x, dims);
  for_each_index(dims, [&](const int64_t* idx) {
    const Index xi = unravel(linear(idx, dims), x.dims());
    set<T>(out, offset_of(out, idx), get<T>(x, offset_of(x, xi.data())));
  });
  return out;
}

// out[idx] = x[src(idx)] for a source-index function.
template <typename T, typename F>
void map_index(const DenseTensor& x, DenseTensor& out, const F& src) {
  Index xi(x.rank());
  for_each_index(out.dims(), [&](const int64_t* idx) {
    src(idx, xi.data());
    set<T>(out, offset_of(out, idx), get<T>(x, offset_of(x, xi.data())));
  });
}

}  // namespace

template <typename T>
void reshape_reference(const KernelContext& c, const ReshapeArgs& a) {
  TensorMeta m;
  meta::reshape_meta(c.op, a.x.meta(), a.shape, &m);
  *a.out = same_order<T>(a.x, m.dims);
}
SKIFF_INSTANTIATE_KERNEL(reshape, reference)

template <typename T>
void flatten_reference(const KernelContext& c, const FlattenArgs& a) {
  TensorMeta m;
  meta::flatten_meta(c.op, a.x.meta(), a.start_axis, a.stop_axis, &m);
  *a.out = same_order<T>(a.x, m.dims);
}
SKIFF_INSTANTIATE_KERNEL(flatten, reference)

template <typename T>
void squeeze_reference(const KernelContext& c, const SqueezeArgs& a) {
  TensorMeta m;
  meta::squeeze_meta(c.op, a.x.meta(), a.axis, &m);
  *a.out = same_order<T>(a.x, m.dims);
}
SKIFF_INSTANTIATE_KERNEL(squeeze, reference)

template <typename T>
void unsqueeze_reference(const KernelContext& c, const UnsqueezeArgs& a) {
  TensorMeta m;
  meta::unsqueeze_meta(c.op, a.x.meta(), a.axis, &m);
  *a.out = same_order<T>(a.x, m.dims);
}
SKIFF_INSTANTIATE_KERNEL(unsqueeze, reference)

template <typename T>
void transpose_reference(const KernelContext& c, const TransposeArgs& a) {
  TensorMeta m;
  meta::transpose_meta(c.op, a.x.meta(), a.perm, &m);
  *a.out = fresh(a.x, m.dims);
  map_index<T>(a.x, *a.out, [&](const int64_t* idx, int64_t* xi) {
    for (size_t i = 0; i < a.perm.size(); ++i) {
      xi[normalize_axis(a.perm[i], a.x.rank(), c.op)] = idx[i];
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(transpose, reference)

namespace {
template <typename T>
DenseTensor expand_ref(const KernelContext& c, const DenseTensor& x,
                       const std::vector<int64_t>& shape) {
  TensorMeta m;
  meta::expand_meta(c.op, x.meta(), shape, &m);
  DenseTensor out = fresh(x, m.dims);
  const int lead = m.dims.size() - x.rank();
  map_index<T>(x, out, [&](const int64_t* idx, int64_t* xi) {
    for (int j = 0; j < x.rank(); ++j) xi[j] = x.dim(j) == 1 ? 0 : idx[j + lead];
  });
  return out;
}
}  // namespace

template <typename T>
void expand_reference(const KernelContext& c, const ExpandArgs& a) {
  *a.out = expand_ref<T>(c, a.x, a.shape);
}
SKIFF_INSTANTIATE_KERNEL(expand, reference)

template <typename T>
void broadcast_to_reference(const KernelContext& c, const BroadcastToArgs& a) {
  *a.out = expand_ref<T>(c, a.x, a.shape);
}
SKIFF_INSTANTIATE_KERNEL(broadcast_to, reference)

namespace {
// Copies the slice given by per-dim (start, step) with out's dims; `kept` maps out dims to
// x dims (decrease_axis removes some, which then sit at their start).
template <typename T>
void slice_ref(const DenseTensor& x, const std::vector<meta::SliceDim>& sd,
               const std::vector<int>& kept, DenseTensor& out) {
  map_index<T>(x, out, [&](const int64_t* idx, int64_t* xi) {
    for (int d = 0; d < x.rank(); ++d) xi[d] = sd[d].start;
    for (size_t k = 0; k < kept.size(); ++k) {
      const int d = kept[k];
      xi[d] = sd[d].start + idx[k] * sd[d].step;
    }
  });
}
}  // namespace

template <typename T>
void slice_reference(const KernelContext& c, const SliceArgs& a) {
  TensorMeta m;
  meta::slice_meta(c.op, a.input.meta(), a.axes, a.starts, a.ends, a.decrease_axis, &m);
  const auto sd = meta::slice_dims(c.op, a.input.dims(), a.axes, a.starts, a.ends, nullptr);
  std::vector<int> kept;
  for (int d = 0; d < a.input.rank(); ++d) {
    bool dropped = false;
    for (int64_t k : a.decrease_axis) dropped |= normalize_axis(k, a.input.rank(), c.op) == d;
    if (!dropped) kept.push_back(d);
  }
  *a.out = fresh(a.input, m.dims);
  slice_ref<T>(a.input, sd, kept, *a.out);
}
SKIFF_INSTANTIATE_KERNEL(slice, reference)

template <typename T>
void strided_slice_reference(const KernelContext& c, const StridedSliceArgs& a) {
  TensorMeta m;
  meta::strided_slice_meta(c.op, a.x.meta(), a.axes, a.starts, a.ends, a.strides, &m);
  const auto sd = meta::slice_dims(c.op, a.x.dims(), a.axes, a.starts, a.ends, &a.strides);
  std::vector<int> kept(a.x.rank());
  for (int d = 0; d < a.x.rank(); ++d) kept[d] = d;
  *a.out = fresh(a.x, m.dims);
  slice_ref<T>(a.x, sd, kept, *a.out);
}
SKIFF_INSTANTIATE_KERNEL(strided_slice, reference)

template <typename T>
void diagonal_reference(const KernelContext& c, const DiagonalArgs& a) {
  TensorMeta m;
  meta::diagonal_meta(c.op, a.x.meta(), a.offset, a.axis1, a.axis2, &m);
  const int a1 = normalize_axis(a.axis1, a.x.rank(), c.op);
  const int a2 = normalize_axis(a.axis2, a.x.rank(), c.op);
  *a.out = fresh(a.x, m.dims);
  map_index<T>(a.x, *a.out, [&](const int64_t* idx, int64_t* xi) {
    int k = 0;
    for (int d = 0; d < a.x.rank(); ++d) {
      if (d != a1 && d != a2) xi[d] = idx[k++];
    }
    const int64_t i = idx[k];
    xi[a1] = a.offset < 0 ? i - a.offset : i;
    xi[a2] = a.offset > 0 ? i + a.offset : i;
  });
}
SKIFF_INSTANTIATE_KERNEL(diagonal, reference)

namespace {
// Pieces of x along axis with the given sizes, each a fresh copy.
template <typename T>
void pieces_ref(const DenseTensor& x, int axis, const std::vector<TensorMeta>& metas,
                std::vector<DenseTensor>* out) {
  out->clear();
  int64_t start = 0;
  for (const TensorMeta& m : metas) {
    DenseTensor p = fresh(x, m.dims);
    map_index<T>(x, p, [&](const int64_t* idx, int64_t* xi) {
      for (int d = 0; d < x.rank(); ++d) xi[d] = idx[d];
      xi[axis] += start;
    });
    out->push_back(p);
    start += m.dims[axis];
  }
}
}  // namespace

template <typename T>
void split_reference(const KernelContext& c, const SplitArgs& a) {
  std::vector<TensorMeta> m;
  meta::split_meta(c.op, a.x.meta(), a.sections, a.axis, &m);
  pieces_ref<T>(a.x, normalize_axis(a.axis, a.x.rank(), c.op), m, a.out);
}
SKIFF_INSTANTIATE_KERNEL(split, reference)

template <typename T>
void split_with_num_reference(const KernelContext& c, const SplitWithNumArgs& a) {
  std::vector<TensorMeta> m;
  meta::split_with_num_meta(c.op, a.x.meta(), a.num, a.axis, &m);
  pieces_ref<T>(a.x, normalize_axis(a.axis, a.x.rank(), c.op), m, a.out);
}
SKIFF_INSTANTIATE_KERNEL(split_with_num, reference)

template <typename T>
void chunk_reference(const KernelContext& c, const ChunkArgs& a) {
  std::vector<TensorMeta> m;
  meta::split_with_num_meta(c.op, a.x.meta(), a.chunks, a.axis, &m);
  pieces_ref<T>(a.x, normalize_axis(a.axis, a.x.rank(), c.op), m, a.out);
}
SKIFF_INSTANTIATE_KERNEL(chunk, reference)

template <typename T>
void unbind_reference(const KernelContext& c, const UnbindArgs& a) {
  std::vector<TensorMeta> m;
  meta::unbind_meta(c.op, a.input.meta(), a.axis, &m);
  const int axis = normalize_axis(a.axis, a.input.rank(), c.op);
  a.out->clear();
  for (int64_t i = 0; i < a.input.dim(axis); ++i) {
    DenseTensor p = fresh(a.input, m[i].dims);
    map_index<T>(a.input, p, [&](const int64_t* idx, int64_t* xi) {
      int k = 0;
      for (int d = 0; d < a.input.rank(); ++d) xi[d] = d == axis ? i : idx[k++];
    });
    a.out->push_back(p);
  }
}
SKIFF_INSTANTIATE_KERNEL(unbind, reference)

template <typename T>
void concat_reference(const KernelContext& c, const ConcatArgs& a) {
  const int axis = normalize_axis(a.axis, a.out->rank(), c.op);
  for_each_index(a.out->dims(), [&](const int64_t* idx) {
    Index xi(idx, idx + a.out->rank());
    size_t k = 0;
    while (xi[axis] >= a.x[k].dim(axis)) xi[axis] -= a.x[k++].dim(axis);
    set<T>(*a.out, offset_of(*a.out, idx), get<T>(a.x[k], offset_of(a.x[k], xi.data())));
  });
}
SKIFF_INSTANTIATE_KERNEL(concat, reference)

template <typename T>
void stack_reference(const KernelContext& c, const StackArgs& a) {
  const int axis = normalize_axis(a.axis, a.out->rank(), c.op);
  for_each_index(a.out->dims(), [&](const int64_t* idx) {
    Index xi;
    for (int d = 0; d < a.out->rank(); ++d) {
      if (d != axis) xi.push_back(idx[d]);
    }
    const DenseTensor& x = a.x[idx[axis]];
    set<T>(*a.out, offset_of(*a.out, idx), get<T>(x, offset_of(x, xi.data())));
  });
}
SKIFF_INSTANTIATE_KERNEL(stack, reference)

template <typename T>
void tile_reference(const KernelContext&, const TileArgs& a) {
  const int lead = a.out->rank() - a.x.rank();
  map_index<T>(a.x, *a.out, [&](const int64_t* idx, int64_t* xi) {
    for (int j = 0; j < a.x.rank(); ++j) xi[j] = idx[j + lead] % a.x.dim(j);
  });
}
SKIFF_INSTANTIATE_KERNEL(tile, reference)

template <typename T>
void flip_reference(const KernelContext& c, const FlipArgs& a) {
  std::vector<bool> flipped(a.x.rank(), false);
  for (int64_t ax : a.axis) flipped[normalize_axis(ax, a.x.rank(), c.op)] = true;
  map_index<T>(a.x, *a.out, [&](const int64_t* idx, int64_t* xi) {
    for (int d = 0; d < a.x.rank(); ++d) xi[d] = flipped[d] ? a.x.dim(d) - 1 - idx[d] : idx[d];
  });
}
SKIFF_INSTANTIATE_KERNEL(flip, reference)

template <typename T>
void roll_reference(const KernelContext& c, const RollArgs& a) {
  const int64_t numel = a.x.numel();
  if (a.axis.empty()) {
    for_each_index(a.out->dims(), [&](const int64_t* idx) {
      int64_t src = linear(idx, a.out->dims()) - a.shifts[0] % numel;
      src = (src % numel + numel) % numel;
      const Index xi = unravel(src, a.x.dims());
      set<T>(*a.out, offset_of(*a.out, idx), get<T>(a.x, offset_of(a.x, xi.data())));
    });
    return;
  }
  std::vector<int64_t> shift(a.x.rank(), 0);
  for (size_t k = 0; k < a.axis.size(); ++k) {
    shift[normalize_axis(a.axis[k], a.x.rank(), c.op)] += a.shifts[k];
  }
  map_index<T>(a.x, *a.out, [&](const int64_t* idx, int64_t* xi) {
    for (int d = 0; d < a.x.rank(); ++d) {
      const int64_t n = a.x.dim(d);
      xi[d] = ((idx[d] - shift[d]) % n + n) % n;
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(roll, reference)

template <typename T>
void pad_reference(const KernelContext& c, const PadArgs& a) {
  const auto p = meta::pad_pairs(c.op, a.x.rank(), a.paddings);
  const T fill = static_cast<T>(a.value);
  for_each_index(a.out->dims(), [&](const int64_t* idx) {
    Index xi(a.x.rank());
    bool inside = true;
    for (int d = 0; d < a.x.rank(); ++d) {
      const int64_t n = a.x.dim(d);
      int64_t j = idx[d] - p[d].first;
      if (j < 0 || j >= n) {
        if (a.mode == "constant") {
          inside = false;
        } else if (a.mode == "replicate") {
          j = j < 0 ? 0 : n - 1;
        } else if (a.mode == "circular") {
          j = (j + n) % n;
        } else {  // reflect about the edge elements
          j = j < 0 ? -j : 2 * (n - 1) - j;
        }
      }
      xi[d] = j;
    }
    set<T>(*a.out, offset_of(*a.out, idx), inside ? get<T>(a.x, offset_of(a.x, xi.data())) : fill);
  });
}
SKIFF_INSTANTIATE_KERNEL(pad, reference)

namespace {
template <typename T>
void triangle_ref(const DenseTensor& x, DenseTensor& out, int64_t diagonal, bool lower) {
  const int r = x.rank();
  for_each_index(out.dims(), [&](const int64_t* idx) {
    const int64_t i = idx[r - 2], j = idx[r - 1];
    const bool keep = lower ? j - i <= diagonal : j - i >= diagonal;
    set<T>(out, offset_of(out, idx), keep ? get<T>(x, offset_of(x, idx)) : T(0));
  });
}
}  // namespace

template <typename T>
void tril_reference(const KernelContext&, const TrilArgs& a) {
  triangle_ref<T>(a.x, *a.out, a.diagonal, true);
}
SKIFF_INSTANTIATE_KERNEL(tril, reference)

template <typename T>
void triu_reference(const KernelContext&, const TriuArgs& a) {
  triangle_ref<T>(a.x, *a.out, a.diagonal, false);
}
SKIFF_INSTANTIATE_KERNEL(triu, reference)

namespace {
// out[..., j, ...] = x[..., i, ...] where j runs through counts[i] copies of each i.
template <typename T>
void repeat_ref(const DenseTensor& x0, DenseTensor& out, int axis,
                const std::vector<int64_t>& counts) {
  const DenseTensor x = x0.rank() == 0 ? x0.as_strided(Dims{1}, Dims{1}, x0.offset()) : x0;
  std::vector<int64_t> source;
  for (size_t i = 0; i < counts.size(); ++i) source.insert(source.end(), counts[i], i);
  Dims od = x.dims();
  od[axis] = static_cast<int64_t>(source.size());
  DenseTensor o = out.rank() == 0 ? out.as_strided(Dims{1}, Dims{1}, 0) : out;
  map_index<T>(x, o, [&](const int64_t* idx, int64_t* xi) {
    for (int d = 0; d < x.rank(); ++d) xi[d] = d == axis ? source[idx[d]] : idx[d];
  });
}
}  // namespace

template <typename T>
void repeat_interleave_reference(const KernelContext& c, const RepeatInterleaveArgs& a) {
  const int axis = normalize_axis(a.axis, a.x.rank(), c.op);
  repeat_ref<T>(a.x, *a.out, axis, std::vector<int64_t>(a.x.rank() ? a.x.dim(axis) : 1, a.repeats));
}
SKIFF_INSTANTIATE_KERNEL(repeat_interleave, reference)

template <typename T>
void repeat_interleave_with_tensor_index_reference(const KernelContext& c,
                                                   const RepeatInterleaveWithTensorIndexArgs& a) {
  const int axis = normalize_axis(a.axis, a.x.rank(), c.op);
  const int64_t n = a.x.rank() ? a.x.dim(axis) : 1;
  std::vector<int64_t> counts;
  for_each_index(a.repeats.dims(), [&](const int64_t* idx) {
    const int64_t off = offset_of(a.repeats, idx);
    const int64_t k = a.repeats.dtype() == DType::kInt32 ? get<int32_t>(a.repeats, off)
                                                         : get<int64_t>(a.repeats, off);
    SKIFF_ENFORCE(k >= 0, kInvalidArgument, c.op, "repeats", "values >= 0", k);
    counts.push_back(k);
  });
  if (counts.size() == 1) counts.assign(n, counts[0]);
  int64_t total = 0;
  for (int64_t k : counts) total += k;
  Dims dims = a.x.rank() ? a.x.dims() : Dims{1};
  dims[axis] = total;
  *a.out = fresh(a.x, dims);
  repeat_ref<T>(a.x, *a.out, axis, counts);
}
SKIFF_INSTANTIATE_KERNEL(repeat_interleave_with_tensor_index, reference)

}  // namespace skiff::ops
