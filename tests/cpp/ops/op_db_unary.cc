// OpDb entries of the unary math ops. Float inputs get special values (NaN, +-inf, -0, halves,
// large magnitudes) mixed into the random ones, so every dtype checks the special-value
// semantics against the reference too.
#include <cmath>
#include <limits>

#include "op_db.h"

namespace skiff::testing {

/// Random values of the domain with every eighth element replaced by a special value (float
/// dtypes with at least 8 elements; others are plain random values). Shared with activations.
InputMaker with_special_values(Domain domain) {
  return [domain](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    DenseTensor t = random_tensor(dims, dtype, domain, rng);
    if (!is_floating(dtype) || t.numel() < 8) return t;
    constexpr double kInf = std::numeric_limits<double>::infinity();
    static const double kSpecials[] = {std::nan(""), kInf, -kInf, 0.0,  -0.0, 0.5, -0.5,
                                       2.5,          -1.5, 1e4,   -1e4, 100,  -100};
    std::vector<double> v = to_doubles(t);
    for (size_t i = 3, k = 0; i < v.size(); i += 8, ++k) {
      v[i] = kSpecials[k % (sizeof(kSpecials) / sizeof(kSpecials[0]))];
    }
    return make_tensor(dims, dtype, v);
  };
}

namespace {

// Plain, rank 0, zero-size, 3-d, and one large enough for the multi-threaded path.
std::vector<OpSample> unary_samples(std::map<std::string, ops::AttrValue> attrs = {}) {
  return {sample({{3, 4}}, attrs), sample({{}}, attrs), sample({{0, 3}}, attrs),
          sample({{2, 3, 5}}, attrs), sample({{200, 256}}, attrs)};
}

OpInfo unary_info(const std::string& name, Domain domain = Domain::kAny) {
  OpInfo info;
  info.name = name;
  info.samples = unary_samples();
  info.domain = domain;
  info.input_makers[0] = with_special_values(domain);
  return info;
}

}  // namespace

void add_unary_op_infos(OpDb& db) {
  for (const char* name : {"abs", "neg",   "sign", "square", "exp",   "expm1", "log1p",
                           "sin", "cos",   "tan",  "tanh",   "atan",  "sinh",  "cosh",
                           "erf", "floor", "ceil", "trunc",  "isnan", "isinf", "isfinite"}) {
    db.add(unary_info(name));
  }
  for (const char* name : {"log", "log2", "sqrt", "rsqrt"}) {
    db.add(unary_info(name, Domain::kPositive));
  }
  db.add(unary_info("asin", Domain::kUnit));
  db.add(unary_info("acos", Domain::kUnit));
  db.add(unary_info("reciprocal", Domain::kNonZero));
  OpInfo round = unary_info("round");
  for (int64_t decimals : {2, -1}) {
    round.samples.push_back(sample({{3, 40}}, {{"decimals", decimals}}));
    round.samples.push_back(sample({{}}, {{"decimals", decimals}}));
  }
  db.add(std::move(round));
}

}  // namespace skiff::testing
