// OpDb entries of the complex-number ops and the FFT ops. Their gradients are checked in Python
// against torch (tests/python/test_complex.py, test_fft.py): the finite-difference check here runs
// on float64 inputs and outputs only.
#include <cmath>
#include <complex>

#include "op_db.h"

namespace skiff::testing {

namespace {
OpInfo info(std::string name, std::vector<OpSample> samples) {
  OpInfo i;
  i.name = std::move(name);
  i.samples = std::move(samples);
  i.check_grad = false;
  i.check_gradgrad = false;
  i.eager_only = true;
  return i;
}

std::vector<OpSample> unary_samples() {
  return {sample({{3, 4}}), sample({{}}), sample({{0, 3}}), sample({{2, 3, 5}}),
          sample({{200, 256}})};
}

using Axes = std::vector<int64_t>;
// Odd, prime and even lengths, one axis and several, norms and directions.
std::vector<OpSample> fft_samples(std::map<std::string, ops::AttrValue> extra) {
  std::vector<OpSample> out;
  const std::vector<std::pair<Dims, Axes>> cases = {
      {{7}, {0}},           {{1}, {0}},     {{4, 8}, {1}},         {{5, 6}, {0, 1}},
      {{3, 13, 2}, {0, 2}}, {{2, 63}, {1}}, {{3, 4, 5}, {0, 1, 2}}};
  int k = 0;
  for (const auto& [dims, axes] : cases) {
    auto attrs = extra;
    attrs["axes"] = axes;
    attrs["normalization"] = std::string(k % 3 == 0   ? "backward"
                                         : k % 3 == 1 ? "ortho"
                                                      : "forward");
    attrs["forward"] = k % 2 == 0;
    out.push_back(sample({dims}, attrs));
    ++k;
  }
  return out;
}
// eig: x v_j = w_j v_j and |v_j| = 1 for every matrix and column, within a float tolerance
// relative to the matrix's size; x real or complex.
std::string eig_property(const ops::BoxedInputs& in, const ops::BoxedOutputs& out) {
  using C = std::complex<double>;
  const DenseTensor& x = in.tensors[0][0];
  const std::vector<double> xd = to_doubles(x), w = to_doubles(out[0][0]);
  const std::vector<double> v = to_doubles(out[1][0]);
  const bool cx = is_complex(x.dtype());
  std::vector<C> a(x.numel());
  for (size_t i = 0; i < a.size(); ++i) a[i] = cx ? C(xd[2 * i], xd[2 * i + 1]) : C(xd[i], 0);
  const int64_t n = x.dim(x.rank() - 1), mats = n ? x.numel() / (n * n) : 0;
  const bool single = x.dtype() == DType::kFloat32 || x.dtype() == DType::kComplex64;
  const double tol = single ? 1e-4 : 1e-10;
  for (int64_t b = 0; b < mats; ++b) {
    const C* ab = a.data() + b * n * n;
    auto vij = [&](int64_t i, int64_t j) {
      const int64_t o = 2 * (b * n * n + i * n + j);
      return C(v[o], v[o + 1]);
    };
    double scale = 1;
    for (int64_t i = 0; i < n * n; ++i) scale += std::abs(ab[i]);
    for (int64_t j = 0; j < n; ++j) {
      const C wj(w[2 * (b * n + j)], w[2 * (b * n + j) + 1]);
      double norm2 = 0;
      for (int64_t i = 0; i < n; ++i) {
        C av = 0;
        for (int64_t k = 0; k < n; ++k) av += ab[i * n + k] * vij(k, j);
        if (std::abs(av - wj * vij(i, j)) > tol * scale) {
          return str("matrix ", b, ": |x v - w v| at [", i, ", ", j, "] is ",
                     std::abs(av - wj * vij(i, j)));
        }
        norm2 += std::norm(vij(i, j));
      }
      if (std::abs(norm2 - 1) > tol * n) return str("matrix ", b, ": |v_", j, "|^2 = ", norm2);
    }
  }
  return "";
}
}  // namespace

void add_complex_op_infos(OpDb& db) {
  OpInfo eig = info("eig", {sample({{3, 3}}), sample({{1, 1}}), sample({{0, 0}}),
                            sample({{2, 5, 5}}), sample({{20, 20}})});
  eig.property = eig_property;
  db.add(eig);
  for (const char* name : {"real", "imag", "conj", "angle", "as_real"}) {
    db.add(info(name, unary_samples()));
  }
  db.add(info("complex", {sample({{3, 4}, {3, 4}}), sample({{2, 3, 4}, {4}}), sample({{}, {}}),
                          sample({{0, 3}, {3}}), sample({{200, 256}, {256}})}));
  db.add(
      info("as_complex", {sample({{3, 2}}), sample({{2}}), sample({{0, 2}}), sample({{2, 5, 2}})}));
  // kissfft's float32 rounding grows with the transform length (up to 63 here)
  OpInfo c2c = info("fft_c2c", fft_samples({}));
  c2c.tolerance_scale = 20;
  db.add(c2c);
  OpInfo r2c = info("fft_r2c", fft_samples({{"onesided", true}}));
  r2c.tolerance_scale = 20;
  for (auto& s : fft_samples({{"onesided", false}})) r2c.samples.push_back(s);
  db.add(r2c);
  OpInfo c2r = info("fft_c2r", {});
  c2r.tolerance_scale = 20;
  for (int64_t last : {0, 9}) {
    for (auto s : fft_samples({{"last_dim_size", last}})) {
      // An input of length 1 on the last axis needs an explicit output length.
      const auto& axes = std::get<Axes>(s.attrs.at("axes"));
      if (last == 0 && s.shapes[0][0][static_cast<int>(axes.back())] == 1) continue;
      c2r.samples.push_back(s);
    }
  }
  db.add(c2r);
}

}  // namespace skiff::testing
