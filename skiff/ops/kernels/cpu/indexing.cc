// CPU kernels of the indexing ops: gathers through table_copy or per-row copies, scatters that
// split work across threads along dims the scatter does not touch (so duplicates accumulate in
// index order, deterministically), masks with two-pass parallel compaction. Indices are read
// once, checked, and never used out of range.
#include "skiff/ops/generated/kernels/indexing.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "skiff/core/views.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"
#include "skiff/ops/kernels/cpu/manipulation_util.h"

namespace skiff::ops {

namespace {

using cpu::read_indices;
using cpu::table_copy;

std::string dim_note(const char* name, int axis, int64_t n) {
  return str(name, ".shape[", axis, "] = ", n);
}

// out = x with `axis` re-indexed by idx (out's axis dim has idx.size() entries, or is absent
// when `drop_axis`).
void take_axis(const DenseTensor& x, DenseTensor& out, int axis, const std::vector<int64_t>& idx,
               bool drop_axis) {
  Dims od = x.dims();
  od[axis] = static_cast<int64_t>(idx.size());
  DenseTensor o = drop_axis ? out.as_strided(od, contiguous_strides(od), 0) : out;
  auto t = cpu::identity_tables(x, od);
  for (size_t i = 0; i < idx.size(); ++i) t[axis][i] = idx[i] * x.strides()[axis];
  table_copy(x, o, t);
}

void gather_impl(const KernelContext& c, const GatherArgs& a) {
  const int axis = normalize_axis(a.axis, a.x.rank(), c.op);
  const auto idx = read_indices(c.op, "index", a.index, a.x.dim(axis), false,
                                dim_note("x", axis, a.x.dim(axis)).c_str());
  take_axis(a.x, *a.out, axis, idx, a.index.rank() == 0);
}

void index_select_impl(const KernelContext& c, const IndexSelectArgs& a) {
  const int axis = normalize_axis(a.axis, a.x.rank(), c.op);
  const auto idx = read_indices(c.op, "index", a.index, a.x.dim(axis), false,
                                dim_note("x", axis, a.x.dim(axis)).c_str());
  take_axis(a.x, *a.out, axis, idx, false);
}

// Row offsets (elements of contiguous x) of a gather_nd/scatter_nd index [..., k], checked.
std::vector<int64_t> nd_offsets(const char* op, const DenseTensor& x, const DenseTensor& index) {
  const int k = static_cast<int>(index.dim(index.rank() - 1));
  Dims lead = index.dims();
  lead.erase(lead.size() - 1);
  const int64_t rows = lead.numel();
  std::vector<int64_t> off(rows, 0);
  if (k == 0) return off;
  const Dims xs = contiguous_strides(x.dims());
  const auto v = cpu::index_values(index);
  for (int64_t r = 0; r < rows; ++r) {
    for (int j = 0; j < k; ++j) {
      const int64_t i = v[r * k + j], n = x.dim(j);
      SKIFF_ENFORCE(i >= 0 && i < n, kOutOfRange, op, "index",
                    str("values in [0, ", n, ") (", dim_note("x", j, n), ")"), i);
      off[r] += i * xs[j];
    }
  }
  return off;
}

void gather_nd_impl(const KernelContext& c, const GatherNdArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const auto off = nd_offsets(c.op, x, a.index);
  const int64_t rows = static_cast<int64_t>(off.size());
  const int64_t inner = rows ? a.out->numel() / rows : 0;
  const int64_t bytes = inner * x.itemsize();
  const char* src = static_cast<const char*>(x.raw_data());
  char* dst = static_cast<char*>(a.out->raw_data());
  if (bytes == 0) return;
  parallel_for(0, rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(inner, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t r = b; r < e; ++r) {
                   std::memcpy(dst + r * bytes, src + off[r] * x.itemsize(), bytes);
                 }
               });
}

// Element-wise multi-dim iteration over `dims` with N strided operands; calls
// f(offsets) for every element, parallel over the outer range.
template <int N, typename F>
void for_each_element(const Dims& dims, const std::array<Dims, N>& strides, const F& f) {
  const int64_t numel = dims.numel();
  if (numel == 0) return;
  const int rank = dims.size();
  parallel_for(0, numel, kParallelGrain, [&](int64_t b, int64_t e) {
    int64_t idx[kMaxRank] = {};
    std::array<int64_t, N> off{};
    int64_t rem = b;
    for (int d = rank - 1; d >= 0; --d) {
      idx[d] = rem % dims[d];
      rem /= dims[d];
      for (int k = 0; k < N; ++k) off[k] += idx[d] * strides[k][d];
    }
    for (int64_t p = b; p < e; ++p) {
      f(off);
      for (int d = rank - 1; d >= 0; --d) {
        for (int k = 0; k < N; ++k) off[k] += strides[k][d];
        if (++idx[d] < dims[d]) break;
        for (int k = 0; k < N; ++k) off[k] -= dims[d] * strides[k][d];
        idx[d] = 0;
      }
    }
  });
}

void take_along_axis_impl(const KernelContext& c, const TakeAlongAxisArgs& a) {
  const int axis = normalize_axis(a.axis, a.arr.rank(), c.op);
  const int64_t n = a.arr.dim(axis);
  const Dims& od = a.out->dims();
  const DenseTensor ib = view_expand(a.indices, od).contiguous();
  const auto idx = read_indices(c.op, "indices", ib, n, true, dim_note("arr", axis, n).c_str());
  Dims as = a.arr.strides();
  const int64_t axis_stride = as[axis];
  as[axis] = 0;
  cpu::visit_bytes(a.arr.itemsize(), [&](auto tag) {
    using U = decltype(tag);
    const U* src = static_cast<const U*>(a.arr.raw_data());
    U* dst = static_cast<U*>(a.out->raw_data());
    for_each_element<2>(od, {as, a.out->strides()}, [&](const std::array<int64_t, 2>& o) {
      dst[o[1]] = src[o[0] + idx[o[1]] * axis_stride];
    });
  });
}

// Runs body(line_offsets...) over the "lines" of `dims` along `axis`: every combination of the
// other dims, in parallel; a body owns its line, so writes along the axis never race.
template <int N, typename F>
void for_each_line(const Dims& dims, int axis, const std::array<Dims, N>& strides, const F& f) {
  Dims ld = dims;
  ld[axis] = 1;
  for_each_element<N>(ld, strides, f);
}

// The output of an accumulating scatter in its compute type: 16-bit floats accumulate in a
// float buffer and round once at the end (duplicate indices would otherwise round per add).
template <typename T>
struct Accum {
  using C = compute_t<T>;
  static constexpr bool kWide = !std::is_same_v<C, T>;
  DenseTensor& out;
  std::vector<C> buf;
  C* p;
  explicit Accum(DenseTensor& o) : out(o) {
    T* t = static_cast<T*>(o.raw_data());
    if constexpr (kWide) {
      buf.resize(o.numel());
      for (int64_t i = 0; i < o.numel(); ++i) buf[i] = cpu::load(t[i]);
      p = buf.data();
    } else {
      p = t;
    }
  }
  void finish() {
    if constexpr (kWide) {
      T* t = static_cast<T*>(out.raw_data());
      for (int64_t i = 0; i < out.numel(); ++i) t[i] = cpu::store<T>(buf[i]);
    }
  }
};

template <typename T>
void scatter_cpu_t(const KernelContext& c, const ScatterArgs& a) {
  a.out->copy_from(a.x);
  const int64_t n = a.x.dim(0);
  const auto idx = read_indices(c.op, "index", a.index, n, false, dim_note("x", 0, n).c_str());
  const DenseTensor u = a.updates.contiguous();
  const int64_t inner = n ? a.out->numel() / n : 0;
  Accum<T> acc(*a.out);
  auto* o = acc.p;
  using C = typename Accum<T>::C;
  const T* pu = static_cast<const T*>(u.raw_data());
  const int64_t m = static_cast<int64_t>(idx.size());
  parallel_for(0, inner, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(m, 1)),
               [&](int64_t b, int64_t e) {
                 if (a.overwrite) {  // the last write to a row wins
                   for (int64_t i = 0; i < m; ++i) {
                     C* po = o + idx[i] * inner;
                     const T* pi = pu + i * inner;
                     for (int64_t j = b; j < e; ++j) po[j] = cpu::load(pi[j]);
                   }
                   return;
                 }
                 for (int64_t i = 0; i < m; ++i)
                   std::fill(o + idx[i] * inner + b, o + idx[i] * inner + e, C(0));
                 for (int64_t i = 0; i < m; ++i) {
                   C* po = o + idx[i] * inner;
                   const T* pi = pu + i * inner;
                   cpu::run_best_isa([&] {
                     for (int64_t j = b; j < e; ++j) po[j] += cpu::load(pi[j]);
                   });
                 }
               });
  acc.finish();
}

