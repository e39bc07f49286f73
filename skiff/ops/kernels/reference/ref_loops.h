// Helpers for reference kernels: plain multi-index loops with explicit broadcasting, written
// for obviousness, not speed. Reference kernels compute in float64 (int64 for integer ops) and
// are the oracle every fast kernel is tested against.
#pragma once

#include <vector>

#include "skiff/core/dense_tensor.h"

namespace skiff::ops::reference {

/// Calls f(idx) for every multi-index of `dims` in row-major order (once for rank 0).
template <typename F>
void for_each_index(const Dims& dims, const F& f) {
  if (dims.numel() == 0) return;
  std::vector<int64_t> idx(dims.size(), 0);
  while (true) {
    f(idx.data());
    int d = dims.size() - 1;
    while (d >= 0 && ++idx[d] == dims[d]) idx[d--] = 0;
    if (d < 0) return;
  }
}

/// Storage offset (elements) of `t` at output multi-index `idx` of rank `out_rank`, with
/// numpy broadcasting (t right-aligned, size-1 dims repeat).
inline int64_t broadcast_offset(const DenseTensor& t, const int64_t* idx, int out_rank) {
  int64_t off = 0;
  const int lead = out_rank - t.rank();
  for (int i = 0; i < t.rank(); ++i) {
    if (t.dim(i) != 1) off += idx[lead + i] * t.strides()[i];
  }
  return off;
}

/// Storage offset of `t` at its own multi-index `idx`.
inline int64_t offset_of(const DenseTensor& t, const int64_t* idx) {
  int64_t off = 0;
  for (int i = 0; i < t.rank(); ++i) off += idx[i] * t.strides()[i];
  return off;
}

template <typename T>
T get(const DenseTensor& t, int64_t offset) {
  return static_cast<const T*>(t.raw_data())[offset];
}
template <typename T>
void set(DenseTensor& t, int64_t offset, T v) {
  static_cast<T*>(t.raw_data())[offset] = v;
}

/// out[idx] = f(x[idx]) elementwise with broadcasting; T is the compute and storage type.
template <typename Out, typename In, typename F>
void map1(const DenseTensor& x, DenseTensor& out, const F& f) {
  for_each_index(out.dims(), [&](const int64_t* idx) {
    set<Out>(out, offset_of(out, idx), f(get<In>(x, broadcast_offset(x, idx, out.rank()))));
  });
}

/// out[idx] = f(x[idx], y[idx]) with broadcasting.
template <typename Out, typename A, typename B, typename F>
void map2(const DenseTensor& x, const DenseTensor& y, DenseTensor& out, const F& f) {
  for_each_index(out.dims(), [&](const int64_t* idx) {
    const A a = get<A>(x, broadcast_offset(x, idx, out.rank()));
    const B b = get<B>(y, broadcast_offset(y, idx, out.rank()));
    set<Out>(out, offset_of(out, idx), f(a, b));
  });
}

}  // namespace skiff::ops::reference
