// OpDb entries of skiff/ops/yaml/special.yaml. The gamma family and gammaincc draw from
// (0.1, 2) (polygamma from (0.5, 3)), away from the poles, so finite differences are
// meaningful; erfinv from (-0.9, 0.9); the Bessel functions from [-2, 2], which crosses 0 where
// i1's gradient takes its limit. The negative arguments, tails and special values are checked
// against torch in tests/python/test_special_functions.py.
#include "op_db.h"

namespace skiff::testing {

namespace {

std::vector<OpSample> unary_samples(std::map<std::string, ops::AttrValue> attrs = {}) {
  return {sample({{3, 4}}, attrs), sample({{}}, attrs), sample({{0, 3}}, attrs),
          sample({{2, 3, 5}}, attrs), sample({{100, 64}}, attrs)};
}

std::vector<OpSample> binary_samples() {
  return {sample({{3, 4}, {3, 4}}), sample({{2, 3, 4}, {4}}), sample({{4, 1}, {1, 5}}),
          sample({{5}, {}}),        sample({{}, {}}),         sample({{0, 3}, {3}})};
}

OpInfo info(std::string name, std::vector<OpSample> samples, Domain domain) {
  OpInfo i;
  i.name = std::move(name);
  i.samples = std::move(samples);
  i.domain = domain;
  return i;
}

/// Uniform in [lo, hi]: the polygammas of high order are too steep near 0 for finite
/// differences of their second derivative.
InputMaker uniform(double lo, double hi) {
  return [lo, hi](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> dist(lo, hi);
    std::vector<double> v(dims.numel());
    for (auto& x : v) x = dist(rng);
    return make_tensor(dims, dtype, v);
  };
}

}  // namespace

void add_special_op_infos(OpDb& db) {
  db.add(info("lgamma", unary_samples(), Domain::kPositive));
  db.add(info("digamma", unary_samples(), Domain::kPositive));
  OpInfo polygamma = info("polygamma", {}, Domain::kPositive);
  for (int64_t n : {0, 1, 2, 3}) {
    for (const auto& s : unary_samples({{"n", n}})) polygamma.samples.push_back(s);
  }
  polygamma.input_makers[0] = uniform(0.5, 3.0);
  db.add(std::move(polygamma));
  db.add(info("erfinv", unary_samples(), Domain::kUnit));
  for (const char* name : {"i0", "i0e", "i1", "i1e"})
    db.add(info(name, unary_samples(), Domain::kAny));
  db.add(info("gammaincc", binary_samples(), Domain::kPositive));
  db.add(info("nextafter", binary_samples(), Domain::kAny));
}

}  // namespace skiff::testing