template <typename T>
void scatter_nd_add_cpu_t(const KernelContext& c, const ScatterNdAddArgs& a) {
  a.out->copy_from(a.x);
  const auto off = nd_offsets(c.op, *a.out, a.index);
  const DenseTensor u = a.updates.contiguous();
  const int64_t rows = static_cast<int64_t>(off.size());
  const int64_t inner = rows ? u.numel() / rows : 0;
  Accum<T> acc(*a.out);
  auto* o = acc.p;
  const T* pu = static_cast<const T*>(u.raw_data());
  parallel_for(0, inner, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(rows, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t r = 0; r < rows; ++r) {
                   auto* po = o + off[r];
                   const T* pi = pu + r * inner;
                   for (int64_t j = b; j < e; ++j) po[j] += cpu::load(pi[j]);
                 }
               });
  acc.finish();
}

template <typename T>
void index_add_cpu_t(const KernelContext& c, const IndexAddArgs& a) {
  a.out->copy_from(a.x);
  const int axis = normalize_axis(a.axis, a.x.rank(), c.op);
  const int64_t n = a.x.dim(axis);
  const auto idx = read_indices(c.op, "index", a.index, n, false, dim_note("x", axis, n).c_str());
  const DenseTensor v = a.value.contiguous();
  const Dims& od = a.out->dims();
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= od[d];
  for (int d = axis + 1; d < od.size(); ++d) inner *= od[d];
  const int64_t m = static_cast<int64_t>(idx.size());
  Accum<T> acc(*a.out);
  auto* o = acc.p;
  const T* pv = static_cast<const T*>(v.raw_data());
  // Work items: (outer slice, block of inner columns); each owns its output columns.
  const int64_t block = std::max<int64_t>(1, std::min<int64_t>(inner, 4096));
  const int64_t nblocks = (inner + block - 1) / block;
  parallel_for(0, outer * nblocks,
               std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(block * m, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t w = b; w < e; ++w) {
                   const int64_t os = w / nblocks, c0 = (w % nblocks) * block;
                   const int64_t c1 = std::min(inner, c0 + block);
                   for (int64_t i = 0; i < m; ++i) {
                     auto* po = o + (os * n + idx[i]) * inner;
                     const T* pi = pv + (os * m + i) * inner;
                     for (int64_t j = c0; j < c1; ++j) po[j] += cpu::load(pi[j]);
                   }
                 }
               });
  acc.finish();
}

