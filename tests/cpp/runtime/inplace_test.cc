// In-place variants (`add_`, `relu_`, ...) generated from the records' `inplace` field: every
// variant against its out-of-place op on the op database's samples (contiguous and strided
// targets, shape/dtype changes refused), gradients through every variant, and the autograd
// rules: leaves, rebasing, overwritten saved tensors, views, no_grad.
#include "skiff/ops/inplace.h"

#include <gtest/gtest.h>

#include <cmath>

#include "error_expectations.h"
#include "gradcheck.h"
#include "op_db.h"
#include "skiff/core/generator.h"
#include "skiff/core/views.h"
#include "skiff/ops/generated/api.h"
#include "skiff/ops/kernel_registry.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/call_op.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/eager/grad_mode.h"

namespace skiff::testing {
namespace {

using autograd::backward;

Tensor grad_of(const Tensor& t) { return autograd::autograd_meta(t)->grad; }

uint32_t version(const Tensor& t) { return t.dense().storage()->version(); }

// Index among tensor arguments of the input an op writes.
size_t written_arg(const ops::OpSchema& s) {
  const std::string& name = ops::inplace_info(s.id)->pairs[0].first;
  size_t k = 0;
  for (const auto& a : s.args) {
    if (!ops::is_tensor_kind(a.kind)) continue;
    if (a.name == name) return k;
    ++k;
  }
  ADD_FAILURE() << s.name << ": no tensor argument " << name;
  return 0;
}

DType test_dtype(const ops::OpSchema& s) {
  const auto& r = ops::KernelRegistry::global();
  if (r.find(s.id, Backend::kCPU, DType::kFloat64)) return DType::kFloat64;
  return DType::kInt64;
}

TensorLists make_inputs(const OpInfo& info, const OpSample& sample, DType dtype, uint64_t seed,
                        bool requires_grad) {
  std::mt19937_64 rng(seed);
  const Domain domain =
      requires_grad && info.domain == Domain::kSmallInt ? Domain::kAny : info.domain;
  TensorLists in;
  for (auto& dense : sample_inputs(info, sample, dtype, rng, domain)) {
    std::vector<Tensor>& list = in.emplace_back();
    for (DenseTensor& d : dense) {
      Tensor t(d);
      if (requires_grad && is_floating(t.dtype())) autograd::set_stop_gradient(t, false);
      list.push_back(t);
    }
  }
  return in;
}

std::vector<std::string> ops_with_inplace_variant() {
  std::vector<std::string> names;
  for (const auto& [name, info] : OpDb::get().infos()) {
    const auto& s = ops::op_schema(name);
    const ops::InplaceInfo* ip = ops::inplace_info(s.id);
    if (ip != nullptr && ip->api != s.name) names.push_back(name);
  }
  return names;
}

class InplaceVariant : public ::testing::TestWithParam<std::string> {};

TEST_P(InplaceVariant, MatchesOutOfPlaceOp) {
  const OpInfo& info = OpDb::get().infos().at(GetParam());
  const ops::OpSchema& s = ops::op_schema(info.name);
  const std::string api = ops::inplace_info(s.id)->api;
  const size_t w = written_arg(s);
  const DType dtype = test_dtype(s);
  for (size_t k = 0; k < info.samples.size(); ++k) {
    const OpSample& sample = info.samples[k];
    const TensorLists in = make_inputs(info, sample, dtype, 500 + k, false);
    default_generator(Place::cpu()).set_state({77, 0});
    const Tensor want = call_op(s.name, in, sample.attrs)[0][0];
    const Tensor& x = in[w][0];
    const bool fits = want.dims() == x.dims() && want.dtype() == x.dtype();
    for (bool strided : {false, true}) {
      const std::string where = str(api, " sample ", k, strided ? " (strided x)" : "");
      TensorLists in2 = in;
      Tensor target(strided ? noncontiguous_copy(x.dense()) : x.dense().copy_to(Place::cpu()));
      in2[w][0] = target;
      const uint32_t v0 = version(target);
      const std::vector<double> before = to_doubles(target.dense());
      default_generator(Place::cpu()).set_state({77, 0});
      if (!fits) {
        try {
          call_op(api, in2, sample.attrs);
          ADD_FAILURE() << where << ": a result of dims " << want.dims() << " and dtype "
                        << want.dtype() << " was written into x of dims " << x.dims();
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find(api), std::string::npos) << e.what();
          EXPECT_NE(std::string(e.what()).find("in place"), std::string::npos) << e.what();
        }
        EXPECT_EQ(to_doubles(target.dense()), before) << where << ": x changed by a failed call";
        continue;
      }
      const Tensor got = call_op(api, in2, sample.attrs)[0][0];
      EXPECT_EQ(got.impl(), target.impl()) << where << ": the result is not x itself";
      EXPECT_GT(version(target), v0) << where << ": the version was not bumped";
      // Same kernel, but a strided x may take another (vectorized or scalar) path.
      const std::string diff =
          compare(to_doubles(target.dense()), to_doubles(want.dense()), tolerance_for(dtype));
      EXPECT_TRUE(diff.empty()) << where << ": " << diff;
    }
  }
}

// Gradients through the in-place variant applied to a non-leaf copy of x (the op's grad node
// becomes the copy's history), first and second order.
TEST_P(InplaceVariant, GradientsThroughTheInplaceVariant) {
  const OpInfo& info = OpDb::get().infos().at(GetParam());
  const ops::OpSchema& s = ops::op_schema(info.name);
  if (!s.differentiable || s.grad_inputs.empty() || !info.check_grad) GTEST_SKIP();
  const std::string api = ops::inplace_info(s.id)->api;
  const size_t w = written_arg(s);
  for (size_t k = 0; k < info.samples.size(); ++k) {
    const OpSample& sample = info.samples[k];
    int64_t elements = 0;
    for (const auto& list : sample.shapes) {
      for (const Dims& d : list) elements += d.numel();
    }
    if (elements > 256) continue;
    const TensorLists in = make_inputs(info, sample, DType::kFloat64, 900 + k, true);
    const Tensor want = call_op(s.name, in, sample.attrs)[0][0];
    if (want.dims() != in[w][0].dims() || want.dtype() != DType::kFloat64) continue;
    std::vector<size_t> sizes;
    std::vector<Tensor> flat;
    for (const auto& list : in) {
      sizes.push_back(list.size());
      flat.insert(flat.end(), list.begin(), list.end());
    }
    size_t w_flat = 0;
    for (size_t a = 0; a < w; ++a) w_flat += sizes[a];
    const TensorFn fn = [&, sizes, w_flat](const std::vector<Tensor>& xs) {
      TensorLists args;
      size_t j = 0;
      for (size_t n : sizes) {
        std::vector<Tensor> list(xs.begin() + j, xs.begin() + j + n);
        // The written input: a fresh non-leaf copy (writing into a leaf that requires grad
        // is refused).
        if (j == w_flat) list[0] = assign(list[0]);
        args.push_back(list);
        j += n;
      }
      default_generator(Place::cpu()).set_state({77, 0});
      return std::vector<Tensor>{call_op(api, args, sample.attrs)[0][0]};
    };
    const std::string first = gradcheck(fn, flat);
    EXPECT_TRUE(first.empty()) << api << " sample " << k << ": " << first;
    if (info.check_gradgrad && first.empty()) {
      const std::string second = gradgradcheck(fn, flat);
      EXPECT_TRUE(second.empty()) << api << " sample " << k << ": " << second;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllOps, InplaceVariant, ::testing::ValuesIn(ops_with_inplace_variant()),
                         [](const auto& p) { return p.param; });

TEST(InplaceTest, SameBufferAndVersionBump) {
  Tensor x = tensor64({3}, {1, 2, 3});
  const void* data = x.dense().raw_data();
  const uint32_t v = version(x);
  Tensor r = add_(x, tensor64({}, {1}));
  EXPECT_EQ(r.impl(), x.impl());
  EXPECT_EQ(x.dense().raw_data(), data);
  EXPECT_EQ(version(x), v + 1);
  EXPECT_EQ(values(x), (std::vector<double>{2, 3, 4}));
  exp_(scale_(x, 0.0));
  EXPECT_EQ(values(x), (std::vector<double>{1, 1, 1}));
}

TEST(InplaceTest, OverlappingInputsReadTheOldValues) {
  Tensor x = tensor64({2, 2}, {1, 2, 3, 4});
  add_(x, transpose(x, {1, 0}));  // x + x^T, with x^T a view of x
  EXPECT_EQ(values(x), (std::vector<double>{2, 5, 5, 8}));
  Tensor y = tensor64({2}, {3, 4});
  multiply_(y, y);
  EXPECT_EQ(values(y), (std::vector<double>{9, 16}));
}

TEST(InplaceTest, WritesThroughAStridedView) {
  Tensor x = tensor64({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor col = slice(x, {1}, {1}, {2});  // column 1: a strided view
  scale_(col, 10.0);
  EXPECT_EQ(values(x), (std::vector<double>{1, 20, 3, 4, 50, 6}));
}

TEST(InplaceTest, BadTargetsAreRefusedWithClearMessages) {
  Tensor x = tensor64({3}, {1, 2, 3});
  expect_error(
      [&] {
        add_(x, tensor64({2, 3}, {1, 2, 3, 4, 5, 6}));
      },
      ErrorCode::kInvalidArgument,
      {"add_", "argument 'x'", "broadcasting cannot grow x", "[2, 3]"});
  Tensor xi(make_tensor({2}, DType::kInt64, {4, 6}));
  expect_error(
      [&] {
        add_(xi, tensor64({2}, {1, 1}));
      },
      ErrorCode::kTypeError, {"add_", "argument 'x'", "can hold the result (float64)", "int64"});
  expect_error(
      [&] {
        divide_(xi, Tensor(make_tensor({2}, DType::kInt64, {2, 3})));
      },
      ErrorCode::kTypeError, {"divide_", "the dtype cannot change", "float32"});
  // broadcast_to copies (Paddle); a stride-0 view made below the op API is still refused.
  Tensor e(view_expand(make_tensor({1}, DType::kFloat64, {1}), {3}));
  expect_error([&] { relu_(e); }, ErrorCode::kInvalidArgument, {"relu_", "not an expanded view"});
  Tensor b = broadcast_to(tensor64({1}, {1}), {3});
  relu_(b);
  EXPECT_EQ(values(b), (std::vector<double>{1, 1, 1}));
  // A float32 target takes a float64 operand (computed in float32, like PyTorch's add_).
  Tensor f(make_tensor({2}, DType::kFloat32, {1, 2}));
  add_(f, tensor64({2}, {0.5, 0.25}));
  EXPECT_EQ(f.dtype(), DType::kFloat32);
  EXPECT_EQ(values(f), (std::vector<double>{1.5, 2.25}));
}

TEST(InplaceTest, InitializersDrawWhatTheCreationOpsDraw) {
  for (DType d : {DType::kFloat32, DType::kFloat64, DType::kBFloat16}) {
    Tensor x(DenseTensor::empty({4, 5}, d));
    default_generator(Place::cpu()).set_state({5, 0});
    const Tensor u = uniform({4, 5}, d, -2.0, 3.0);
    default_generator(Place::cpu()).set_state({5, 0});
    EXPECT_EQ(uniform_inplace_(x, -2.0, 3.0).impl(), x.impl());
    EXPECT_EQ(to_doubles(x.dense()), to_doubles(u.dense())) << d;
    default_generator(Place::cpu()).set_state({6, 0});
    const Tensor g = gaussian({4, 5}, 1.0, 2.0, 0, d);
    default_generator(Place::cpu()).set_state({6, 0});
    gaussian_inplace_(x, 1.0, 2.0);
    EXPECT_EQ(to_doubles(x.dense()), to_doubles(g.dense())) << d;
    fill_(x, Scalar(0));  // zero_
    EXPECT_EQ(to_doubles(x.dense()), std::vector<double>(20, 0.0)) << d;
  }
  Tensor w = tensor64({3}, {1, 2, 3}, true);
  expect_error([&] { uniform_inplace_(w); }, ErrorCode::kPrecondition,
               {"uniform_inplace_", "leaf tensor"});
  autograd::NoGradGuard guard;  // what initializers do
  gaussian_inplace_(w);
  EXPECT_TRUE(autograd::requires_grad(w));
}

TEST(InplaceAutogradTest, LeafThatRequiresGradIsRefusedOutsideNoGrad) {
  Tensor w = tensor64({2}, {1, 2}, true);
  expect_error([&] { relu_(w); }, ErrorCode::kPrecondition,
               {"relu_", "argument 'x'", "leaf tensor", "no_grad"});
  {
    autograd::NoGradGuard guard;  // what optimizers do
    scale_(w, 2.0);
  }
  EXPECT_EQ(values(w), (std::vector<double>{2, 4}));
  EXPECT_TRUE(autograd::is_leaf(w));
  EXPECT_TRUE(autograd::requires_grad(w));
  backward({multiply(w, w)});
  EXPECT_EQ(values(grad_of(w)), (std::vector<double>{4, 8}));
}

TEST(InplaceAutogradTest, NonLeafIsRebasedOntoTheInplaceNode) {
  Tensor x = tensor64({2}, {0.5, -1.0}, true);
  Tensor y = multiply(x, tensor64({}, {2}));
  add_(add_(y, x), tensor64({}, {0}));  // y = 3x; add_ saves no data, so chains are fine
  multiply_(y, x);                      // y = 3x^2 (its rule reads y's old value: a copy)
  multiply_(y, y);                      // y = 9x^4, reading y twice
  tanh_(y);                             // y = tanh(9x^4)
  EXPECT_FALSE(autograd::is_leaf(y));
  backward({sum(y)});
  const auto g = values(grad_of(x));
  for (int i = 0; i < 2; ++i) {
    const double v = i == 0 ? 0.5 : -1.0, t = std::tanh(9 * std::pow(v, 4));
    EXPECT_NEAR(g[i], (1 - t * t) * 36 * std::pow(v, 3), 1e-12) << i;
  }
}

TEST(InplaceAutogradTest, WritingASavedOutputAgainIsCaught) {
  Tensor x = tensor64({2}, {0.5, 1.0}, true);
  Tensor y = multiply(x, tensor64({}, {2}));
  exp_(y);     // saves its output, y
  add_(y, x);  // overwrites it (PyTorch raises here too)
  expect_error([&] { backward({sum(y)}); }, ErrorCode::kPrecondition,
               {"exp_grad", "modified by an in-place operation", "version"});
}

TEST(InplaceAutogradTest, InplaceOnTensorWithoutGradPicksUpHistory) {
  Tensor x = tensor64({2}, {1, 2});
  Tensor w = tensor64({2}, {3, 4}, true);
  multiply_(x, w);  // x had no history; now x = x0 * w
  EXPECT_TRUE(autograd::requires_grad(x));
  backward({sum(x)});
  EXPECT_EQ(values(grad_of(w)), (std::vector<double>{1, 2}));
}

TEST(InplaceAutogradTest, OverwrittenSavedTensorIsCaughtAtBackward) {
  Tensor x = tensor64({2}, {0.5, 1.0}, true);
  Tensor a = multiply(x, x);
  Tensor b = sigmoid(a);  // saves its output b
  scale_(b, 2.0);         // overwrites it
  expect_error([&] { backward({sum(b)}); }, ErrorCode::kPrecondition,
               {"sigmoid_grad", "modified by an in-place operation", "version"});
}

TEST(InplaceAutogradTest, ViewsOfTensorsThatRequireGrad) {
  Tensor x = tensor64({2, 2}, {1, -2, 3, -4}, true);
  Tensor a = multiply(x, tensor64({}, {1}));
  Tensor row = slice(a, {0}, {0}, {1});
  expect_error([&] { relu_(row); }, ErrorCode::kPrecondition,
               {"relu_", "argument 'x'", "a view", "not differentiable"});
  {
    autograd::NoGradGuard guard;
    Tensor r2 = slice(a, {0}, {1}, {2});
    relu_(r2);  // allowed: not recorded
  }
  // The base was written after `row` was made: using `row` in a recorded op is refused.
  Tensor b = multiply(x, tensor64({}, {1}));
  Tensor v = reshape(b, {4});
  exp_(b);
  expect_error([&] { sum(v); }, ErrorCode::kPrecondition,
               {"sum_grad", "its base was modified in place", "make the view"});
}

TEST(InplaceAutogradTest, NonDifferentiableInplaceCutsHistory) {
  Tensor x = tensor64({2}, {3.5, 4.5}, true);
  Tensor y = multiply(x, tensor64({}, {1}));
  floor_divide_(y, tensor64({}, {2}));
  EXPECT_FALSE(autograd::requires_grad(y));
  EXPECT_EQ(values(y), (std::vector<double>{1, 2}));
}

TEST(InplaceAutogradTest, DoubleBackwardThroughInplace) {
  Tensor x = tensor64({1}, {0.3}, true);
  Tensor y = multiply(x, x);
  tanh_(y);  // y = tanh(x^2)
  auto g = autograd::grad({y}, {x}, {}, {.create_graph = true});
  auto gg = autograd::grad({g[0]}, {x});
  const double t = std::tanh(0.09), s = 1 - t * t;
  EXPECT_NEAR(values(g[0])[0], 2 * 0.3 * s, 1e-12);
  // d/dx [2x (1 - tanh^2(x^2))] = 2 s - 8 x^2 t s
  EXPECT_NEAR(values(gg[0])[0], 2 * s - 8 * 0.09 * t * s, 1e-12);
}

}  // namespace
}  // namespace skiff::testing
