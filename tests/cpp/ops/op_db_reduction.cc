// OpDb entries of the reduction ops. The shapes are chosen to reach every loop of the CPU
// reduction engine: inner runs ([K, R]), outer rows ([R, K]), middle axes ([K, R, K] and
// [R, K, R]), nothing left to reduce after size-1 dims drop out, rank 0, zero-size, and inputs
// large enough (>= 40k elements) for the multi-threaded and split-reduction paths.
#include "op_db.h"

namespace skiff::testing {

namespace {

using Axes = std::vector<int64_t>;

OpSample red(Dims x, Axes axis, bool keepdim = false,
             std::map<std::string, ops::AttrValue> extra = {}) {
  extra["axis"] = axis;
  extra["keepdim"] = keepdim;
  return sample({x}, extra);
}

/// Reductions that accept an empty reduced set (sum, mean, prod, all, any, ...).
std::vector<OpSample> axis_samples(bool large = true) {
  std::vector<OpSample> s = {red({3, 4}, {}),
                             red({3, 4}, {1}),
                             red({3, 4}, {0}, true),
                             red({2, 3, 4}, {0, 2}),
                             red({2, 3, 4}, {-1, 1}, true),
                             red({3, 1, 4}, {1}),
                             red({}, {}),
                             red({}, {0}, true),
                             red({0, 3}, {1}),
                             red({0, 3}, {0}),
                             red({5, 0}, {}, true)};
  if (large) {
    s.push_back(red({300, 200}, {}));           // full: split across threads
    s.push_back(red({300, 200}, {0}));          // columns: few tiles, rows split
    s.push_back(red({256, 300}, {1}));          // rows: parallel over outputs
    s.push_back(red({4, 50, 300}, {1}, true));  // middle axis: [K, R, K]
    s.push_back(red({40, 3, 500}, {0, 2}));     // [R, K, R]: runs of a few outputs split
    s.push_back(red({3000, 20}, {0}));          // narrow columns, many rows
    s.push_back(red({20000, 3}, {1}));          // many short rows
  }
  return s;
}

/// Reductions without identity (max, min, ...): no empty reduced set.
std::vector<OpSample> nonempty_samples() {
  std::vector<OpSample> s;
  for (auto& x : axis_samples()) {
    const auto& d = x.shapes[0][0];
    const bool empty_reduce = d.numel() == 0 && !(d.size() == 2 && d[0] == 0 &&
                                                  std::get<Axes>(x.attrs["axis"]) == Axes{1});
    if (!empty_reduce) s.push_back(x);
  }
  return s;
}

std::vector<OpSample> moment_samples() {
  std::vector<OpSample> s;
  for (bool unbiased : {true, false}) {
    s.push_back(red({3, 4}, {1}, false, {{"unbiased", unbiased}}));
    s.push_back(red({2, 3, 4}, {0, 2}, true, {{"unbiased", unbiased}}));
  }
  s.push_back(red({3, 4}, {}, false, {{"unbiased", false}}));
  s.push_back(red({}, {}, false, {{"unbiased", false}}));
  s.push_back(red({0, 3}, {1}));
  s.push_back(red({300, 200}, {0}));
  s.push_back(red({300, 200}, {}));
  return s;
}

std::vector<OpSample> arg_samples() {
  auto arg = [](Dims x, int64_t axis, bool keepdim = false, bool flatten = false,
                DType dtype = DType::kInt64) {
    return sample(
        {x},
        {{"axis", Scalar(axis)}, {"keepdim", keepdim}, {"flatten", flatten}, {"dtype", dtype}});
  };
  return {arg({3, 4}, 1),
          arg({3, 4}, 0, true),
          arg({2, 3, 4}, -2),
          arg({2, 3, 4}, 0, false, true),
          arg({2, 3, 4}, 0, true, true),
          arg({}, 0),
          arg({5}, 0, false, false, DType::kInt32),
          arg({300, 200}, 0),
          arg({300, 200}, 1),
          arg({40, 30, 50}, 1, true)};
}

std::vector<OpSample> scan_samples(const char* axis_name, bool with_flatten) {
  auto scan = [&](Dims x, int64_t axis, bool exclusive = false, bool reverse = false) {
    std::map<std::string, ops::AttrValue> a = {
        {axis_name, with_flatten ? ops::AttrValue(Scalar(axis)) : ops::AttrValue(axis)},
        {"exclusive", exclusive},
        {"reverse", reverse}};
    return sample({x}, a);
  };
  std::vector<OpSample> s = {scan({3, 4}, -1),
                             scan({3, 4}, 0, true),
                             scan({2, 3, 4}, 1, false, true),
                             scan({2, 3, 4}, 2, true, true),
                             scan({}, 0),
                             scan({0, 3}, 1),
                             scan({12, 4000}, 0),
                             scan({4000, 12}, 1, false, true)};
  if (with_flatten) {
    s.push_back(sample({{2, 3, 4}}, {{"flatten", true}}));
    s.push_back(sample({{2, 3, 4}}, {{"flatten", true}, {"reverse", true}, {"exclusive", true}}));
  }
  return s;
}

std::vector<OpSample> p_norm_samples() {
  auto pn = [](Dims x, double p, int64_t axis, bool keepdim = false, bool asvector = false) {
    return sample({x},
                  {{"porder", p}, {"axis", axis}, {"keepdim", keepdim}, {"asvector", asvector}});
  };
  const double inf = std::numeric_limits<double>::infinity();
  return {pn({3, 4}, 2.0, -1),
          pn({3, 4}, 1.0, 0, true),
          pn({3, 4}, inf, 1),
          pn({3, 4}, -inf, 0),
          pn({3, 4}, 0.0, 1),
          pn({2, 3, 4}, 3.0, 1),
          pn({2, 3, 4}, 2.0, 0, true, true),
          pn({}, 2.0, -1),
          pn({0, 3}, 2.0, 1),
          pn({300, 200}, 2.0, 1),
          pn({300, 200}, 1.5, 0, false, true)};
}

/// An OpInfo without designated initializers (-Wmissing-field-initializers stays quiet).
OpInfo info(std::string name, std::vector<OpSample> samples, Domain domain = Domain::kAny) {
  OpInfo i;
  i.name = std::move(name);
  i.samples = std::move(samples);
  i.domain = domain;
  return i;
}

}  // namespace

void add_reduction_op_infos(OpDb& db) {
  auto sums = axis_samples();
  sums.push_back(red({3, 4}, {1}, false, {{"dtype", DType::kFloat64}}));
  sums.push_back(red({3, 4}, {}, true, {{"dtype", DType::kInt64}}));
  db.add(info("sum", sums, Domain::kSmallInt));
  db.add(info("mean", axis_samples()));
  db.add(info("prod",
              {red({3, 4}, {}), red({3, 4}, {1}, true), red({2, 3, 4}, {0, 2}), red({}, {}),
               red({0, 3}, {0}), red({4096, 12}, {1}), red({12, 4096}, {0}),
               red({3, 4}, {1}, false, {{"dtype", DType::kFloat64}})},
              Domain::kSmallInt));
  for (const char* op : {"max", "min", "amax", "amin"}) {
    db.add(info(op, nonempty_samples(), Domain::kSmallInt));
  }
  for (const char* op : {"all", "any"}) {
    db.add(info(op, axis_samples(), Domain::kSmallInt));
  }
  db.add(info("logsumexp", axis_samples()));
  db.add(info("var", moment_samples()));
  db.add(info("std", moment_samples()));
  db.add(info("p_norm", p_norm_samples()));
  db.add(info("argmax", arg_samples(), Domain::kSmallInt));
  db.add(info("argmin", arg_samples(), Domain::kSmallInt));
  db.add(info("cumsum", scan_samples("axis", true)));
  db.add(info("cumprod", scan_samples("dim", false)));
}

}  // namespace skiff::testing