template <typename T>
void put_along_axis_cpu_t(const KernelContext& c, const PutAlongAxisArgs& a) {
  a.out->copy_from(a.arr);
  const int axis = normalize_axis(a.axis, a.arr.rank(), c.op);
  const int64_t n = a.arr.dim(axis);
  Dims d = a.arr.dims();
  d[axis] = a.indices.dim(axis);
  const DenseTensor ib = view_expand(a.indices, d).contiguous();
  const auto idx = read_indices(c.op, "indices", ib, n, true, dim_note("arr", axis, n).c_str());
  const DenseTensor vb = view_expand(a.values, d);
  const Dims is = contiguous_strides(d), vs = vb.strides();
  Dims os = a.out->strides();
  const int64_t out_axis_stride = os[axis];
  os[axis] = 0;
  // 0 assign, 1 add, 2 mul, 3 mean (a sum, divided by the count afterwards), 4 amax, 5 amin.
  const std::string& r = a.reduce;
  const int mode = r == "assign" ? 0
                   : r == "add"  ? 1
                   : r == "mean" ? 3
                   : r == "amax" ? 4
                   : r == "amin" ? 5
                                 : 2;
  Accum<T> acc(*a.out);
  auto* o = acc.p;
  using C = typename Accum<T>::C;
  const C identity = mode == 2   ? C(1)
                     : mode == 4 ? std::numeric_limits<C>::lowest()
                     : mode == 5 ? std::numeric_limits<C>::max()
                                 : C(0);
  std::vector<int64_t> count(mode == 3 ? a.out->numel() : 0, 0);
  const T* pv = static_cast<const T*>(vb.raw_data());
  const int64_t len = d[axis];
  for_each_line<3>(d, axis, {os, is, vs}, [&](const std::array<int64_t, 3>& off) {
    if (!a.include_self && mode != 0) {
      for (int64_t k = 0; k < len; ++k) {
        o[off[0] + idx[off[1] + k * is[axis]] * out_axis_stride] = identity;
      }
    }
    for (int64_t k = 0; k < len; ++k) {
      const int64_t at = off[0] + idx[off[1] + k * is[axis]] * out_axis_stride;
      C& dst = o[at];
      const C v = cpu::load(pv[off[2] + k * vs[axis]]);
      if (mode == 0) {
        dst = v;
      } else if (mode == 1 || mode == 3) {
        dst += v;
        if (mode == 3) ++count[at];
      } else if (mode == 2) {
        dst *= v;
      } else if (mode == 4) {
        dst = std::max(dst, v);
      } else {
        dst = std::min(dst, v);
      }
    }
  });
  for (size_t at = 0; at < count.size(); ++at) {  // mean: self (when included) counts once
    if (count[at]) o[at] = static_cast<C>(o[at] / static_cast<C>(count[at] + a.include_self));
  }
  acc.finish();
}

