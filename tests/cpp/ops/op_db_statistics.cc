// OpDb entries of the statistics ops: lanes along the first, middle and last axis, rank 0,
// zero-size, and shapes large enough to split across threads. mode and searchsorted draw small
// integers so that values repeat (runs for mode, ties for left/right search); searchsorted's
// rows are sorted; poisson's rates cover the inversion (< 10) and the rejection (>= 10) ranges.
#include <algorithm>
#include <cmath>

#include "op_db.h"

namespace skiff::testing {

namespace {

using Attrs = std::map<std::string, ops::AttrValue>;

OpInfo info(std::string name, std::vector<OpSample> samples, Domain domain = Domain::kAny) {
  OpInfo i;
  i.name = std::move(name);
  i.samples = std::move(samples);
  i.domain = domain;
  return i;
}

std::vector<OpSample> cum_extreme_samples() {
  auto s = [](Dims x, int64_t axis, DType dtype = DType::kInt64) {
    return sample({x}, {{"axis", axis}, {"dtype", dtype}});
  };
  return {s({3, 5}, -1), s({3, 5}, 0, DType::kInt32), s({2, 3, 4}, 1), s({}, 0), s({0, 3}, 1),
          s({7}, 0),     s({200, 300}, 0),            s({300, 200}, 1)};
}

std::vector<OpSample> logcumsumexp_samples() {
  auto s = [](Dims x, int64_t axis, bool exclusive = false, bool reverse = false) {
    return sample({x}, {{"axis", axis}, {"exclusive", exclusive}, {"reverse", reverse}});
  };
  return {s({3, 5}, -1),
          s({3, 5}, 0, true),
          s({2, 3, 4}, 1, false, true),
          s({2, 3, 4}, 2, true, true),
          s({}, 0),
          s({0, 3}, 1),
          s({64, 300}, 0),
          sample({{2, 3, 4}}, {{"flatten", true}}),
          sample({{2, 3, 4}}, {{"flatten", true}, {"reverse", true}})};
}

std::vector<OpSample> mode_samples() {
  auto s = [](Dims x, int64_t axis, bool keepdim = false) {
    return sample({x}, {{"axis", axis}, {"keepdim", keepdim}});
  };
  return {s({4, 9}, -1),         s({9, 4}, 0, true), s({2, 7, 3}, 1), s({}, 0),
          s({0, 5}, 1),          s({6}, 0, true),    s({3000, 12}, 1), s({12, 40, 30}, 1, true)};
}

std::vector<OpSample> searchsorted_samples() {
  auto s = [](Dims seq, Dims values, bool out_int32 = false, bool right = false) {
    return sample({seq, values}, {{"out_int32", out_int32}, {"right", right}});
  };
  return {s({9}, {4, 5}),          s({9}, {4, 5}, false, true), s({3, 8}, {3, 6}, true),
          s({2, 3, 7}, {2, 3, 4}, false, true), s({6}, {}),     s({5}, {0}),
          s({0}, {3}),             s({4, 0}, {4, 2}),           s({50, 400}, {50, 300}, false, true)};
}

// Small integers (repeats) sorted along the last dim (non-negative for uint8).
InputMaker sorted_rows() {
  return [](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    DenseTensor t = random_tensor(dims, DType::kFloat64, Domain::kSmallInt, rng);
    double* p = t.data<double>();
    if (dtype == DType::kUInt8) {  // sorted as stored: no negative values
      for (int64_t i = 0; i < t.numel(); ++i) p[i] = std::abs(p[i]);
    }
    const int64_t m = dims.size() ? dims[dims.size() - 1] : 1;
    for (int64_t i = 0; m > 0 && i < t.numel(); i += m) std::sort(p + i, p + i + m);
    return make_tensor(dims, dtype, std::vector<double>(p, p + t.numel()));
  };
}

InputMaker rates() {
  return [](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> pick(0.0, 25.0);
    std::vector<double> v(dims.numel());
    for (auto& x : v) x = rng() % 9 == 0 ? 0.0 : pick(rng);
    return make_tensor(dims, dtype, v);
  };
}

}  // namespace

void add_statistics_op_infos(OpDb& db) {
  db.add(info("cummax", cum_extreme_samples()));
  db.add(info("cummin", cum_extreme_samples()));
  db.add(info("logcumsumexp", logcumsumexp_samples()));
  OpInfo mode = info("mode", mode_samples(), Domain::kSmallInt);
  mode.check_grad = mode.check_gradgrad = false;  // repeated values: gradients in Python tests
  db.add(mode);
  OpInfo search = info("searchsorted", searchsorted_samples(), Domain::kSmallInt);
  search.input_makers[0] = sorted_rows();
  db.add(search);
  OpInfo poisson = info("poisson", {sample({{3, 5}}), sample({{}}), sample({{0, 4}}),
                                    sample({{300, 200}})});
  poisson.input_makers[0] = rates();
  poisson.check_grad = poisson.check_gradgrad = false;  // a random op: its gradient is zero
  db.add(poisson);
}

}  // namespace skiff::testing
