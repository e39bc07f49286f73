// LR schedulers: values per epoch against Paddle's formulas, and their state dicts.
#include "skiff/optimizer/lr.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "skiff/base/error.h"

namespace skiff::optimizer::lr {
namespace {

std::vector<double> first(LRScheduler& s, int n) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(s.get_lr());
    s.step();
  }
  return out;
}

void expect_values(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << "epoch " << i;
}

TEST(LRSchedulerTest, StepDecay) {
  StepDecay s(1.0, 2, 0.5);
  expect_values(first(s, 5), {1, 1, 0.5, 0.5, 0.25});
}

TEST(LRSchedulerTest, MultiStepDecay) {
  MultiStepDecay s(1.0, {1, 3}, 0.1);
  expect_values(first(s, 5), {1, 0.1, 0.1, 0.01, 0.01});
}

TEST(LRSchedulerTest, ExponentialAndLambda) {
  ExponentialDecay e(2.0, 0.5);
  expect_values(first(e, 3), {2, 1, 0.5});
  LambdaDecay l(0.5, [](int64_t epoch) { return 1.0 / (epoch + 1); });
  expect_values(first(l, 3), {0.5, 0.25, 0.5 / 3});
}

TEST(LRSchedulerTest, CosineAnnealing) {
  CosineAnnealingDecay s(1.0, 4, 0.2);
  std::vector<double> want;
  for (int e = 0; e < 6; ++e) {
    want.push_back(0.2 + 0.8 * (1 + std::cos(std::numbers::pi * e / 4)) / 2);
  }
  expect_values(first(s, 6), want);
}

TEST(LRSchedulerTest, LinearWarmupThenConstantOrScheduler) {
  LinearWarmup c(0.5, 4, 0.0, 1.0);
  expect_values(first(c, 6), {0, 0.25, 0.5, 0.75, 0.5, 0.5});
  LinearWarmup s(std::make_shared<StepDecay>(1.0, 1, 0.5), 2, 0.0, 1.0);
  expect_values(first(s, 5), {0, 0.5, 1, 0.5, 0.25});
}

TEST(LRSchedulerTest, StateDictRestoresTheEpoch) {
  StepDecay a(1.0, 2, 0.5);
  for (int i = 0; i < 3; ++i) a.step();
  StepDecay b(1.0, 2, 0.5);
  b.set_state_dict(a.state_dict());
  EXPECT_EQ(b.last_epoch(), 3);
  EXPECT_DOUBLE_EQ(b.get_lr(), 0.5);
}

TEST(LRSchedulerTest, BadArgumentsAreRejected) {
  EXPECT_THROW(StepDecay(1.0, 0), Error);
  EXPECT_THROW(MultiStepDecay(1.0, {3, 2}), Error);
  EXPECT_THROW(CosineAnnealingDecay(1.0, 0), Error);
  EXPECT_THROW(LinearWarmup(1.0, 0, 0, 1), Error);
  EXPECT_THROW(LambdaDecay(1.0, nullptr), Error);
}

}  // namespace
}  // namespace skiff::optimizer::lr
