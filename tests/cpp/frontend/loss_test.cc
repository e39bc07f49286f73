// Losses against hand-computed values (float64 on the host) and their gradients' existence.
#include "skiff/nn/loss.h"

#include <gtest/gtest.h>

#include <cmath>

#include "skiff/nn/functional.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/tensor_util.h"

namespace skiff::nn {
namespace {

namespace F = functional;

const std::vector<double> kLogits = {1.0, 2.0, 0.5, -1.0, 0.0, 3.0};  // [2, 3]

double log_softmax_at(int row, int c) {
  double m = -1e9, s = 0;
  for (int j = 0; j < 3; ++j) m = std::max(m, kLogits[row * 3 + j]);
  for (int j = 0; j < 3; ++j) s += std::exp(kLogits[row * 3 + j] - m);
  return kLogits[row * 3 + c] - m - std::log(s);
}

Tensor logits() { return to_tensor(kLogits, {2, 3}); }
Tensor labels(std::vector<int64_t> v) { return to_tensor(v, {static_cast<int64_t>(v.size())}); }
double value(const Tensor& t) { return t.item<double>(); }

TEST(LossTest, CrossEntropyHardLabelsAndReductions) {
  const double l0 = -log_softmax_at(0, 1), l1 = -log_softmax_at(1, 2);
  EXPECT_NEAR(value(F::cross_entropy(logits(), labels({1, 2}))), (l0 + l1) / 2, 1e-12);
  EXPECT_NEAR(value(F::cross_entropy(logits(), labels({1, 2}), {}, -100, "sum")), l0 + l1, 1e-12);
  const Tensor none = F::cross_entropy(logits(), labels({1, 2}), {}, -100, "none");
  EXPECT_EQ(none.shape(), (std::vector<int64_t>{2}));
  EXPECT_NEAR(to_vector<double>(none)[1], l1, 1e-12);
  // A label with the class axis of size 1 is accepted too.
  EXPECT_NEAR(value(F::cross_entropy(logits(), to_tensor(std::vector<int64_t>{1, 2}, {2, 1}))),
              (l0 + l1) / 2, 1e-12);
}

TEST(LossTest, CrossEntropyIgnoreIndexLeavesSamplesOutOfTheMean) {
  EXPECT_NEAR(value(F::cross_entropy(logits(), labels({1, -100}))), -log_softmax_at(0, 1), 1e-12);
  EXPECT_NEAR(value(F::cross_entropy(logits(), labels({7, 2}), {}, 7)), -log_softmax_at(1, 2),
              1e-12);
}

TEST(LossTest, CrossEntropyWeightsAndSoftLabelsAndSmoothing) {
  const Tensor w = to_tensor(std::vector<double>{1.0, 2.0, 0.5}, {3});
  const double l0 = -log_softmax_at(0, 1) * 2.0, l1 = -log_softmax_at(1, 2) * 0.5;
  EXPECT_NEAR(value(F::cross_entropy(logits(), labels({1, 2}), w)), (l0 + l1) / 2.5, 1e-12);
  const std::vector<double> soft = {0.2, 0.8, 0.0, 0.5, 0.25, 0.25};
  double s = 0;
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 3; ++c) s -= soft[r * 3 + c] * log_softmax_at(r, c);
  }
  EXPECT_NEAR(value(F::cross_entropy(logits(), to_tensor(soft, {2, 3}), {}, -100, "mean", true)),
              s / 2, 1e-12);
  // Smoothing 0.3 over 3 classes: targets 0.1 / 0.8.
  double sm = 0;
  const int hard[2] = {1, 2};
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 3; ++c) sm -= (c == hard[r] ? 0.8 : 0.1) * log_softmax_at(r, c);
  }
  EXPECT_NEAR(value(F::cross_entropy(logits(), labels({1, 2}), {}, -100, "mean", false, -1, 0.3)),
              sm / 2, 1e-12);
}

