// OpDb entries of skiff/ops/yaml/math_functions.yaml: frac, logit, heaviside, gcd, lcm and
// as_strided. logit draws from (0, 1) (its eps = 0.1 samples clamp the ends); heaviside draws small
// integers so that x == 0 occurs, and skips finite differences (the step at 0 has none).
#include "op_db.h"

namespace skiff::testing {

namespace {

using L = std::vector<int64_t>;

ops::AttrValue I(int64_t v) { return v; }

InputMaker uniform(double lo, double hi) {
  return [lo, hi](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> dist(lo, hi);
    std::vector<double> v(dims.numel());
    for (auto& x : v) x = dist(rng);
    return make_tensor(dims, dtype, v);
  };
}

OpInfo info(std::string name, std::vector<OpSample> samples, Domain domain = Domain::kAny) {
  OpInfo i;
  i.name = std::move(name);
  i.samples = std::move(samples);
  i.domain = domain;
  return i;
}

std::vector<OpSample> unary_samples(std::map<std::string, ops::AttrValue> attrs = {}) {
  return {sample({{3, 4}}, attrs), sample({{}}, attrs), sample({{0, 3}}, attrs),
          sample({{2, 3, 5}}, attrs), sample({{300, 200}}, attrs)};
}

std::vector<OpSample> binary_samples() {
  return {sample({{3, 4}, {3, 4}}),
          sample({{2, 3, 4}, {4}}),
          sample({{4, 1}, {1, 5}}),
          sample({{5}, {}}),
          sample({{}, {}}),
          sample({{0, 3}, {3}}),
          sample({{300, 200}, {300, 200}})};
}

}  // namespace

void add_math_functions_op_infos(OpDb& db) {
  db.add(info("frac", unary_samples()));
  OpInfo logit = info("logit", unary_samples());
  for (double eps : {0.0, 0.1}) {
    for (const auto& s : unary_samples({{"eps", eps}})) logit.samples.push_back(s);
  }
  logit.input_makers[0] = uniform(0.02, 0.98);  // eps 0.1 clamps the ends
  db.add(std::move(logit));
  OpInfo heaviside = info("heaviside", binary_samples(), Domain::kSmallInt);
  heaviside.check_grad = false;
  heaviside.check_gradgrad = false;
  db.add(std::move(heaviside));
  db.add(info("gcd", binary_samples(), Domain::kSmallInt));
  db.add(info("lcm", binary_samples(), Domain::kSmallInt));
  // Small integers: negative shifts (defined as 0 / the sign fill) occur too. The reference runs
  // on int64, where a logical right shift of a negative narrow value differs, so the logical
  // shift is checked per dtype against numpy in tests/python/test_bit_shifts.py.
  db.add(info("bitwise_left_shift", binary_samples(), Domain::kSmallInt));
  db.add(info("bitwise_right_shift", binary_samples(), Domain::kSmallInt));
  db.add(info("as_strided",
              {sample({{3, 4}}, {{"dims", L{2, 2}}, {"stride", L{1, 2}}, {"offset", I(1)}}),
               sample({{6}}, {{"dims", L{4, 3}}, {"stride", L{1, 1}}}),  // overlapping windows
               sample({{2, 3}}, {{"dims", L{}}, {"stride", L{}}, {"offset", I(5)}}),
               sample({{2, 3}}, {{"dims", L{0, 3}}, {"stride", L{1, 1}}}),
               sample({{4, 5}}, {{"dims", L{5, 4}}, {"stride", L{1, 5}}}),  // a transpose
               sample({{2, 3, 4}}, {{"dims", L{2, 2, 3}}, {"stride", L{12, 0, 4}}})}));
}

}  // namespace skiff::testing
