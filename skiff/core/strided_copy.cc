#include "skiff/core/strided_copy.h"

#include <cstring>

#include "skiff/core/dense_tensor.h"
#include "skiff/core/parallel.h"

namespace skiff {

namespace {

// Collapses adjacent dims that are contiguous with each other in both tensors, so that a
// transposed copy of [B, M, N] becomes at most a 2-D loop and a plain copy becomes 1-D.
struct Loop {
  int rank = 0;
  int64_t sizes[kMaxRank];
  int64_t src_strides[kMaxRank];
  int64_t dst_strides[kMaxRank];
};

Loop collapse(const Dims& dims, const Dims& ss, const Dims& ds) {
  Loop l;
  for (int i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    if (l.rank > 0) {
      const int j = l.rank - 1;
      if (l.src_strides[j] == ss[i] * dims[i] && l.dst_strides[j] == ds[i] * dims[i]) {
        l.sizes[j] *= dims[i];
        l.src_strides[j] = ss[i];
        l.dst_strides[j] = ds[i];
        continue;
      }
    }
    l.sizes[l.rank] = dims[i];
    l.src_strides[l.rank] = ss[i];
    l.dst_strides[l.rank] = ds[i];
    ++l.rank;
  }
  return l;
}

template <typename T>
void copy_loop(const Loop& l, const T* src, T* dst) {
  if (l.rank == 0) {
    *dst = *src;
    return;
  }
  const int inner = l.rank - 1;
  const int64_t n_inner = l.sizes[inner];
  const int64_t si = l.src_strides[inner], di = l.dst_strides[inner];
  int64_t outer = 1;
  for (int i = 0; i < inner; ++i) outer *= l.sizes[i];
  parallel_for(0, outer, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n_inner, 1)),
               [&](int64_t begin, int64_t end) {
                 for (int64_t o = begin; o < end; ++o) {
                   int64_t rem = o, so = 0, dof = 0;
                   for (int d = inner - 1; d >= 0; --d) {
                     const int64_t idx = rem % l.sizes[d];
                     rem /= l.sizes[d];
                     so += idx * l.src_strides[d];
                     dof += idx * l.dst_strides[d];
                   }
                   const T* s = src + so;
                   T* t = dst + dof;
                   if (si == 1 && di == 1) {
                     std::memcpy(t, s, n_inner * sizeof(T));
                   } else {
                     for (int64_t k = 0; k < n_inner; ++k) t[k * di] = s[k * si];
                   }
                 }
               });
}

}  // namespace

void strided_copy(const DenseTensor& src, DenseTensor& dst) {
  const Loop l = collapse(dst.dims(), src.strides(), dst.strides());
  switch (dst.itemsize()) {
    case 1:
      return copy_loop(l, static_cast<const uint8_t*>(src.raw_data()),
                       static_cast<uint8_t*>(dst.raw_data()));
    case 2:
      return copy_loop(l, static_cast<const uint16_t*>(src.raw_data()),
                       static_cast<uint16_t*>(dst.raw_data()));
    case 4:
      return copy_loop(l, static_cast<const uint32_t*>(src.raw_data()),
                       static_cast<uint32_t*>(dst.raw_data()));
    case 8:
      return copy_loop(l, static_cast<const uint64_t*>(src.raw_data()),
                       static_cast<uint64_t*>(dst.raw_data()));
  }
  SKIFF_CHECK(false);
}

}  // namespace skiff
