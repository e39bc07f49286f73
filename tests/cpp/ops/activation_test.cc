// Activations beyond the generic consistency test: bad-input messages, Paddle's defaults,
// known values, NaN propagation, and accuracy where the textbook formula cancels.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "op_test_util.h"
#include "skiff/base/error.h"
#include "skiff/ops/generated/dense/all.h"

namespace skiff::testing {
namespace {

namespace dense = ops::dense;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

DenseTensor vec(DType dtype, const std::vector<double>& v) {
  return make_tensor(Dims{static_cast<int64_t>(v.size())}, dtype, v);
}

using Activation = std::function<DenseTensor(const DenseTensor&)>;
const std::vector<std::pair<std::string, Activation>>& activations() {
  static const std::vector<std::pair<std::string, Activation>> kAll = {
      {"relu", [](const auto& x) { return dense::relu(x); }},
      {"relu6", [](const auto& x) { return dense::relu6(x); }},
      {"leaky_relu", [](const auto& x) { return dense::leaky_relu(x); }},
      {"elu", [](const auto& x) { return dense::elu(x); }},
      {"gelu", [](const auto& x) { return dense::gelu(x); }},
      {"silu", [](const auto& x) { return dense::silu(x); }},
      {"sigmoid", [](const auto& x) { return dense::sigmoid(x); }},
      {"softplus", [](const auto& x) { return dense::softplus(x); }},
      {"hardswish", [](const auto& x) { return dense::hardswish(x); }},
      {"hardsigmoid", [](const auto& x) { return dense::hardsigmoid(x); }},
      {"mish", [](const auto& x) { return dense::mish(x); }},
      {"tanhshrink", [](const auto& x) { return dense::tanhshrink(x); }},
  };
  return kAll;
}

TEST(ActivationTest, RejectsNonFloatInputs) {
  for (DType d : {DType::kInt32, DType::kBool}) {
    for (const auto& [name, f] : activations()) {
      try {
        f(vec(d, {1, 0}));
        ADD_FAILURE() << name << " accepted " << d;
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::kTypeError);
        const std::string msg = e.what();
        EXPECT_NE(msg.find(name + ": argument 'x' expected a floating-point tensor"),
                  std::string::npos)
            << msg;
        EXPECT_NE(msg.find(str("got ", d)), std::string::npos) << msg;
      }
    }
  }
}

TEST(ActivationTest, NaNPropagates) {
  for (DType d : {DType::kFloat32, DType::kFloat64, DType::kBFloat16, DType::kFloat16}) {
    for (const auto& [name, f] : activations()) {
      const DenseTensor out = f(vec(d, {kNaN, 1.0}));
      EXPECT_EQ(out.dtype(), d);
      EXPECT_TRUE(std::isnan(to_doubles(out)[0])) << name << " " << d;
    }
  }
}

TEST(ActivationTest, PaddleDefaultsAndKnownValues) {
  const DenseTensor x = vec(DType::kFloat64, {-1.0, 0.0, 1.0, 3.0, 30.0});
  auto at = [](const DenseTensor& t, int i) { return to_doubles(t)[i]; };
  EXPECT_DOUBLE_EQ(at(dense::leaky_relu(x), 0), -0.01f);  // negative_slope = 0.01 (a float)
  EXPECT_DOUBLE_EQ(at(dense::elu(x), 0), std::expm1(-1.0));
  EXPECT_NEAR(at(dense::gelu(x), 2), 0.8413447460685429, 1e-15);        // exact erf form
  EXPECT_NEAR(at(dense::gelu(x, true), 2), 0.8411919906082768, 1e-15);  // tanh form
  EXPECT_NEAR(at(dense::sigmoid(x), 2), 0.7310585786300049, 1e-15);
  EXPECT_NEAR(at(dense::softplus(x), 1), std::log(2.0), 1e-15);
  EXPECT_EQ(at(dense::softplus(x), 4), 30.0);                // above threshold = 20: x itself
  EXPECT_NEAR(at(dense::softplus(x, 2.0, 1.0), 2), 1.0, 0);  // beta x = 2 > threshold 1
  EXPECT_DOUBLE_EQ(at(dense::hardsigmoid(x), 1), 0.5);       // slope 0.1666667, offset 0.5
  EXPECT_DOUBLE_EQ(at(dense::hardsigmoid(x), 3), 1.0);
  EXPECT_DOUBLE_EQ(at(dense::hardswish(x), 2), 4.0 / 6.0);
  EXPECT_DOUBLE_EQ(at(dense::relu6(vec(DType::kFloat64, {7.0})), 0), 6.0);
  EXPECT_NEAR(at(dense::mish(x), 2), 0.8650983882673103, 1e-15);
}

// Where 1 + erf, 1 + tanh or tanh(softplus) cancel, the float32 kernels keep relative accuracy.
TEST(ActivationTest, Float32AccuracyInTheTails) {
  const std::vector<double> x = {-12.0, -9.0, -6.0, -3.0, 3.0, 6.0};
  const DenseTensor xf = vec(DType::kFloat32, x);
  const auto gelu = to_doubles(dense::gelu(xf));
  const auto gelu_tanh = to_doubles(dense::gelu(xf, true));
  const auto mish = to_doubles(dense::mish(xf));
  const auto silu = to_doubles(dense::silu(xf));
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    const double want_gelu = 0.5 * v * std::erfc(-v / std::sqrt(2.0));
    const double u = std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v);
    const double want_gelu_tanh = v / (1 + std::exp(-2 * u));
    const double want_mish = v * std::tanh(std::log1p(std::exp(v)));
    const double want_silu = v / (1 + std::exp(-v));
    // Relative accuracy down to float32's normal range; below it, results flush toward 0.
    auto expect_close = [v](double got, double want, const char* what) {
      if (std::abs(want) < 1e-37) {
        EXPECT_LT(std::abs(got), 1e-37) << what << " " << v;
      } else {
        EXPECT_NEAR(got, want, 1e-5 * std::abs(want)) << what << " " << v;
      }
    };
    expect_close(gelu[i], want_gelu, "gelu");
    expect_close(gelu_tanh[i], want_gelu_tanh, "gelu tanh");
    expect_close(mish[i], want_mish, "mish");
    expect_close(silu[i], want_silu, "silu");
  }
}

}  // namespace
}  // namespace skiff::testing
