// The eager engine: gradients, accumulation, graph shapes (shared inputs, joins, unused inputs,
// deep chains), retain_graph, no_grad, hooks, higher order, version counters, detach.
#include <gtest/gtest.h>

#include "gradcheck.h"
#include "op_test_util.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/eager/grad_node.h"

namespace skiff::testing {
namespace {

using autograd::backward;
using autograd::grad;

Tensor grad_of(const Tensor& t) { return autograd::autograd_meta(t)->grad; }

TEST(AutogradTest, PolynomialGradient) {
  Tensor x = tensor64({3}, {1, 2, 3}, true);
  Tensor y = add(multiply(x, x), x);  // x^2 + x
  backward({y});
  EXPECT_EQ(values(grad_of(x)), (std::vector<double>{3, 5, 7}));
}

TEST(AutogradTest, LeafGradientsAccumulateAcrossBackwardCalls) {
  Tensor x = tensor64({2}, {1, 2}, true);
  backward({multiply(x, x)});
  backward({multiply(x, x)});
  EXPECT_EQ(values(grad_of(x)), (std::vector<double>{4, 8}));
}

TEST(AutogradTest, BranchesThatJoinSumTheirGradients) {
  Tensor x = tensor64({1}, {3}, true);
  Tensor a = multiply(x, x);
  Tensor b = add(x, x);
  Tensor c = multiply(a, b);  // 2x^3 -> 6x^2 = 54
  backward({c});
  EXPECT_EQ(values(grad_of(x)), (std::vector<double>{54}));
}

TEST(AutogradTest, BroadcastGradientsAreReducedToInputShape) {
  Tensor x = tensor64({2, 3}, {1, 2, 3, 4, 5, 6}, true);
  Tensor b = tensor64({3}, {1, 1, 1}, true);
  backward({multiply(x, b)});
  EXPECT_EQ(values(grad_of(b)), (std::vector<double>{5, 7, 9}));
  EXPECT_EQ(grad_of(b).dims(), (Dims{3}));
}

TEST(AutogradTest, PromotedInputGetsGradientInItsOwnDtype) {
  Tensor x(testing::make_tensor({2}, DType::kFloat32, {1, 2}));
  autograd::set_stop_gradient(x, false);
  Tensor y = tensor64({2}, {3, 4});
  backward({multiply(x, y)});
  EXPECT_EQ(grad_of(x).dtype(), DType::kFloat32);
  EXPECT_EQ(values(grad_of(x)), (std::vector<double>{3, 4}));
}

TEST(AutogradTest, GradDoesNotTouchLeafGradAndReportsUnusedInputs) {
  Tensor x = tensor64({1}, {2}, true);
  Tensor z = tensor64({1}, {5}, true);
  Tensor y = multiply(x, x);
  auto g = grad({y}, {x}, {}, {.retain_graph = true});
  EXPECT_EQ(values(g[0]), (std::vector<double>{4}));
  EXPECT_FALSE(grad_of(x).defined());
  try {
    grad({y}, {z});
    FAIL() << "unused input accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("allow_unused"), std::string::npos) << e.what();
  }
  auto g2 = grad({y}, {z}, {}, {.retain_graph = true, .allow_unused = true});
  EXPECT_FALSE(g2[0].defined());
}

TEST(AutogradTest, SecondBackwardWithoutRetainGraphFailsClearly) {
  Tensor x = tensor64({1}, {2}, true);
  Tensor y = multiply(x, x);
  backward({y});
  try {
    backward({y});
    FAIL() << "second backward through freed graph accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kPrecondition);
    EXPECT_NE(std::string(e.what()).find("retain_graph"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("multiply_grad"), std::string::npos) << e.what();
  }
}

TEST(AutogradTest, RetainGraphAllowsRepeatedBackward) {
  Tensor x = tensor64({1}, {2}, true);
  Tensor y = multiply(x, x);
  backward({y}, {}, /*retain_graph=*/true);
  backward({y});
  EXPECT_EQ(values(grad_of(x)), (std::vector<double>{8}));
}

TEST(AutogradTest, NoGradRecordsNothing) {
  Tensor x = tensor64({1}, {2}, true);
  Tensor y;
  {
    autograd::NoGradGuard guard;
    y = multiply(x, x);
  }
  EXPECT_FALSE(autograd::requires_grad(y));
  EXPECT_TRUE(autograd::is_leaf(y));
}

TEST(AutogradTest, StopGradientInputsGetNoGradient) {
  Tensor x = tensor64({1}, {2}, true);
  Tensor c = tensor64({1}, {3});  // data: stop_gradient=True by default
  backward({multiply(x, c)});
  EXPECT_EQ(values(grad_of(x)), (std::vector<double>{3}));
  EXPECT_EQ(autograd::autograd_meta(c), nullptr);
}

TEST(AutogradTest, HooksSeeAndReplaceGradients) {
  Tensor x = tensor64({1}, {2}, true);
  Tensor y = multiply(x, x);
  double seen = 0;
  autograd::register_hook(y, [&](const Tensor& g) {
    seen = values(g)[0];
    return multiply(g, tensor64({1}, {10}));
  });
  autograd::register_hook(x, [&](const Tensor& g) { return add(g, tensor64({1}, {1})); });
  backward({y});
  EXPECT_EQ(seen, 1.0);
  EXPECT_EQ(values(grad_of(x)), (std::vector<double>{41}));  // 10 * 2x + 1
}

TEST(AutogradTest, RetainGradsKeepsNonLeafGradient) {
  Tensor x = tensor64({1}, {2}, true);
  Tensor y = multiply(x, x);
  autograd::retain_grads(y);
  backward({multiply(y, y)});
  EXPECT_EQ(values(grad_of(y)), (std::vector<double>{8}));  // d(y^2)/dy = 2y
}

TEST(AutogradTest, DeepChainDoesNotOverflowTheStack) {
  Tensor x = tensor64({1}, {1}, true);
  Tensor y = x;
  const Tensor one = tensor64({1}, {1});
  for (int i = 0; i < 100000; ++i) y = add(y, one);
  backward({y});
  EXPECT_EQ(values(grad_of(x)), (std::vector<double>{1}));
  y = Tensor();  // releasing the 100k-node graph must not recurse either
}

TEST(AutogradTest, SecondAndThirdDerivatives) {
  Tensor x = tensor64({1}, {2}, true);
  Tensor y = multiply(multiply(x, x), x);  // x^3
  auto d1 = grad({y}, {x}, {}, {.create_graph = true});
  EXPECT_EQ(values(d1[0]), (std::vector<double>{12}));  // 3x^2
  auto d2 = grad({d1[0]}, {x}, {}, {.create_graph = true});
  EXPECT_EQ(values(d2[0]), (std::vector<double>{12}));  // 6x
  auto d3 = grad({d2[0]}, {x});
  EXPECT_EQ(values(d3[0]), (std::vector<double>{6}));
}

TEST(AutogradTest, InPlaceChangeOfSavedTensorIsCaught) {
  Tensor x = tensor64({1}, {2}, true);
  Tensor w = tensor64({1}, {3});
  Tensor y = multiply(x, w);
  w.dense().storage()->bump_version();  // what an in-place op on w does
  try {
    backward({y});
    FAIL() << "modified saved tensor accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("in-place"), std::string::npos) << e.what();
  }
}

TEST(AutogradTest, DetachSharesDataButNotHistory) {
  Tensor x = tensor64({2}, {1, 2}, true);
  Tensor y = multiply(x, x);
  Tensor d = autograd::detach(y);
  EXPECT_FALSE(autograd::requires_grad(d));
  EXPECT_TRUE(d.dense().shares_storage_with(y.dense()));
}

TEST(AutogradTest, BackwardOfTensorThatNeedsNoGradIsAnError) {
  Tensor c = tensor64({1}, {3});
  try {
    backward({c});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("stop_gradient"), std::string::npos) << e.what();
  }
}

TEST(GradcheckTest, PutAlongAxisWithUniqueIndices) {
  Tensor arr = tensor64({2, 3}, {1, 2, 3, 4, 5, 6}, true);
  Tensor values = tensor64({2, 2}, {0.5, -1, 2, 3}, true);
  Tensor idx(make_tensor({2, 2}, DType::kInt64, {2, 0, 1, 2}));
  for (const char* reduce : {"assign", "add"}) {
    auto fn = [&](const std::vector<Tensor>& in) {
      return std::vector<Tensor>{put_along_axis(in[0], idx, in[1], 1, reduce)};
    };
    EXPECT_EQ(gradcheck(fn, {arr, values}), "") << reduce;
    EXPECT_EQ(gradgradcheck(fn, {arr, values}), "") << reduce;
  }
}

TEST(GradcheckTest, MultiplyAndCastPass) {
  Tensor a = tensor64({2, 3}, {1, -2, 3, 0.5, 2, -1}, true);
  Tensor b = tensor64({3}, {0.3, -1.2, 2}, true);
  auto fn = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{multiply(add(in[0], in[1]), in[0])};
  };
  EXPECT_EQ(gradcheck(fn, {a, b}), "");
  EXPECT_EQ(gradgradcheck(fn, {a, b}), "");
}

// stop_at_inputs: partial derivatives, each input independent of the others (autodiff through
// cf.if uses it for a branch's free variables).
TEST(AutogradTest, GradStopAtInputsGivesPartialDerivatives) {
  Tensor x = tensor64({2}, {1, 2}, true);
  Tensor y = scale(x, 3.0);  // y depends on x
  Tensor z = sum(multiply(x, y));
  autograd::GradOptions total;
  total.retain_graph = true;
  std::vector<Tensor> t = grad({z}, {x, y}, {}, total);
  EXPECT_EQ(to_doubles(t[0].dense()), (std::vector<double>{6, 12}));  // through y too: 6x
  autograd::GradOptions partial;
  partial.stop_at_inputs = true;
  std::vector<Tensor> p = grad({z}, {x, y}, {}, partial);
  EXPECT_EQ(to_doubles(p[0].dense()), (std::vector<double>{3, 6}));  // dz/dx with y fixed: y
  EXPECT_EQ(to_doubles(p[1].dense()), (std::vector<double>{1, 2}));  // dz/dy: x
}

// Paddle's no_grad_vars: gradients do not flow through them, as if they were constants.
TEST(AutogradTest, NoGradVarsAreConstants) {
  Tensor x = tensor64({2}, {1, 2}, true);
  Tensor y = multiply(x, x);
  Tensor z = sum(multiply(y, x));  // 3x^2 in full, y = x^2 with y held constant
  autograd::GradOptions held;
  held.retain_graph = true;
  held.no_grad_vars = {y};
  EXPECT_EQ(to_doubles(grad({z}, {x}, {}, held)[0].dense()), (std::vector<double>{1, 4}));
  autograd::GradOptions full;
  EXPECT_EQ(to_doubles(grad({z}, {x}, {}, full)[0].dense()), (std::vector<double>{3, 12}));
}

}  // namespace
}  // namespace skiff::testing
