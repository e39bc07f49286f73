// CPU kernels of sort, argsort, topk and unique. The sorted axis is moved last and made
// contiguous; rows are sorted in parallel with a comparator that is a strict total order
// (NaN above every number, ties broken by the lower index), so every variant is deterministic
// and stable and agrees with the reference.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "skiff/core/views.h"
#include "skiff/ops/generated/kernels/indexing.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"

namespace skiff::ops {

namespace {

template <typename V>
bool is_nan(V v) {
  if constexpr (std::is_floating_point_v<V>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// a < b with NaN largest.
template <typename V>
bool less_nan(V a, V b) {
  return !is_nan(a) && (is_nan(b) || a < b);
}

// The permutation that swaps `axis` with the last dim (its own inverse).
std::vector<int64_t> swap_last(int rank, int axis) {
  std::vector<int64_t> p(rank);
  std::iota(p.begin(), p.end(), 0);
  if (rank) std::swap(p[axis], p[rank - 1]);
  return p;
}

// Sorts every row of x along `axis` (k leading elements kept), writing values to `values` and
// indices to `indices` (either may be null); both have x's dims with the axis dim = k.
template <typename T>
void sort_rows(const DenseTensor& x0, int64_t axis, bool descending, int64_t k, DenseTensor* values,
               DenseTensor* indices) {
  const DenseTensor x = x0.rank() == 0 ? x0.as_strided(Dims{1}, Dims{1}, x0.offset()) : x0;
  const int rank = x.rank();
  const int ax = normalize_axis(axis, rank, "sort");
  const auto perm = swap_last(rank, ax);
  const DenseTensor xt = view_permute(x, perm).contiguous();
  const int64_t n = rank ? xt.dim(rank - 1) : 1;
  const int64_t rows = n ? xt.numel() / n : 0;
  Dims td = xt.dims();
  td[rank - 1] = k;
  DenseTensor vt, it;
  if (values) vt = DenseTensor::empty(td, x.dtype(), x.place());
  if (indices) it = DenseTensor::empty(td, DType::kInt64, x.place());
  const T* px = static_cast<const T*>(xt.raw_data());
  using V = compute_t<T>;
  parallel_for(
      0, rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1)),
      [&](int64_t b, int64_t e) {
        std::vector<int64_t> order(n);
        std::vector<V> key(n);
        for (int64_t r = b; r < e; ++r) {
          const T* row = px + r * n;
          for (int64_t i = 0; i < n; ++i) key[i] = cpu::load(row[i]);
          std::iota(order.begin(), order.end(), 0);
          auto cmp = [&](int64_t i, int64_t j) {
            const bool before = descending ? less_nan(key[j], key[i]) : less_nan(key[i], key[j]);
            if (before) return true;
            const bool after = descending ? less_nan(key[i], key[j]) : less_nan(key[j], key[i]);
            return !after && i < j;
          };
          if (k < n) {
            std::partial_sort(order.begin(), order.begin() + k, order.end(), cmp);
          } else {
            std::sort(order.begin(), order.end(), cmp);
          }
          if (values) {
            T* pv = static_cast<T*>(vt.raw_data()) + r * k;
            for (int64_t i = 0; i < k; ++i) pv[i] = row[order[i]];
          }
          if (indices) {
            int64_t* pi = static_cast<int64_t*>(it.raw_data()) + r * k;
            std::copy(order.begin(), order.begin() + k, pi);
          }
        }
      });
  auto put = [&](DenseTensor* dst, const DenseTensor& src) {
    if (!dst) return;
    DenseTensor d = dst->rank() == 0 ? dst->as_strided(Dims{1}, Dims{1}, 0) : *dst;
    DenseTensor view = view_permute(d, perm);
    view.copy_from(src);
  };
  put(values, vt);
  put(indices, it);
}

}  // namespace

template <typename T>
void sort_cpu(const KernelContext&, const SortArgs& a) {
  const int64_t n = a.x.rank() ? a.x.dim(normalize_axis(a.axis, a.x.rank(), "sort")) : 1;
  sort_rows<T>(a.x, a.axis, a.descending, n, a.out, nullptr);
}
SKIFF_INSTANTIATE_KERNEL(sort, cpu)

template <typename T>
void argsort_cpu(const KernelContext&, const ArgsortArgs& a) {
  const int64_t n = a.x.rank() ? a.x.dim(normalize_axis(a.axis, a.x.rank(), "argsort")) : 1;
  sort_rows<T>(a.x, a.axis, a.descending, n, a.out, a.indices);
}
SKIFF_INSTANTIATE_KERNEL(argsort, cpu)

template <typename T>
void topk_cpu(const KernelContext&, const TopkArgs& a) {
  sort_rows<T>(a.x, a.axis, a.largest, a.k, a.out, a.indices);
}
SKIFF_INSTANTIATE_KERNEL(topk, cpu)

namespace {

// Writes int64 values into a tensor of dtype int32 or int64.
void store_ints(DenseTensor& t, const std::vector<int64_t>& v) {
  if (t.dtype() == DType::kInt32) {
    int32_t* p = static_cast<int32_t*>(t.raw_data());
    for (size_t i = 0; i < v.size(); ++i) p[i] = static_cast<int32_t>(v[i]);
  } else {
    std::copy(v.begin(), v.end(), static_cast<int64_t*>(t.raw_data()));
  }
}

}  // namespace

template <typename T>
void unique_cpu(const KernelContext& c, const UniqueArgs& a) {
  using V = compute_t<T>;
  const bool flat = a.axis.empty();
  const int axis = flat ? 0 : normalize_axis(a.axis[0], a.x.rank(), c.op);
  // Rows to deduplicate: single elements (flat) or slices along `axis` moved to the front.
  std::vector<int64_t> perm{axis};  // axis first, the others in order
  for (int d = 0; d < a.x.rank(); ++d) {
    if (d != axis) perm.push_back(d);
  }
  const DenseTensor xt = flat ? a.x.contiguous() : view_permute(a.x, perm).contiguous();
  const int64_t rows = flat ? xt.numel() : xt.dim(0);
  const int64_t width = rows ? xt.numel() / rows : 0;
  const T* px = static_cast<const T*>(xt.raw_data());
  auto row_less = [&](int64_t i, int64_t j) {
    for (int64_t k = 0; k < width; ++k) {
      const V u = cpu::load(px[i * width + k]), w = cpu::load(px[j * width + k]);
      if (less_nan(u, w)) return true;
      if (less_nan(w, u)) return false;
    }
    return false;
  };
  std::vector<int64_t> order(rows);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), row_less);
  std::vector<int64_t> first, counts, inverse(rows);
  for (int64_t r = 0; r < rows; ++r) {
    if (r == 0 || row_less(order[r - 1], order[r])) {
      first.push_back(order[r]);
      counts.push_back(0);
    }
    ++counts.back();
    inverse[order[r]] = static_cast<int64_t>(first.size()) - 1;
  }
  const int64_t u = static_cast<int64_t>(first.size());
  Dims td = flat ? Dims{u} : xt.dims();
  td[0] = u;
  DenseTensor vt = DenseTensor::empty(td, a.x.dtype(), a.x.place());
  T* pv = static_cast<T*>(vt.raw_data());
  for (int64_t g = 0; g < u; ++g)
    std::copy(px + first[g] * width, px + (first[g] + 1) * width, pv + g * width);
  if (flat) {
    *a.out = vt;
  } else {
    Dims od = a.x.dims();
    od[axis] = u;
    *a.out = DenseTensor::empty(od, a.x.dtype(), a.x.place());
    DenseTensor view = view_permute(*a.out, perm);
    view.copy_from(vt);
  }
  *a.indices = DenseTensor::empty(Dims{u}, a.dtype, a.x.place());
  *a.counts = DenseTensor::empty(Dims{u}, a.dtype, a.x.place());
  store_ints(*a.indices, first);
  store_ints(*a.counts, counts);
  store_ints(*a.inverse, inverse);
}
SKIFF_INSTANTIATE_KERNEL(unique, cpu)

}  // namespace skiff::ops
