// OpDb entries of the complex-number ops and the FFT ops. Their gradients are checked in Python
// against torch (tests/python/test_complex.py, test_fft.py): the finite-difference check here runs
// on float64 inputs and outputs only.
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
}  // namespace

void add_complex_op_infos(OpDb& db) {
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
