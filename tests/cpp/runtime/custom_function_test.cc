// Custom autograd functions (PyLayer): the CRTP API and the type-erased core, first and second
// order, saved tensors (inputs and outputs), non-differentiable outputs, needs_input_grad, and
// the messages for bad backward results.
#include "skiff/runtime/eager/custom_function.h"

#include <gtest/gtest.h>

#include "error_expectations.h"
#include "gradcheck.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/engine.h"

namespace skiff::testing {
namespace {

using autograd::FunctionContext;

Tensor grad_of(const Tensor& t) { return autograd::autograd_meta(t)->grad; }

// x^3 with a hand-written backward that uses the op API (so it is itself differentiable).
struct Cube : autograd::Function<Cube> {
  static std::string name() { return "cube"; }
  static Tensor forward(FunctionContext& ctx, const Tensor& x) {
    EXPECT_FALSE(autograd::grad_enabled());  // forward runs under no_grad
    ctx.save_for_backward({x});
    return multiply(multiply(x, x), x);
  }
  static std::vector<Tensor> backward(FunctionContext& ctx, const std::vector<Tensor>& grads) {
    const Tensor x = ctx.saved_tensors()[0];
    return {multiply(grads[0], scale(multiply(x, x), 3.0))};
  }
};

// exp(x) saving its output; a scalar attribute through ctx.data.
struct ScaledExp : autograd::Function<ScaledExp> {
  static Tensor forward(FunctionContext& ctx, const Tensor& x, double alpha) {
    Tensor y = scale(exp(x), alpha);
    ctx.save_for_backward({y});
    return y;
  }
  static std::vector<Tensor> backward(FunctionContext& ctx, const std::vector<Tensor>& grads) {
    return {multiply(grads[0], ctx.saved_tensors()[0])};
  }
};

// Two inputs (one optional), two outputs (the second non-differentiable).
struct MulAndSign : autograd::Function<MulAndSign> {
  static std::vector<Tensor> forward(FunctionContext& ctx, const Tensor& x, const Tensor& y,
                                     const std::optional<Tensor>& unused) {
    ctx.save_for_backward({x, y});
    ctx.data["had_unused"] = unused.has_value();
    Tensor s = sign(x);
    ctx.mark_non_differentiable({s});
    return {multiply(x, y), s};
  }
  static std::vector<Tensor> backward(FunctionContext& ctx, const std::vector<Tensor>& grads) {
    const auto saved = ctx.saved_tensors();
    EXPECT_TRUE(std::any_cast<bool>(ctx.data.at("had_unused")));
    return {ctx.needs_input_grad(0) ? multiply(grads[0], saved[1]) : Tensor(),
            ctx.needs_input_grad(1) ? multiply(grads[0], saved[0]) : Tensor(), Tensor()};
  }
};

struct Identity : autograd::Function<Identity> {
  static Tensor forward(FunctionContext&, const Tensor& x) { return x; }
  static std::vector<Tensor> backward(FunctionContext&, const std::vector<Tensor>& grads) {
    return {scale(grads[0], 2.0)};  // deliberately not 1, to see this node ran
  }
};

struct WrongCount : autograd::Function<WrongCount> {
  static std::string name() { return "wrong_count"; }
  static Tensor forward(FunctionContext&, const Tensor& x) { return exp(x); }
  static std::vector<Tensor> backward(FunctionContext&, const std::vector<Tensor>& grads) {
    return {grads[0], grads[0]};
  }
};

struct WrongShape : autograd::Function<WrongShape> {
  static std::string name() { return "wrong_shape"; }
  static Tensor forward(FunctionContext&, const Tensor& x) { return sum(x); }
  static std::vector<Tensor> backward(FunctionContext&, const std::vector<Tensor>& grads) {
    return {grads[0]};  // a scalar where x has 3 elements
  }
};

TEST(CustomFunctionTest, FirstSecondAndThirdOrder) {
  Tensor x = tensor64({2}, {0.5, -2.0}, true);
  Tensor y = Cube::apply(x);
  EXPECT_EQ(values(y), (std::vector<double>{0.125, -8}));
  auto g = autograd::grad({sum(y)}, {x}, {}, {.create_graph = true});
  EXPECT_EQ(values(g[0]), (std::vector<double>{0.75, 12}));
  auto gg = autograd::grad({sum(g[0])}, {x}, {}, {.create_graph = true});
  EXPECT_EQ(values(gg[0]), (std::vector<double>{3, -12}));
  auto ggg = autograd::grad({sum(gg[0])}, {x});
  EXPECT_EQ(values(ggg[0]), (std::vector<double>{6, 6}));
}

TEST(CustomFunctionTest, GradcheckAgainstFiniteDifferences) {
  const Tensor x = tensor64({3}, {0.3, -0.7, 1.1}, true);
  const TensorFn cube = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{Cube::apply(in[0])};
  };
  EXPECT_EQ(gradcheck(cube, {x}), "");
  EXPECT_EQ(gradgradcheck(cube, {x}), "");
  const TensorFn sexp = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{ScaledExp::apply(in[0], 1.5)};
  };
  EXPECT_EQ(gradcheck(sexp, {x}), "");
  EXPECT_EQ(gradgradcheck(sexp, {x}), "");  // the saved output is re-attached to the node
}

