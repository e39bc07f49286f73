#include "skiff/core/strided_copy.h"

#include <algorithm>
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

// A copy whose source is contiguous along a different dim than the destination (a transpose)
// walks one of them with a large stride and misses the cache on every element. Copying in
// square tiles keeps both sides' lines in cache. Returns false if the pattern does not apply.
template <typename T>
bool copy_transposed(const Loop& l, const T* src, T* dst) {
  const int inner = l.rank - 1;
  if (l.rank < 2 || l.src_strides[inner] == 1 || l.dst_strides[inner] != 1) return false;
  int k = -1;
  for (int d = 0; d < inner; ++d) {
    if (l.src_strides[d] == 1) k = d;
  }
  if (k < 0) return false;
  constexpr int64_t kTile = 16;  // 16x16 elements: measured best on [4096, 4096] fp32
  const int64_t nk = l.sizes[k], ni = l.sizes[inner];
  const int64_t sk = l.src_strides[k], si = l.src_strides[inner];
  const int64_t dk = l.dst_strides[k];
  // Dims other than k and inner form the outer index space.
  int64_t outer = 1;
  for (int d = 0; d < inner; ++d) {
    if (d != k) outer *= l.sizes[d];
  }
  const int64_t tiles_k = (nk + kTile - 1) / kTile;
  const int64_t tasks = outer * tiles_k;
  parallel_for(0, tasks, std::max<int64_t>(1, kParallelGrain / (kTile * ni)),
               [&](int64_t begin, int64_t end) {
                 for (int64_t t = begin; t < end; ++t) {
                   int64_t rem = t / tiles_k, so = 0, dof = 0;
                   for (int d = inner - 1; d >= 0; --d) {
                     if (d == k) continue;
                     const int64_t idx = rem % l.sizes[d];
                     rem /= l.sizes[d];
                     so += idx * l.src_strides[d];
                     dof += idx * l.dst_strides[d];
                   }
                   const int64_t k0 = (t % tiles_k) * kTile, k1 = std::min(nk, k0 + kTile);
                   for (int64_t i0 = 0; i0 < ni; i0 += kTile) {
                     const int64_t i1 = std::min(ni, i0 + kTile);
                     for (int64_t kk = k0; kk < k1; ++kk) {
                       const T* s = src + so + kk * sk;
                       T* o = dst + dof + kk * dk;
                       for (int64_t i = i0; i < i1; ++i) o[i] = s[i * si];
                     }
                   }
                 }
               });
  return true;
}

template <typename T>
void copy_loop(const Loop& l, const T* src, T* dst) {
  if (copy_transposed(l, src, dst)) return;
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

struct Bytes16 {
  uint64_t lo, hi;
};

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
    case 16:  // complex128
      return copy_loop(l, static_cast<const Bytes16*>(src.raw_data()),
                       static_cast<Bytes16*>(dst.raw_data()));
  }
  SKIFF_CHECK(false);
}

}  // namespace skiff