TEST(LossTest, CrossEntropyOnAxisOne) {
  // [N=1, C=3, L=2]: classes along axis 1.
  const Tensor x = transpose(reshape(logits(), {1, 2, 3}), {0, 2, 1});
  const Tensor y = to_tensor(std::vector<int64_t>{1, 2}, {1, 2});
  EXPECT_NEAR(value(F::cross_entropy(x, y, {}, -100, "mean", false, 1)),
              (-log_softmax_at(0, 1) - log_softmax_at(1, 2)) / 2, 1e-12);
}

TEST(LossTest, CrossEntropyErrors) {
  auto msg = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(msg([] {
              F::cross_entropy(logits(), labels({1, 2}), {}, -100, "avg");
            }),
            "(InvalidArgument) cross_entropy: argument 'reduction' expected one of 'mean', 'sum', "
            "'none', got 'avg'");
  EXPECT_EQ(msg([] {
              F::cross_entropy(logits(), to_tensor(std::vector<int64_t>{1}, {1, 1, 1}));
            }),
            "(InvalidArgument) cross_entropy: argument 'label' expected class ids of input's dims "
            "without axis 1 "
            "(or with it of size 1), got [1, 1, 1]");
  EXPECT_EQ(msg([] {
              F::cross_entropy(logits(), labels({1, 2}), {}, -100, "mean", false, 2);
            }),
            "(OutOfRange) cross_entropy: argument 'axis' expected in [-2, 2), got 2");
}

TEST(LossTest, NllLossPicksLogProbabilities) {
  const Tensor lp = log_softmax(logits(), 1);
  EXPECT_NEAR(value(F::nll_loss(lp, labels({1, 2}))),
              (-log_softmax_at(0, 1) - log_softmax_at(1, 2)) / 2, 1e-12);
  EXPECT_NEAR(value(F::nll_loss(lp, labels({1, -100}))), -log_softmax_at(0, 1), 1e-12);
  const Tensor w = to_tensor(std::vector<double>{1.0, 2.0, 0.5}, {3});
  EXPECT_NEAR(value(F::nll_loss(lp, labels({1, 2}), w, -100, "sum")),
              -2.0 * log_softmax_at(0, 1) - 0.5 * log_softmax_at(1, 2), 1e-12);
}

TEST(LossTest, RegressionLosses) {
  const Tensor a = to_tensor(std::vector<double>{1, 2, 3}, {3});
  const Tensor b = to_tensor(std::vector<double>{1, 0, 5}, {3});
  EXPECT_NEAR(value(MSELoss()(a, b)), 8.0 / 3, 1e-12);
  EXPECT_NEAR(value(L1Loss("sum")(a, b)), 4.0, 1e-12);
}

TEST(LossTest, BceWithLogitsIsStableAndWeighted) {
  const std::vector<double> x = {-50.0, -1.0, 0.0, 2.0, 60.0}, y = {0, 1, 1, 0, 1};
  const Tensor pw = to_tensor(std::vector<double>{3.0}, {1});
  const auto got = to_vector<double>(
      F::binary_cross_entropy_with_logits(to_tensor(x, {5}), to_tensor(y, {5}), {}, "none", pw));
  for (size_t i = 0; i < x.size(); ++i) {
    const double log_sig = -std::log1p(std::exp(-x[i]));  // log sigmoid(x)
    const double log_one_minus = -x[i] - std::log1p(std::exp(-x[i]));
    const double want = -(3.0 * y[i] * log_sig + (1 - y[i]) * log_one_minus);
    EXPECT_NEAR(got[i], want, 1e-9) << i;
  }
}

TEST(LossTest, LossesAreDifferentiable) {
  Tensor x = logits();
  autograd::set_stop_gradient(x, false);
  autograd::backward({CrossEntropyLoss()(x, labels({1, 2}))});
  const auto g = to_vector<double>(grad_of(x));
  double row = 0;
  for (int c = 0; c < 3; ++c) row += g[c];
  EXPECT_NEAR(row, 0.0, 1e-12);  // softmax - onehot sums to zero
  EXPECT_NEAR(g[1], (std::exp(log_softmax_at(0, 1)) - 1) / 2, 1e-12);
}

}  // namespace
}  // namespace skiff::nn
