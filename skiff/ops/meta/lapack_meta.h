// Infer-meta for the LAPACK ops (skiff/ops/yaml/lapack.yaml): matrices are the last two dims,
// everything before them is a batch; float32 and float64 only.
#pragma once

#include <string>
#include <string_view>

#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// x [*, N, N] -> out like x (inverse, cholesky).
void square_matrix_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);
void square_matrix_meta(std::string_view op, const TensorMeta& x, bool upper, TensorMeta* out);
/// x [*, N, N] -> out [*].
void det_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);
/// x [*, N, N] -> out [2, *].
void slogdet_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);
/// x [*, M, M], y [*, M, K] or a vector ([M] or x's dims without the last); batches broadcast.
void solve_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out);
void triangular_solve_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y,
                           bool upper, bool transpose, bool unitriangular, TensorMeta* out);
/// x (the right-hand side) [*, M, K], y (the factor) [*, M, M].
void cholesky_solve_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, bool upper,
                         TensorMeta* out);
void lu_meta(std::string_view op, const TensorMeta& x, bool pivot, TensorMeta* out,
             TensorMeta* pivots, TensorMeta* infos);
void qr_meta(std::string_view op, const TensorMeta& x, const std::string& mode, TensorMeta* q,
             TensorMeta* r);
void svd_meta(std::string_view op, const TensorMeta& x, bool full_matrices, TensorMeta* u,
              TensorMeta* s, TensorMeta* vh);
/// eig: square x (float32/float64/complex64/complex128) -> complex eigenvalues [*, N] and
/// eigenvectors [*, N, N] (float32 -> complex64, float64 -> complex128).
void eig_meta(std::string_view op, const TensorMeta& x, TensorMeta* eigenvalues,
              TensorMeta* eigenvectors);
void eigh_meta(std::string_view op, const TensorMeta& x, const std::string& uplo,
               TensorMeta* eigenvalues, TensorMeta* eigenvectors);
void lstsq_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, float rcond,
                const std::string& driver, TensorMeta* solution, TensorMeta* residuals,
                TensorMeta* rank, TensorMeta* singular_values);

/// x [*, M, N] (M >= N), tau [*, K] (K <= N) -> out like x.
void householder_product_meta(std::string_view op, const TensorMeta& x, const TensorMeta& tau,
                              TensorMeta* out);
/// x [*, MN, K], tau [*, min(MN, K)] or fewer, y [*, M, N] with MN = M (left) or N -> out like y.
void ormqr_meta(std::string_view op, const TensorMeta& x, const TensorMeta& tau,
                const TensorMeta& y, bool left, bool transpose, TensorMeta* out);

/// True when solve's y is a vector right-hand side for x (Paddle's is_vector_rhs).
bool solve_rhs_is_vector(const Dims& x, const Dims& y);

}  // namespace skiff::ops::meta
