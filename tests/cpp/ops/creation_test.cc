// Tests of the creation ops beyond the consistency test: bad inputs, Paddle's default dtypes,
// range edge cases, and the random ops' reproducibility (seeds, generator offsets, any thread
// count) and distributions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "error_expectations.h"
#include "op_test_util.h"
#include "skiff/core/generator.h"
#include "skiff/core/parallel.h"
#include "skiff/ops/generated/dense/all.h"

namespace skiff::testing {
namespace {

namespace dense = ops::dense;

TEST(CreationTest, BadInputs) {
  expect_error(
      [] {
        dense::full({2, -1}, Scalar(1.0));
      },
      ErrorCode::kInvalidArgument, {"full", "'shape'", "got [2, -1]"});
  expect_error([] { dense::zeros({-3}); }, ErrorCode::kInvalidArgument, {"zeros", "'shape'"});
  expect_error([] { dense::arange(Scalar(0), Scalar(5), Scalar(0)); }, ErrorCode::kInvalidArgument,
               {"arange", "'step'", "non-zero", "got 0"});
  expect_error([] { dense::arange(Scalar(0), Scalar(5), Scalar(1), DType::kBool); },
               ErrorCode::kTypeError, {"arange", "'dtype'", "got bool"});
  expect_error([] { dense::linspace(Scalar(0), Scalar(1), -2); }, ErrorCode::kInvalidArgument,
               {"linspace", "'num'", "got -2"});
  expect_error([] { dense::eye(-1); }, ErrorCode::kInvalidArgument, {"eye", "'num_rows'"});
  expect_error([] { dense::uniform({2}, DType::kInt32); }, ErrorCode::kTypeError,
               {"uniform", "'dtype'", "floating-point", "got int32"});
  expect_error([] { dense::uniform({2}, DType::kFloat32, 2.0, 1.0); }, ErrorCode::kInvalidArgument,
               {"uniform", "'max'", "got 1"});
  expect_error([] { dense::gaussian({2}, 0.0, -1.0); }, ErrorCode::kInvalidArgument,
               {"gaussian", "'std'", "got -1"});
  expect_error([] { dense::randint(5, 5, {2}); }, ErrorCode::kInvalidArgument,
               {"randint", "'high'", "> low (5)", "got 5"});
  expect_error([] { dense::randint(0, 5, {2}, DType::kFloat32); }, ErrorCode::kTypeError,
               {"randint", "'dtype'"});
  expect_error([] { dense::randperm(-1); }, ErrorCode::kInvalidArgument, {"randperm", "'n'"});
}

TEST(CreationTest, DefaultDtypesAndValues) {
  EXPECT_EQ(dense::full({2}, Scalar(3)).dtype(), DType::kFloat32);
  EXPECT_EQ(dense::arange(Scalar(0), Scalar(4)).dtype(), DType::kInt64);
  EXPECT_EQ(dense::arange(Scalar(0), Scalar(1.0), Scalar(0.25)).dtype(), DType::kFloat32);
  EXPECT_EQ(to_doubles(dense::arange(Scalar(0), Scalar(1.0), Scalar(0.25))),
            (std::vector<double>{0, 0.25, 0.5, 0.75}));
  EXPECT_EQ(dense::arange(Scalar(5), Scalar(0)).numel(), 0);  // numpy: empty, not an error
  EXPECT_EQ(to_doubles(dense::arange(Scalar(5), Scalar(0), Scalar(-2))),
            (std::vector<double>{5, 3, 1}));
  const DenseTensor x = make_tensor({2}, DType::kInt16, {1, 2});
  EXPECT_EQ(dense::full_like(x, Scalar(2.7)).dtype(), DType::kInt16);
  EXPECT_EQ(to_doubles(dense::full_like(x, Scalar(2.7))), (std::vector<double>{2, 2}));
  EXPECT_EQ(dense::zeros_like(x, DType::kFloat64).dtype(), DType::kFloat64);
  EXPECT_EQ(to_doubles(dense::ones_like(x)), (std::vector<double>{1, 1}));
  const auto lin = to_doubles(dense::linspace(Scalar(0.1), Scalar(0.7), 13));
  EXPECT_EQ(lin.front(), static_cast<double>(0.1f));
  EXPECT_EQ(lin.back(), static_cast<double>(0.7f));  // endpoints exact
  EXPECT_EQ(to_doubles(dense::eye(2)), (std::vector<double>{1, 0, 0, 1}));
  EXPECT_EQ(dense::eye(2, 3).dims(), Dims({2, 3}));
}

using RandomFn = std::function<DenseTensor()>;

std::vector<std::pair<std::string, RandomFn>> random_ops() {
  return {{"uniform32",
           [] {
             return dense::uniform({333, 301});
           }},
          {"uniform64",
           [] {
             return dense::uniform({333, 301}, DType::kFloat64);
           }},
          {"gaussian32",
           [] {
             return dense::gaussian({333, 301});
           }},
          {"gaussian64",
           [] {
             return dense::gaussian({333, 301}, 0, 1, 0, DType::kFloat64);
           }},
          {"randint",
           [] {
             return dense::randint(-3, 1000, {333, 301});
           }},
          {"randint64", [] {
             return dense::randint(0, int64_t{1} << 40, {333, 301});
           }}};
}

TEST(RandomTest, SameValuesForAnyThreadCount) {
  const int saved = num_threads();
  for (const auto& [name, fn] : random_ops()) {
    std::vector<std::vector<double>> runs;
    for (int threads : {1, 2, 3}) {
      set_num_threads(threads);
      default_generator(Place::cpu()).set_state({2024, 17});
      runs.push_back(to_doubles(fn()));
    }
    EXPECT_EQ(runs[0], runs[1]) << name;
    EXPECT_EQ(runs[0], runs[2]) << name;
  }
  set_num_threads(saved);
}

TEST(RandomTest, SeedsAndGeneratorOffsets) {
  Generator& g = default_generator(Place::cpu());
  g.manual_seed(5);
  const auto a = to_doubles(dense::uniform({10}));
  EXPECT_EQ(g.offset(), 3u);  // ceil(10 / 4) counters
  const auto b = to_doubles(dense::uniform({10}));
  EXPECT_NE(a, b);
  g.manual_seed(5);
  EXPECT_EQ(to_doubles(dense::uniform({10})), a);
  const auto s1 = to_doubles(dense::gaussian({10}, 0, 1, 77));
  EXPECT_EQ(to_doubles(dense::gaussian({10}, 0, 1, 77)), s1);
  EXPECT_EQ(g.offset(), 3u);  // a fixed seed leaves the default generator alone
  dense::uniform({10}, DType::kFloat64);
  EXPECT_EQ(g.offset(), 8u);  // 64-bit draws: ceil(10 / 2) counters
}

TEST(RandomTest, Distributions) {
  default_generator(Place::cpu()).manual_seed(1);
  const auto u = to_doubles(dense::uniform({200000}, DType::kFloat32, 2.0, 4.0));
  const double umean = std::accumulate(u.begin(), u.end(), 0.0) / u.size();
  EXPECT_NEAR(umean, 3.0, 0.01);
  EXPECT_GE(*std::min_element(u.begin(), u.end()), 2.0);
  EXPECT_LT(*std::max_element(u.begin(), u.end()), 4.0);
  for (DType d : {DType::kFloat32, DType::kFloat64}) {
    const auto z = to_doubles(dense::gaussian({200000}, 1.0, 2.0, 0, d));
    double m = 0, v = 0;
    for (double x : z) m += x;
    m /= z.size();
    for (double x : z) v += (x - m) * (x - m);
    EXPECT_NEAR(m, 1.0, 0.02) << d;
    EXPECT_NEAR(std::sqrt(v / z.size()), 2.0, 0.02) << d;
  }
  const auto r = to_doubles(dense::randint(-2, 3, {10000}, DType::kInt32));
  std::vector<int> counts(5);
  for (double x : r) {
    ASSERT_TRUE(x >= -2 && x < 3);
    ++counts[static_cast<int>(x) + 2];
  }
  for (int c : counts) EXPECT_NEAR(c, 2000, 200);
  auto p = to_doubles(dense::randperm(1000));
  std::sort(p.begin(), p.end());
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(p[i], i);
}

}  // namespace
}  // namespace skiff::testing