template <typename T>
void masked_fill_cpu_t(const KernelContext&, const MaskedFillArgs& a) {
  const compute_t<T> v = cpu::load(a.value.to<T>());
  cpu::binary_loop<T, T, bool>(a.x, a.mask, *a.out, [v](auto x, bool m) { return m ? v : x; });
}

// Per-chunk counts of true mask elements, then exclusive prefix sums: chunk c writes from
// starts[c]. Returns the total.
int64_t compaction_plan(const bool* m, int64_t n, int64_t chunk, std::vector<int64_t>* starts) {
  const int64_t nchunks = (n + chunk - 1) / chunk;
  starts->assign(nchunks + 1, 0);
  parallel_for(0, nchunks, 1, [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) {
      const int64_t lo = k * chunk, hi = std::min(n, lo + chunk);
      (*starts)[k + 1] = std::count(m + lo, m + hi, true);
    }
  });
  std::partial_sum(starts->begin(), starts->end(), starts->begin());
  return starts->back();
}

void masked_select_impl(const KernelContext& c, const MaskedSelectArgs& a) {
  TensorMeta m;
  Dims d;
  {
    const int rank = std::max(a.x.rank(), a.mask.rank());
    d = Dims::filled(rank, 1);
    for (int i = 0; i < rank; ++i) {
      const int ix = i - (rank - a.x.rank()), im = i - (rank - a.mask.rank());
      const int64_t dx = ix >= 0 ? a.x.dim(ix) : 1, dm = im >= 0 ? a.mask.dim(im) : 1;
      d[i] = dx == 1 ? dm : dx;
    }
  }
  (void)c;
  const DenseTensor x = view_expand(a.x, d).contiguous();
  const DenseTensor mk = view_expand(a.mask, d).contiguous();
  const int64_t n = x.numel(), chunk = kParallelGrain;
  const bool* pm = static_cast<const bool*>(mk.raw_data());
  std::vector<int64_t> starts;
  const int64_t total = n ? compaction_plan(pm, n, chunk, &starts) : 0;
  *a.out = DenseTensor::empty(Dims{total}, a.x.dtype(), a.x.place());
  if (total == 0) return;
  cpu::visit_bytes(x.itemsize(), [&](auto tag) {
    using U = decltype(tag);
    const U* px = static_cast<const U*>(x.raw_data());
    U* po = static_cast<U*>(a.out->raw_data());
    parallel_for(0, static_cast<int64_t>(starts.size()) - 1, 1, [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) {
        int64_t w = starts[k];
        for (int64_t i = k * chunk, hi = std::min(n, i + chunk); i < hi; ++i) {
          if (pm[i]) po[w++] = px[i];
        }
      }
    });
  });
}

