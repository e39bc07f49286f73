// Complex GEMM for matmul: BLAS cgemm/zgemm (OpenBLAS, the library LAPACKE already uses).
#pragma once

#include "skiff/core/dense_tensor.h"

namespace skiff::ops::cpu {

/// c = a @ b for complex64/complex128: a [..., m, k], b [..., k, n] with broadcast batch dims,
/// any strides; c contiguous [batch..., m, n].
template <typename T>
void complex_gemm(const DenseTensor& a, const DenseTensor& b, DenseTensor& c);

}  // namespace skiff::ops::cpu
