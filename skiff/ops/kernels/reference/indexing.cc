// Reference kernels of the indexing, masking, sorting and set ops: plain loops over output (or
// index) positions, one element at a time, scatters applied in index order. Every index is
// checked before it is used.
#include "skiff/ops/generated/kernels/indexing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/reference/ref_loops.h"
#include "skiff/ops/meta/manipulation_meta.h"

namespace skiff::ops {

namespace {

using reference::broadcast_offset;
using reference::for_each_index;
using reference::get;
using reference::offset_of;
using reference::set;
using Index = std::vector<int64_t>;

int64_t index_at(const DenseTensor& t, int64_t offset) {
  return t.dtype() == DType::kInt32 ? get<int32_t>(t, offset) : get<int64_t>(t, offset);
}

// Checks i against [lo, n) and wraps negatives.
int64_t checked(const char* op, const char* arg, int64_t i, int64_t n, bool allow_negative) {
  const int64_t lo = allow_negative ? -n : 0;
  SKIFF_ENFORCE(i >= lo && i < n, kOutOfRange, op, arg, str("values in [", lo, ", ", n, ")"), i);
  return i < 0 ? i + n : i;
}

int64_t linear_index(const int64_t* idx, const Dims& dims) {
  int64_t i = 0;
  for (int d = 0; d < dims.size(); ++d) i = i * dims[d] + idx[d];
  return i;
}

template <typename T>
T plus(T a, T b) {
  return static_cast<T>(a + b);
}

}  // namespace

template <typename T>
void gather_reference(const KernelContext& c, const GatherArgs& a) {
  const int axis = normalize_axis(a.axis, a.x.rank(), c.op);
  const bool scalar = a.index.rank() == 0;
  for_each_index(a.out->dims(), [&](const int64_t* idx) {
    Index xi;
    for (int d = 0, k = 0; d < a.x.rank(); ++d) {
      if (d != axis) {
        xi.push_back(idx[k++]);
        continue;
      }
      const int64_t pos = scalar ? 0 : idx[k++] * a.index.strides()[0];
      xi.push_back(checked(c.op, "index", index_at(a.index, pos), a.x.dim(axis), false));
    }
    set<T>(*a.out, offset_of(*a.out, idx), get<T>(a.x, offset_of(a.x, xi.data())));
  });
}
SKIFF_INSTANTIATE_KERNEL(gather, reference)

template <typename T>
void index_select_reference(const KernelContext& c, const IndexSelectArgs& a) {
  const int axis = normalize_axis(a.axis, a.x.rank(), c.op);
  for_each_index(a.out->dims(), [&](const int64_t* idx) {
    Index xi(idx, idx + a.x.rank());
    xi[axis] = checked(c.op, "index", index_at(a.index, idx[axis] * a.index.strides()[0]),
                       a.x.dim(axis), false);
    set<T>(*a.out, offset_of(*a.out, idx), get<T>(a.x, offset_of(a.x, xi.data())));
  });
}
SKIFF_INSTANTIATE_KERNEL(index_select, reference)

namespace {
// The x multi-index of gather_nd/scatter_nd position `idx` (over index.shape[:-1] +
// x.shape[k:]).
Index nd_source(const char* op, const DenseTensor& x, const DenseTensor& index,
                const int64_t* idx) {
  const int lead = index.rank() - 1;
  const int64_t k = index.dim(lead);
  // idx holds index.shape[:-1] then x.shape[k:]: only its first `lead` entries are index axes
  // (when k == x.rank() it has no more; copying lead + 1 read past its end).
  Index ii(idx, idx + lead), xi;
  ii.push_back(0);
  for (int64_t j = 0; j < k; ++j) {
    ii[lead] = j;
    xi.push_back(
        checked(op, "index", index_at(index, offset_of(index, ii.data())), x.dim(j), false));
  }
  for (int d = static_cast<int>(k); d < x.rank(); ++d) xi.push_back(idx[lead + d - k]);
  return xi;
}
}  // namespace

template <typename T>
void gather_nd_reference(const KernelContext& c, const GatherNdArgs& a) {
  for_each_index(a.out->dims(), [&](const int64_t* idx) {
    const Index xi = nd_source(c.op, a.x, a.index, idx);
    set<T>(*a.out, offset_of(*a.out, idx), get<T>(a.x, offset_of(a.x, xi.data())));
  });
}
SKIFF_INSTANTIATE_KERNEL(gather_nd, reference)

template <typename T>
void take_along_axis_reference(const KernelContext& c, const TakeAlongAxisArgs& a) {
  const int axis = normalize_axis(a.axis, a.arr.rank(), c.op);
  for_each_index(a.out->dims(), [&](const int64_t* idx) {
    Index xi(idx, idx + a.arr.rank());
    const int64_t i = index_at(a.indices, broadcast_offset(a.indices, idx, a.arr.rank()));
    xi[axis] = checked(c.op, "indices", i, a.arr.dim(axis), true);
    set<T>(*a.out, offset_of(*a.out, idx), get<T>(a.arr, offset_of(a.arr, xi.data())));
  });
}
SKIFF_INSTANTIATE_KERNEL(take_along_axis, reference)

namespace {
template <typename T>
void copy_into(const DenseTensor& x, DenseTensor& out) {
  for_each_index(x.dims(), [&](const int64_t* idx) {
    set<T>(out, offset_of(out, idx), get<T>(x, offset_of(x, idx)));
  });
}
}  // namespace

template <typename T>
void scatter_reference(const KernelContext& c, const ScatterArgs& a) {
  copy_into<T>(a.x, *a.out);
  const int64_t m = a.index.numel();
  const auto row = [&](int64_t i) {
    return checked(c.op, "index", index_at(a.index, a.index.rank() ? i * a.index.strides()[0] : 0),
                   a.x.dim(0), false);
  };
  for (int64_t i = 0; i < m; ++i) row(i);  // check every index before writing
  Dims rd = a.x.dims();
  rd[0] = 1;
  if (!a.overwrite) {
    for (int64_t i = 0; i < m; ++i) {
      for_each_index(rd, [&](const int64_t* idx) {
        Index oi(idx, idx + a.x.rank());
        oi[0] = row(i);
        set<T>(*a.out, offset_of(*a.out, oi.data()), T(0));
      });
    }
  }
  for (int64_t i = 0; i < m; ++i) {
    for_each_index(rd, [&](const int64_t* idx) {
      Index oi(idx, idx + a.x.rank()), ui(idx, idx + a.x.rank());
      oi[0] = row(i);
      ui[0] = i;
      const T u = get<T>(a.updates, a.index.rank() ? offset_of(a.updates, ui.data())
                                                   : offset_of(a.updates, ui.data() + 1));
      const int64_t o = offset_of(*a.out, oi.data());
      set<T>(*a.out, o, a.overwrite ? u : plus(get<T>(*a.out, o), u));
    });
  }
}
SKIFF_INSTANTIATE_KERNEL(scatter, reference)

template <typename T>
void scatter_nd_add_reference(const KernelContext& c, const ScatterNdAddArgs& a) {
  copy_into<T>(a.x, *a.out);
  for_each_index(a.updates.dims(), [&](const int64_t* idx) {
    const Index xi = nd_source(c.op, a.x, a.index, idx);
    const int64_t o = offset_of(*a.out, xi.data());
    set<T>(*a.out, o, plus(get<T>(*a.out, o), get<T>(a.updates, offset_of(a.updates, idx))));
  });
}
SKIFF_INSTANTIATE_KERNEL(scatter_nd_add, reference)

template <typename T>
void index_add_reference(const KernelContext& c, const IndexAddArgs& a) {
  copy_into<T>(a.x, *a.out);
  const int axis = normalize_axis(a.axis, a.x.rank(), c.op);
  for_each_index(a.value.dims(), [&](const int64_t* idx) {
    Index oi(idx, idx + a.x.rank());
    oi[axis] = checked(c.op, "index", index_at(a.index, idx[axis] * a.index.strides()[0]),
                       a.x.dim(axis), false);
    const int64_t o = offset_of(*a.out, oi.data());
    set<T>(*a.out, o, plus(get<T>(*a.out, o), get<T>(a.value, offset_of(a.value, idx))));
  });
}
SKIFF_INSTANTIATE_KERNEL(index_add, reference)

template <typename T>
void put_along_axis_reference(const KernelContext& c, const PutAlongAxisArgs& a) {
  copy_into<T>(a.arr, *a.out);
  const int axis = normalize_axis(a.axis, a.arr.rank(), c.op);
  Dims d = a.arr.dims();
  d[axis] = a.indices.dim(axis);
  auto target = [&](const int64_t* idx) {
    Index oi(idx, idx + a.arr.rank());
    const int64_t i = index_at(a.indices, broadcast_offset(a.indices, idx, a.arr.rank()));
    oi[axis] = checked(c.op, "indices", i, a.arr.dim(axis), true);
    return offset_of(*a.out, oi.data());
  };
  const std::string& red = a.reduce;
  if (!a.include_self && red != "assign") {
    const T identity = red == "mul" || red == "multiply" ? T(1)
                       : red == "amax"                   ? std::numeric_limits<T>::lowest()
                       : red == "amin"                   ? std::numeric_limits<T>::max()
                                                         : T(0);
    for_each_index(d, [&](const int64_t* idx) { set<T>(*a.out, target(idx), identity); });
  }
  std::vector<int64_t> count(a.out->numel(), a.include_self ? 1 : 0);
  std::vector<bool> hit(a.out->numel(), false);
  for_each_index(d, [&](const int64_t* idx) {
    const int64_t o = target(idx);
    const T v = get<T>(a.values, broadcast_offset(a.values, idx, a.arr.rank()));
    const T old = get<T>(*a.out, o);
    T r = v;
    if (red == "add" || red == "mean") r = static_cast<T>(old + v);
    if (red == "mul" || red == "multiply") r = static_cast<T>(old * v);
    if (red == "amax") r = std::max(old, v);
    if (red == "amin") r = std::min(old, v);
    set<T>(*a.out, o, r);
    ++count[o];
    hit[o] = true;
  });
  if (red == "mean") {  // the sum over self (when included) and the values, divided by their count
    for (int64_t o = 0; o < a.out->numel(); ++o) {
      if (hit[o]) set<T>(*a.out, o, static_cast<T>(get<T>(*a.out, o) / static_cast<T>(count[o])));
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(put_along_axis, reference)

template <typename T>
void masked_fill_reference(const KernelContext&, const MaskedFillArgs& a) {
  const T v = a.value.to<T>();
  reference::map2<T, T, bool>(a.x, a.mask, *a.out, [v](T x, bool m) { return m ? v : x; });
}
SKIFF_INSTANTIATE_KERNEL(masked_fill, reference)

template <typename T>
void masked_select_reference(const KernelContext& c, const MaskedSelectArgs& a) {
  TensorMeta m;
  meta::masked_fill_meta(c.op, a.x.meta(), a.mask.meta(), Scalar(0), &m);
  std::vector<T> picked;
  for_each_index(m.dims, [&](const int64_t* idx) {
    if (get<bool>(a.mask, broadcast_offset(a.mask, idx, m.dims.size()))) {
      picked.push_back(get<T>(a.x, broadcast_offset(a.x, idx, m.dims.size())));
    }
  });
  *a.out = DenseTensor::empty(Dims{static_cast<int64_t>(picked.size())}, a.x.dtype(), a.x.place());
  for (size_t i = 0; i < picked.size(); ++i) set<T>(*a.out, static_cast<int64_t>(i), picked[i]);
}
SKIFF_INSTANTIATE_KERNEL(masked_select, reference)

template <typename T>
void nonzero_reference(const KernelContext&, const NonzeroArgs& a) {
  std::vector<Index> hits;
  for_each_index(a.x.dims(), [&](const int64_t* idx) {
    if (get<T>(a.x, offset_of(a.x, idx)) != T(0)) hits.emplace_back(idx, idx + a.x.rank());
  });
  const int64_t n = static_cast<int64_t>(hits.size()), r = a.x.rank();
  *a.out = DenseTensor::empty(Dims{n, r}, DType::kInt64, a.x.place());
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t d = 0; d < r; ++d) set<int64_t>(*a.out, i * r + d, hits[i][d]);
  }
}
SKIFF_INSTANTIATE_KERNEL(nonzero, reference)

namespace {
// a sorts before b: ascending with NaN last, or descending with NaN first.
template <typename T>
bool before(T a, T b, bool descending) {
  const bool an = std::isnan(static_cast<double>(a)), bn = std::isnan(static_cast<double>(b));
  if (descending) return an ? !bn : (!bn && a > b);
  return bn ? !an : (!an && a < b);
}

// For every line of x along `axis`: the first k positions of a stable sort.
template <typename T>
void sort_ref(const DenseTensor& x, int64_t axis_arg, bool descending, int64_t k,
              DenseTensor* values, DenseTensor* indices) {
  if (x.rank() == 0) {
    if (k == 0) return;
    if (values) set<T>(*values, 0, get<T>(x, 0));
    if (indices) set<int64_t>(*indices, 0, 0);
    return;
  }
  const int axis = normalize_axis(axis_arg, x.rank(), "sort");
  Dims lines = x.dims();
  lines[axis] = 1;
  for_each_index(lines, [&](const int64_t* idx) {
    Index xi(idx, idx + x.rank());
    std::vector<int64_t> order(x.dim(axis));
    std::vector<T> v(x.dim(axis));
    for (int64_t i = 0; i < x.dim(axis); ++i) {
      xi[axis] = i;
      v[i] = get<T>(x, offset_of(x, xi.data()));
      order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t i, int64_t j) { return before(v[i], v[j], descending); });
    for (int64_t i = 0; i < k; ++i) {
      xi[axis] = i;
      if (values) set<T>(*values, offset_of(*values, xi.data()), v[order[i]]);
      if (indices) set<int64_t>(*indices, offset_of(*indices, xi.data()), order[i]);
    }
  });
}
}  // namespace

template <typename T>
void sort_reference(const KernelContext&, const SortArgs& a) {
  const int64_t n = a.x.rank() ? a.x.dim(normalize_axis(a.axis, a.x.rank(), "sort")) : 1;
  sort_ref<T>(a.x, a.axis, a.descending, n, a.out, nullptr);
}
SKIFF_INSTANTIATE_KERNEL(sort, reference)

template <typename T>
void argsort_reference(const KernelContext&, const ArgsortArgs& a) {
  const int64_t n = a.x.rank() ? a.x.dim(normalize_axis(a.axis, a.x.rank(), "argsort")) : 1;
  sort_ref<T>(a.x, a.axis, a.descending, n, a.out, a.indices);
}
SKIFF_INSTANTIATE_KERNEL(argsort, reference)

template <typename T>
void topk_reference(const KernelContext&, const TopkArgs& a) {
  sort_ref<T>(a.x, a.axis, a.largest, a.k, a.out, a.indices);
}
SKIFF_INSTANTIATE_KERNEL(topk, reference)

template <typename T>
void unique_reference(const KernelContext& c, const UniqueArgs& a) {
  // Each "row" is one element (flat) or one slice along the axis, as a vector of values.
  const bool flat = a.axis.empty();
  const int axis = flat ? 0 : normalize_axis(a.axis[0], a.x.rank(), c.op);
  const int64_t rows = flat ? a.x.numel() : a.x.dim(axis);
  std::vector<std::vector<T>> row(rows);
  for_each_index(a.x.dims(), [&](const int64_t* idx) {
    const int64_t r = flat ? linear_index(idx, a.x.dims()) : idx[axis];
    row[r].push_back(get<T>(a.x, offset_of(a.x, idx)));
  });
  std::map<std::vector<T>, int64_t> first;  // sorted unique rows -> first occurrence
  std::map<std::vector<T>, int64_t> count;
  for (int64_t r = 0; r < rows; ++r) {
    first.emplace(row[r], r);
    ++count[row[r]];
  }
  const int64_t u = static_cast<int64_t>(first.size());
  Dims od = flat ? Dims{u} : a.x.dims();
  od[flat ? 0 : axis] = u;
  *a.out = DenseTensor::empty(od, a.x.dtype(), a.x.place());
  *a.indices = DenseTensor::empty(Dims{u}, a.dtype, a.x.place());
  *a.counts = DenseTensor::empty(Dims{u}, a.dtype, a.x.place());
  auto put_int = [&](DenseTensor& t, int64_t i, int64_t v) {
    if (t.dtype() == DType::kInt32) {
      set<int32_t>(t, i, static_cast<int32_t>(v));
    } else {
      set<int64_t>(t, i, v);
    }
  };
  std::map<std::vector<T>, int64_t> group;
  int64_t g = 0;
  for (const auto& [values, r] : first) {
    group[values] = g;
    put_int(*a.indices, g, r);
    put_int(*a.counts, g, count[values]);
    ++g;
  }
  for (int64_t r = 0; r < rows; ++r) put_int(*a.inverse, r, group[row[r]]);
  for_each_index(od, [&](const int64_t* idx) {
    const int64_t gi = flat ? idx[0] : idx[axis];
    auto it = first.begin();
    std::advance(it, gi);
    const int64_t k = flat ? 0 : [&] {  // position of idx within its slice, row-major
      int64_t p = 0;
      for (int d = 0; d < a.x.rank(); ++d) {
        if (d != axis) p = p * a.x.dim(d) + idx[d];
      }
      return p;
    }();
    set<T>(*a.out, offset_of(*a.out, idx), it->first[k]);
  });
}
SKIFF_INSTANTIATE_KERNEL(unique, reference)

}  // namespace skiff::ops
