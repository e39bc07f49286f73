// Gradients of conv2d and pool2d through their backward ops (conv2d_grad, pool2d_grad) beyond
// what the op table checks: avg pooling's gradient differentiated again, max pooling's second
// order refused clearly, and conv2d to third order.
#include <gtest/gtest.h>

#include "gradcheck.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/engine.h"

namespace skiff::testing {
namespace {

std::vector<double> ramp(int64_t n, double scale) {
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = scale * static_cast<double>((i * 7) % 11) - 0.4;
  return v;
}

TEST(ConvGradTest, AvgPoolGradIsDifferentiableInOutGrad) {
  const Tensor x = tensor64({1, 2, 5, 5}, ramp(50, 0.1));
  const Tensor out = pool2d(x, {3, 3}, {2, 2}, {1, 1}, false, false, "NCHW", "avg");
  const Tensor g = tensor64({1, 2, 3, 3}, ramp(18, 0.2), true);
  const TensorFn fn = [&](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{
        pool2d_grad(x, out, in[0], {3, 3}, {2, 2}, {1, 1}, false, false, "NCHW", "avg")};
  };
  EXPECT_EQ(gradcheck(fn, {g}), "");
}

TEST(ConvGradTest, MaxPoolSecondOrderIsRefusedClearly) {
  Tensor x = tensor64({1, 1, 2, 2}, {1, 3, 2, 0}, true);
  Tensor y = pool2d(x, {2, 2});
  Tensor seed = tensor64({1, 1, 1, 1}, {1}, true);
  auto g = autograd::grad({y}, {x}, {seed}, {.create_graph = true});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0, 1, 0, 0}));
  try {
    autograd::grad({sum(g[0])}, {seed});
    FAIL() << "second order of max pooling accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("pool2d_grad"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("max pooling"), std::string::npos) << e.what();
  }
}

// output_mask computes only the wanted gradient (oneDNN in float32, the direct loops in
// float64); the other comes back empty, and the computed one equals the unmasked result.
TEST(ConvGradTest, OutputMaskSkipsTheMaskedGradient) {
  for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
    const Tensor x = cast(tensor64({2, 3, 6, 6}, ramp(216, 0.1)), dtype);
    const Tensor w = cast(tensor64({4, 3, 3, 3}, ramp(108, 0.05)), dtype);
    const Tensor g = cast(tensor64({2, 4, 3, 3}, ramp(72, 0.2)), dtype);
    const auto both = conv2d_grad(x, w, g, {2, 2}, {1, 1}, "EXPLICIT", {1, 1}, 1, "NCHW", {1, 1});
    const auto input_only =
        conv2d_grad(x, w, g, {2, 2}, {1, 1}, "EXPLICIT", {1, 1}, 1, "NCHW", {1, 0});
    const auto filter_only =
        conv2d_grad(x, w, g, {2, 2}, {1, 1}, "EXPLICIT", {1, 1}, 1, "NCHW", {0, 1});
    EXPECT_EQ(values(std::get<0>(input_only)), values(std::get<0>(both)));
    EXPECT_EQ(std::get<1>(input_only).dims(), Dims{0});
    EXPECT_EQ(std::get<0>(filter_only).dims(), Dims{0});
    EXPECT_EQ(values(std::get<1>(filter_only)), values(std::get<1>(both)));
  }
}

TEST(ConvGradTest, OutputMaskOfTheWrongFormIsRefused) {
  const Tensor x = tensor64({1, 1, 3, 3}, ramp(9, 0.1));
  const Tensor w = tensor64({1, 1, 2, 2}, ramp(4, 0.1));
  const Tensor g = tensor64({1, 1, 2, 2}, ramp(4, 0.1));
  for (const std::vector<int64_t>& mask : {std::vector<int64_t>{1}, {1, 2}, {1, 1, 1}}) {
    try {
      conv2d_grad(x, w, g, {1, 1}, {0, 0}, "EXPLICIT", {1, 1}, 1, "NCHW", mask);
      FAIL() << "output_mask " << mask.size() << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("(InvalidArgument) conv2d_grad: argument "
                                           "'output_mask' expected two flags, each 0 or 1"),
                std::string::npos)
          << e.what();
    }
  }
}

// Eager backward asks conv2d_grad only for the gradients the inputs need: a first layer's
// input (no gradient) is skipped, the filter's gradient is the same as when both are needed.
TEST(ConvGradTest, BackwardComputesOnlyTheNeededGradients) {
  const Tensor x_const = tensor64({1, 2, 5, 5}, ramp(50, 0.1));
  const Tensor x_var = tensor64({1, 2, 5, 5}, ramp(50, 0.1), true);
  const Tensor w = tensor64({3, 2, 3, 3}, ramp(54, 0.05), true);
  const auto filter_only = autograd::grad({sum(conv2d(x_const, w))}, {w});
  const auto both = autograd::grad({sum(conv2d(x_var, w))}, {x_var, w});
  EXPECT_EQ(values(filter_only[0]), values(both[1]));
  const Tensor w_const = tensor64({3, 2, 3, 3}, ramp(54, 0.05));
  const auto input_only = autograd::grad({sum(conv2d(x_var, w_const))}, {x_var});
  EXPECT_EQ(values(input_only[0]), values(both[0]));
}

TEST(ConvGradTest, Conv2dThirdOrder) {
  const Tensor x = tensor64({1, 2, 4, 4}, ramp(32, 0.1), true);
  const Tensor w = tensor64({2, 2, 2, 2}, ramp(16, 0.05), true);
  const TensorFn f = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{tanh(conv2d(in[0], in[1], {1, 1}, {1, 1}))};
  };
  const TensorFn first = [f](const std::vector<Tensor>& in) {
    const auto outs = f(in);
    std::vector<double> v(outs[0].numel());
    for (size_t i = 0; i < v.size(); ++i) v[i] = 0.1 * static_cast<double>(i % 5) - 0.2;
    return autograd::grad(outs, in, {tensor64(outs[0].dims(), v)}, {.create_graph = true});
  };
  EXPECT_EQ(gradgradcheck(first, {x, w}), "");
}

}  // namespace
}  // namespace skiff::testing
