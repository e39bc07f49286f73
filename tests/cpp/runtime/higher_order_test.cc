// Third-order gradient checks (tanh, sigmoid, matmul, softmax): gradgradcheck of the
// create_graph VJP, i.e. finite differences of second derivatives of the first-order gradient.
// Plus graph-shape edge cases the op tests do not reach: a tensor used twice by one op, unused
// inputs under create_graph, hooks on tensors written in place.
#include <gtest/gtest.h>

#include <cmath>

#include "gradcheck.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/eager/grad_node.h"

namespace skiff::testing {
namespace {

// Deterministic cotangent values for an output.
Tensor cotangent(const Tensor& like) {
  std::vector<double> v(like.numel());
  for (size_t i = 0; i < v.size(); ++i) v[i] = std::sin(1.0 + 0.7 * static_cast<double>(i));
  return tensor64(like.dims(), v);
}

// The first-order VJP of `f` as a differentiable function of its inputs.
TensorFn vjp_of(TensorFn f) {
  return [f](const std::vector<Tensor>& in) {
    const auto outs = f(in);
    std::vector<Tensor> vs;
    for (const Tensor& o : outs) vs.push_back(cotangent(o));
    return autograd::grad(outs, in, vs, {.create_graph = true, .allow_unused = true});
  };
}

std::string third_order_check(const TensorFn& f, const std::vector<Tensor>& inputs) {
  return gradgradcheck(vjp_of(f), inputs);
}

TEST(ThirdOrderTest, Tanh) {
  const Tensor x = tensor64({2, 3}, {0.3, -0.8, 1.2, -1.5, 0.05, 0.9}, true);
  EXPECT_EQ(third_order_check([](const auto& in) { return std::vector<Tensor>{tanh(in[0])}; }, {x}),
            "");
}

TEST(ThirdOrderTest, Sigmoid) {
  const Tensor x = tensor64({4}, {0.3, -2.0, 1.7, 0.0}, true);
  EXPECT_EQ(
      third_order_check([](const auto& in) { return std::vector<Tensor>{sigmoid(in[0])}; }, {x}),
      "");
}

TEST(ThirdOrderTest, MatmulComposedWithTanh) {
  // matmul alone is bilinear (third derivatives vanish); tanh around it makes them non-trivial.
  const Tensor a = tensor64({2, 3}, {0.1, -0.4, 0.3, 0.2, 0.5, -0.6}, true);
  const Tensor b = tensor64({3, 2}, {0.7, -0.1, 0.2, 0.4, -0.3, 0.6}, true);
  EXPECT_EQ(third_order_check(
                [](const auto& in) { return std::vector<Tensor>{matmul(in[0], in[1])}; }, {a, b}),
            "");
  EXPECT_EQ(third_order_check(
                [](const auto& in) {
                  return std::vector<Tensor>{tanh(matmul(in[0], in[1], false, true))};
                },
                {a, transpose(b, {1, 0})}),
            "");
}

TEST(ThirdOrderTest, Softmax) {
  const Tensor x = tensor64({2, 3}, {0.3, -0.8, 1.2, -1.5, 0.05, 0.9}, true);
  for (int64_t axis : {-1, 0}) {
    EXPECT_EQ(
        third_order_check(
            [axis](const auto& in) { return std::vector<Tensor>{softmax(in[0], axis)}; }, {x}),
        "")
        << "axis " << axis;
  }
}

TEST(GraphEdgeCaseTest, SameTensorTwiceInOneOp) {
  Tensor x = tensor64({2}, {3, -1}, true);
  auto g = autograd::grad({sum(multiply(x, x))}, {x}, {}, {.create_graph = true});
  EXPECT_EQ(values(g[0]), (std::vector<double>{6, -2}));
  auto gg = autograd::grad({sum(g[0])}, {x});
  EXPECT_EQ(values(gg[0]), (std::vector<double>{2, 2}));
}

TEST(GraphEdgeCaseTest, UnusedInputUnderCreateGraph) {
  Tensor x = tensor64({1}, {2}, true);
  Tensor unused = tensor64({1}, {5}, true);
  auto g = autograd::grad({multiply(x, x)}, {x, unused}, {},
                          {.create_graph = true, .allow_unused = true});
  EXPECT_FALSE(g[1].defined());
  // The gradient of x is itself differentiable; the unused input stays unused at second order.
  auto gg = autograd::grad({g[0]}, {x, unused}, {}, {.allow_unused = true});
  EXPECT_EQ(values(gg[0]), (std::vector<double>{2}));
  EXPECT_FALSE(gg[1].defined());
}

TEST(GraphEdgeCaseTest, HookOnTensorThenWrittenInPlace) {
  // A hook registered before an in-place write belongs to the value it was registered on: it
  // sees the gradient flowing into the old value (PyTorch does the same).
  Tensor x = tensor64({2}, {1, 2}, true);
  Tensor y = multiply(x, tensor64({}, {3}));
  std::vector<double> seen;
  autograd::register_hook(y, [&](const Tensor& g) {
    seen = values(g);
    return Tensor();
  });
  scale_(y, 2.0);  // y = 6x
  autograd::backward({sum(y)});
  EXPECT_EQ(seen, (std::vector<double>{2, 2}));
  EXPECT_EQ(values(autograd::autograd_meta(x)->grad), (std::vector<double>{6, 6}));
}

TEST(GraphEdgeCaseTest, NoGradInplaceOnNonLeafKeepsHistoryAndIsCaughtIfSaved) {
  Tensor x = tensor64({2}, {0.5, 1.5}, true);
  Tensor y = multiply(x, x);  // saves x, not y
  {
    autograd::NoGradGuard guard;
    scale_(y, 2.0);  // not recorded: y's history still says x*x
  }
  EXPECT_FALSE(autograd::is_leaf(y));
  autograd::backward({sum(y)});
  EXPECT_EQ(values(autograd::autograd_meta(x)->grad), (std::vector<double>{1, 3}));
  Tensor z = exp(x);  // saves its output z
  {
    autograd::NoGradGuard guard;
    scale_(z, 2.0);
  }
  try {
    autograd::backward({sum(z)});
    FAIL() << "an overwritten saved output was used";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("modified by an in-place"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace skiff::testing