template <typename T>
void nonzero_cpu_t(const KernelContext&, const NonzeroArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t n = x.numel(), chunk = kParallelGrain;
  const int rank = x.rank();
  std::vector<uint8_t> mask(n);
  const T* px = static_cast<const T*>(x.raw_data());
  parallel_for(0, n, kParallelGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) mask[i] = cpu::load(px[i]) != compute_t<T>(0);
  });
  std::vector<int64_t> starts;
  const int64_t total =
      n ? compaction_plan(reinterpret_cast<const bool*>(mask.data()), n, chunk, &starts) : 0;
  *a.out = DenseTensor::empty(Dims{total, rank}, DType::kInt64, x.place());
  if (total == 0 || rank == 0) return;
  int64_t* po = static_cast<int64_t*>(a.out->raw_data());
  const Dims& dims = x.dims();
  parallel_for(0, static_cast<int64_t>(starts.size()) - 1, 1, [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) {
      int64_t w = starts[k];
      for (int64_t i = k * chunk, hi = std::min(n, i + chunk); i < hi; ++i) {
        if (!mask[i]) continue;
        int64_t rem = i;
        for (int d = rank - 1; d >= 0; --d) {
          po[w * rank + d] = rem % dims[d];
          rem /= dims[d];
        }
        ++w;
      }
    }
  });
}

}  // namespace

#define SKIFF_BYTES_KERNEL(op, Args)                     \
  template <typename T>                                  \
  void op##_cpu(const KernelContext& c, const Args& a) { \
    op##_impl(c, a);                                     \
  }                                                      \
  SKIFF_INSTANTIATE_KERNEL(op, cpu)
#define SKIFF_TYPED_KERNEL(op, Args)                     \
  template <typename T>                                  \
  void op##_cpu(const KernelContext& c, const Args& a) { \
    op##_cpu_t<T>(c, a);                                 \
  }                                                      \
  SKIFF_INSTANTIATE_KERNEL(op, cpu)

SKIFF_BYTES_KERNEL(gather, GatherArgs)
SKIFF_BYTES_KERNEL(index_select, IndexSelectArgs)
SKIFF_BYTES_KERNEL(gather_nd, GatherNdArgs)
SKIFF_BYTES_KERNEL(take_along_axis, TakeAlongAxisArgs)
SKIFF_BYTES_KERNEL(masked_select, MaskedSelectArgs)
SKIFF_TYPED_KERNEL(scatter, ScatterArgs)
SKIFF_TYPED_KERNEL(scatter_nd_add, ScatterNdAddArgs)
SKIFF_TYPED_KERNEL(index_add, IndexAddArgs)
SKIFF_TYPED_KERNEL(put_along_axis, PutAlongAxisArgs)
SKIFF_TYPED_KERNEL(masked_fill, MaskedFillArgs)
SKIFF_TYPED_KERNEL(nonzero, NonzeroArgs)

}  // namespace skiff::ops
