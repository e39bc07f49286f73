#include "skiff/ops/kernels/cpu/complex_gemm.h"

#include <cblas.h>

#include <algorithm>
#include <complex>

namespace skiff::ops::cpu {

namespace {
// Element offset of batch index `o` (row-major over `batch`) in a [..., r, c] operand that is
// contiguous, with its size-1 or missing batch dims broadcast.
int64_t batch_offset(const DenseTensor& t, const Dims& batch, int64_t o) {
  const int nb = batch.size(), tb = t.rank() - 2;
  const int64_t mat = t.dim(t.rank() - 2) * t.dim(t.rank() - 1);
  int64_t off = 0, stride = mat;
  for (int i = nb - 1; i >= 0; --i) {
    const int64_t idx = o % batch[i];
    o /= batch[i];
    const int ti = i - (nb - tb);
    if (ti < 0) continue;
    if (t.dim(ti) != 1) off += idx * stride;
    stride *= t.dim(ti);
  }
  return off;
}
}  // namespace

template <typename T>
void complex_gemm(const DenseTensor& a_in, const DenseTensor& b_in, DenseTensor& c) {
  if (c.numel() == 0) return;
  const DenseTensor a = a_in.contiguous(), b = b_in.contiguous();
  const int rc = c.rank();
  const int64_t m = c.dim(rc - 2), n = c.dim(rc - 1), k = a.dim(a.rank() - 1);
  T* cp = static_cast<T*>(c.raw_data());
  if (k == 0) {
    std::fill(cp, cp + c.numel(), T(0));
    return;
  }
  Dims batch;
  for (int i = 0; i < rc - 2; ++i) batch.push_back(c.dim(i));
  const T one(1), zero(0);
  const T* ap = static_cast<const T*>(a.raw_data());
  const T* bp = static_cast<const T*>(b.raw_data());
  for (int64_t o = 0, nb = batch.numel(); o < nb; ++o) {
    const T* ao = ap + batch_offset(a, batch, o);
    const T* bo = bp + batch_offset(b, batch, o);
    T* co = cp + o * m * n;
    if constexpr (std::is_same_v<T, std::complex<float>>) {
      cblas_cgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, &one, ao, k, bo, n, &zero, co,
                  n);
    } else {
      cblas_zgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, &one, ao, k, bo, n, &zero, co,
                  n);
    }
  }
}

template void complex_gemm<std::complex<float>>(const DenseTensor&, const DenseTensor&,
                                                DenseTensor&);
template void complex_gemm<std::complex<double>>(const DenseTensor&, const DenseTensor&,
                                                 DenseTensor&);

}  // namespace skiff::ops::cpu
