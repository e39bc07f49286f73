// OpDb entries of the LAPACK ops. Inputs are made well-posed by input makers: a random matrix
// plus N I (invertible, well conditioned), B B^T + N I (positive definite), (B + B^T) / 2
// (symmetric). eigh and svd compare only their values (vectors are defined up to sign).
// cholesky and eigh skip the finite-difference check: their kernels read one triangle while the
// rule gives Paddle's symmetric gradient, which tests/python/test_linalg_lapack.py checks
// against torch through symmetric inputs.
#include "op_db.h"

namespace skiff::testing {

namespace {

std::vector<double> uniform(int64_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> v(n);
  for (auto& e : v) e = dist(rng);
  return v;
}

// Each [N, N] matrix of `dims` transformed by f(values of one matrix, N).
template <typename F>
DenseTensor per_matrix(const Dims& dims, DType dtype, std::mt19937_64& rng, F&& f) {
  const int r = dims.size();
  const int64_t n = dims[r - 1], rows = dims[r - 2];
  std::vector<double> v = uniform(dims.numel(), rng);
  const int64_t mats = rows * n > 0 ? dims.numel() / (rows * n) : 0;
  for (int64_t b = 0; b < mats; ++b) f(v.data() + b * rows * n, n);
  return make_tensor(dims, dtype, v);
}

DenseTensor well_conditioned(int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
  return per_matrix(dims, dtype, rng, [](double* m, int64_t n) {
    for (int64_t i = 0; i < n; ++i) m[i * n + i] += static_cast<double>(n);
  });
}

DenseTensor positive_definite(int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
  return per_matrix(dims, dtype, rng, [](double* m, int64_t n) {
    std::vector<double> b(m, m + n * n);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double s = i == j ? static_cast<double>(n) : 0.0;
        for (int64_t p = 0; p < n; ++p) s += b[i * n + p] * b[j * n + p];
        m[i * n + j] = s;
      }
    }
  });
}

DenseTensor symmetric(int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
  return per_matrix(dims, dtype, rng, [](double* m, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < i; ++j) m[i * n + j] = m[j * n + i] = (m[i * n + j] + m[j * n + i]);
    }
  });
}

}  // namespace

void add_lapack_op_infos(OpDb& db) {
  const InputMaker wc = well_conditioned;
  db.add({.name = "inverse",
          .samples = {sample({{3, 3}}), sample({{2, 4, 4}}), sample({{1, 1}}), sample({{0, 2, 2}}),
                      sample({{2, 1, 5, 5}})},
          .input_makers = {{0, wc}},
          .tolerance_scale = 4.0});
  db.add({.name = "det",
          .samples = {sample({{3, 3}}), sample({{2, 4, 4}}), sample({{1, 1}}), sample({{0, 0}}),
                      sample({{3, 2, 2}})},
          .input_makers = {{0, wc}},
          .tolerance_scale = 4.0});
  db.add({.name = "slogdet",
          .samples = {sample({{3, 3}}), sample({{2, 4, 4}}), sample({{1, 1}})},
          .input_makers = {{0, wc}},
          .tolerance_scale = 4.0});
  db.add({.name = "solve",
          .samples = {sample({{3, 3}, {3, 2}}), sample({{3, 3}, {3}}),           // 1-D rhs
                      sample({{2, 3, 3}, {2, 3}}),                               // batched vector
                      sample({{2, 3, 3}, {3, 4}}), sample({{3, 3}, {2, 3, 1}}),  // broadcast
                      sample({{2, 1, 2, 2}, {3, 2, 2}})},
          .input_makers = {{0, wc}},
          .tolerance_scale = 4.0});
  db.add({.name = "triangular_solve",
          .samples = {sample({{3, 3}, {3, 2}}), sample({{3, 3}, {3, 2}}, {{"upper", false}}),
                      sample({{2, 3, 3}, {3, 2}}, {{"transpose", true}}),
                      sample({{3, 3}, {2, 3, 2}}, {{"upper", false}, {"transpose", true}}),
                      sample({{4, 4}, {4, 1}}, {{"unitriangular", true}}),
                      sample({{4, 4}, {4, 3}}, {{"upper", false}, {"unitriangular", true}})},
          .input_makers = {{0, wc}},
          .tolerance_scale = 4.0});
  db.add({.name = "cholesky",
          .samples = {sample({{3, 3}}), sample({{2, 4, 4}}, {{"upper", true}}), sample({{1, 1}})},
          .input_makers = {{0, positive_definite}},
          .tolerance_scale = 4.0,
          .check_grad = false});
  db.add({.name = "cholesky_solve",
          .samples = {sample({{3, 2}, {3, 3}}), sample({{2, 3, 2}, {3, 3}}, {{"upper", true}}),
                      sample({{4, 1}, {2, 4, 4}})},
          .input_makers = {{1, wc}},
          .tolerance_scale = 8.0});
  db.add({.name = "lu",
          .samples = {sample({{3, 3}}), sample({{2, 4, 4}}), sample({{4, 3}}), sample({{2, 3, 5}})},
          .tolerance_scale = 4.0});
  db.add({.name = "qr",
          .samples = {sample({{4, 3}}), sample({{3, 3}}, {{"mode", std::string("complete")}}),
                      sample({{2, 3, 5}}), sample({{2, 4, 2}}, {{"mode", std::string("r")}}),
                      sample({{3, 4}}, {{"mode", std::string("complete")}})},
          .tolerance_scale = 4.0});
  db.add({.name = "svd",
          .samples = {sample({{4, 3}}), sample({{2, 3, 5}}), sample({{3, 3}}),
                      sample({{3, 3}}, {{"full_matrices", true}})},
          .tolerance_scale = 4.0,
          .compared_outputs = std::vector<int>{1}});
  db.add({.name = "eigh",
          .samples = {sample({{3, 3}}), sample({{2, 4, 4}}, {{"uplo", std::string("U")}}),
                      sample({{1, 1}})},
          .input_makers = {{0, symmetric}},
          .tolerance_scale = 4.0,
          .compared_outputs = std::vector<int>{0},
          .check_grad = false});
  db.add({.name = "lstsq",
          .samples = {sample({{5, 3}, {5, 2}}),
                      sample({{2, 5, 3}, {2, 5, 1}}, {{"driver", std::string("gels")}}),
                      sample({{3, 5}, {3, 2}}, {{"driver", std::string("gelsd")}}),
                      sample({{4, 4}, {4, 2}}, {{"driver", std::string("gelss")}})},
          .tolerance_scale = 8.0});
  // Any reflectors and taus give a well-defined product (tau in [-1, 1] keeps it tame).
  db.add({.name = "householder_product",
          .samples = {sample({{4, 3}, {3}}), sample({{2, 5, 2}, {2, 1}}), sample({{3, 3}, {2}}),
                      sample({{3, 2}, {0}}), sample({{0, 4, 3}, {0, 3}})},
          .tolerance_scale = 4.0});
  db.add(
      {.name = "ormqr",
       .samples = {sample({{4, 3}, {3}, {4, 2}}), sample({{4, 3}, {3}, {2, 4}}, {{"left", false}}),
                   sample({{2, 3, 3}, {2, 2}, {2, 3, 2}}, {{"transpose", true}}),
                   sample({{3, 5}, {3}, {2, 3}}, {{"left", false}, {"transpose", true}}),
                   sample({{4, 2}, {1}, {4, 0}})},
       .tolerance_scale = 4.0});
}

}  // namespace skiff::testing