TEST(CustomFunctionTest, NonDifferentiableOutputsAndNeedsInputGrad) {
  Tensor x = tensor64({2}, {2, -3}, true);
  Tensor y = tensor64({2}, {5, 7});  // needs no gradient
  auto outs = MulAndSign::apply(x, y, std::optional<Tensor>(tensor64({1}, {0})));
  EXPECT_FALSE(autograd::requires_grad(outs[1]));
  EXPECT_TRUE(autograd::requires_grad(outs[0]));
  autograd::backward({sum(outs[0])});
  EXPECT_EQ(values(grad_of(x)), (std::vector<double>{5, 7}));
}

TEST(CustomFunctionTest, NothingRecordedWithoutGradOrUnderNoGrad) {
  Tensor x = tensor64({2}, {1, 2});
  EXPECT_FALSE(autograd::requires_grad(Cube::apply(x)));
  Tensor w = tensor64({2}, {1, 2}, true);
  autograd::NoGradGuard guard;
  EXPECT_FALSE(autograd::requires_grad(Cube::apply(w)));
}

TEST(CustomFunctionTest, ReturningAnInputKeepsTheInputsHistory) {
  Tensor x = tensor64({2}, {1, 2}, true);
  Tensor y = Identity::apply(x);
  EXPECT_NE(y.impl(), x.impl());
  EXPECT_TRUE(autograd::is_leaf(x));
  autograd::backward({sum(y)});
  EXPECT_EQ(values(grad_of(x)), (std::vector<double>{2, 2}));
}

TEST(CustomFunctionTest, BadBackwardResultsAreReported) {
  Tensor x = tensor64({3}, {1, 2, 3}, true);
  expect_error([&] { autograd::backward({sum(WrongCount::apply(x))}); },
               ErrorCode::kInvalidArgument,
               {"wrong_count", "backward", "1 gradients (one per forward input)", "2 gradients"});
  expect_error([&] { autograd::backward({WrongShape::apply(x)}); }, ErrorCode::kInvalidArgument,
               {"wrong_shape", "gradient 0 returned by backward", "[3]", "[]"});
}

TEST(CustomFunctionTest, SavedTensorsAreVersionCheckedAndFreed) {
  Tensor x = tensor64({2}, {1, 2}, true);
  Tensor a = multiply(x, tensor64({}, {1}));
  Tensor y = Cube::apply(a);
  scale_(a, 2.0);  // overwrites the saved input
  expect_error([&] { autograd::backward({sum(y)}); }, ErrorCode::kPrecondition,
               {"cube", "modified by an in-place"});
  Tensor z = Cube::apply(x);
  Tensor s = sum(z);
  autograd::backward({s});
  expect_error([&] { autograd::backward({s}); }, ErrorCode::kPrecondition, {"retain_graph=True"});
}

TEST(CustomFunctionTest, TypeErasedCoreForBindings) {
  // What a PyLayer binding does: run forward itself, then link a node around a callable.
  Tensor x = tensor64({2}, {3, 4}, true);
  Tensor out;
  {
    autograd::NoGradGuard guard;
    out = multiply(x, x);
  }
  auto node =
      std::make_shared<autograd::CustomFunctionNode>("py_layer", [x](const std::vector<Tensor>& g) {
        return std::vector<Tensor>{multiply(g[0], scale(x, 2.0))};
      });
  std::vector<Tensor> outs{out};
  ASSERT_TRUE(autograd::apply_custom_function({x}, outs, node));
  autograd::backward({sum(outs[0])});
  EXPECT_EQ(values(grad_of(x)), (std::vector<double>{6, 8}));
  std::vector<Tensor> none{out};
  expect_error(
      [&] {
        autograd::apply_custom_function({x}, none, node, {true, false});
      },
      ErrorCode::kInvalidArgument, {"py_layer", "non_differentiable", "1 flags"});
}

}  // namespace
}  // namespace skiff::testing
