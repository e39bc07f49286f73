// Optimizers against the textbook update formulas computed on the host in double, the fused
// ops' error messages, parameter groups, decay exclusion, clipping and state dicts.
#include "skiff/optimizer/optimizer.h"

#include <gtest/gtest.h>

#include <cmath>

#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/tensor_util.h"

namespace skiff {
namespace {

using optimizer::AdamOptions;

Tensor param(std::vector<float> v) {
  Tensor t = to_tensor(v, {static_cast<int64_t>(v.size())});
  autograd::set_stop_gradient(t, false);
  return t;
}

void expect_near(const std::vector<float>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

// A fixed gradient sequence g_t = grads[t % 2].
const std::vector<std::vector<float>> kGrads = {{0.5f, -1.0f, 2.0f}, {-0.25f, 0.75f, 1.0f}};
const std::vector<float> kInit = {1.0f, -2.0f, 0.5f};

TEST(OptimizerTest, SgdWithL2MatchesFormula) {
  Tensor p = param(kInit);
  optimizer::SGD opt(0.1, optimizer::name_params({p}), 0.01);
  std::vector<double> ref(kInit.begin(), kInit.end());
  for (int t = 0; t < 4; ++t) {
    set_grad(p, to_tensor(kGrads[t % 2], {3}));
    opt.step();
    for (size_t i = 0; i < 3; ++i) ref[i] -= 0.1 * (kGrads[t % 2][i] + 0.01 * ref[i]);
  }
  expect_near(to_vector<float>(p), ref, 1e-6);
}

TEST(OptimizerTest, MomentumAndNesterovMatchFormula) {
  for (bool nesterov : {false, true}) {
    Tensor p = param(kInit);
    optimizer::Momentum opt(0.1, optimizer::name_params({p}), 0.9, nesterov);
    std::vector<double> ref(kInit.begin(), kInit.end()), v(3, 0.0);
    for (int t = 0; t < 4; ++t) {
      set_grad(p, to_tensor(kGrads[t % 2], {3}));
      opt.step();
      for (size_t i = 0; i < 3; ++i) {
        const double g = kGrads[t % 2][i];
        v[i] = 0.9 * v[i] + g;
        ref[i] -= 0.1 * (nesterov ? g + 0.9 * v[i] : v[i]);
      }
    }
    expect_near(to_vector<float>(p), ref, 1e-6);
  }
}

// Adam / AdamW reference: decoupled selects AdamW's decay.
std::vector<double> adam_reference(bool decoupled, bool amsgrad, double wd, int steps) {
  std::vector<double> p(kInit.begin(), kInit.end()), m(3, 0), v(3, 0), vmax(3, 0);
  const double lr = 0.01, b1 = 0.9, b2 = 0.999, eps = 1e-8;
  for (int t = 1; t <= steps; ++t) {
    for (size_t i = 0; i < 3; ++i) {
      double g = kGrads[(t - 1) % 2][i];
      if (!decoupled) g += wd * p[i];
      m[i] = b1 * m[i] + (1 - b1) * g;
      v[i] = b2 * v[i] + (1 - b2) * g * g;
      vmax[i] = std::max(vmax[i], v[i]);
      if (decoupled) p[i] *= 1 - lr * wd;
      const double vh = (amsgrad ? vmax[i] : v[i]) / (1 - std::pow(b2, t));
      p[i] -= lr * (m[i] / (1 - std::pow(b1, t))) / (std::sqrt(vh) + eps);
    }
  }
  return p;
}

TEST(OptimizerTest, AdamAndAdamWMatchFormula) {
  for (bool amsgrad : {false, true}) {
    Tensor a = param(kInit), w = param(kInit);
    AdamOptions o;
    o.amsgrad = amsgrad;
    optimizer::Adam adam(0.01, optimizer::name_params({a}), o, 0.1);
    optimizer::AdamW adamw(0.01, optimizer::name_params({w}), o, 0.1);
    for (int t = 0; t < 5; ++t) {
      set_grad(a, to_tensor(kGrads[t % 2], {3}));
      set_grad(w, to_tensor(kGrads[t % 2], {3}));
      adam.step();
      adamw.step();
    }
    expect_near(to_vector<float>(a), adam_reference(false, amsgrad, 0.1, 5), 1e-6);
    expect_near(to_vector<float>(w), adam_reference(true, amsgrad, 0.1, 5), 1e-6);
  }
}

TEST(OptimizerTest, AdamWSkipsDecayForExcludedNames) {
  Tensor w = param(kInit), b = param(kInit);
  optimizer::AdamW opt(0.01, {{"fc.weight", w}, {"fc.bias", b}}, {}, 0.1,
                       [](const std::string& n) { return n.find("bias") == std::string::npos; });
  for (int t = 0; t < 3; ++t) {
    set_grad(w, to_tensor(kGrads[t % 2], {3}));
    set_grad(b, to_tensor(kGrads[t % 2], {3}));
    opt.step();
  }
  expect_near(to_vector<float>(w), adam_reference(true, false, 0.1, 3), 1e-6);
  expect_near(to_vector<float>(b), adam_reference(true, false, 0.0, 3), 1e-6);
}

TEST(OptimizerTest, ParamGroupsScaleTheRateAndOverrideDecay) {
  Tensor a = param(kInit), b = param(kInit);
  std::vector<optimizer::ParamGroup> groups = {{{{"a", a}}, std::nullopt, std::nullopt},
                                               {{{"b", b}}, 0.5, 0.2}};
  optimizer::SGD opt(0.1, groups);
  set_grad(a, to_tensor(kGrads[0], {3}));
  set_grad(b, to_tensor(kGrads[0], {3}));
  opt.step();
  std::vector<double> ra, rb;
  for (size_t i = 0; i < 3; ++i) {
    ra.push_back(kInit[i] - 0.1 * kGrads[0][i]);
    rb.push_back(kInit[i] - 0.05 * (kGrads[0][i] + 0.2 * kInit[i]));
  }
  expect_near(to_vector<float>(a), ra, 1e-6);
  expect_near(to_vector<float>(b), rb, 1e-6);
}

TEST(OptimizerTest, ParametersWithoutGradientsAreSkipped) {
  Tensor a = param(kInit), b = param(kInit);
  optimizer::Adam opt(0.01, optimizer::name_params({a, b}));
  set_grad(a, to_tensor(kGrads[0], {3}));
  opt.step();
  expect_near(to_vector<float>(b), {1.0, -2.0, 0.5}, 0);
  EXPECT_NE(to_vector<float>(a)[0], 1.0f);
  EXPECT_FALSE(opt.state_dict().contains("param_1.moment1"));
}

TEST(OptimizerTest, ClearGradDropsOrZeroes) {
  Tensor a = param(kInit);
  optimizer::SGD opt(0.1, optimizer::name_params({a}));
  set_grad(a, to_tensor(kGrads[0], {3}));
  opt.clear_grad();
  expect_near(to_vector<float>(grad_of(a)), {0, 0, 0}, 0);
  opt.clear_grad(false);
  EXPECT_FALSE(grad_of(a).defined());
}

TEST(OptimizerTest, ClipGradByGlobalNormScalesAllGradients) {
  Tensor a = param({0, 0}), b = param({0});
  set_grad(a, to_tensor(std::vector<float>{3, 0}, {2}));
  set_grad(b, to_tensor(std::vector<float>{4}, {1}));
  EXPECT_DOUBLE_EQ(optimizer::ClipGradByGlobalNorm::global_norm({a, b}), 5.0);
  optimizer::ClipGradByGlobalNorm(1.0)({a, b});
  expect_near(to_vector<float>(grad_of(a)), {0.6, 0}, 1e-6);
  expect_near(to_vector<float>(grad_of(b)), {0.8}, 1e-6);
  optimizer::ClipGradByGlobalNorm(10.0)({a, b});  // below the norm: unchanged
  expect_near(to_vector<float>(grad_of(b)), {0.8}, 1e-6);
}

TEST(OptimizerTest, ClipGradByValueClamps) {
  Tensor a = param({0, 0, 0});
  set_grad(a, to_tensor(std::vector<float>{-3, 0.5, 2}, {3}));
  optimizer::ClipGradByValue(1.0)({a});
  expect_near(to_vector<float>(grad_of(a)), {-1, 0.5, 1}, 0);
}

TEST(OptimizerTest, StepAppliesTheClip) {
  Tensor a = param({0, 0});
  optimizer::SGD opt(1.0, optimizer::name_params({a}), 0.0,
                     std::make_shared<optimizer::ClipGradByGlobalNorm>(1.0));
  set_grad(a, to_tensor(std::vector<float>{3, 4}, {2}));
  opt.step();
  expect_near(to_vector<float>(a), {-0.6, -0.8}, 1e-6);
}

TEST(OptimizerTest, StateDictRestoresTraining) {
  // Train 3 steps, save, continue 2 steps; a fresh optimizer loaded from the saved state and
  // parameters must reach the same values.
  Tensor a = param(kInit);
  auto sched = std::make_shared<optimizer::lr::StepDecay>(0.01, 2, 0.5);
  optimizer::Adam opt(sched, optimizer::name_params({a}), AdamOptions{.amsgrad = true});
  auto run = [&](optimizer::Optimizer& o, Tensor& p, optimizer::lr::LRScheduler& s, int from,
                 int to) {
    for (int t = from; t < to; ++t) {
      set_grad(p, to_tensor(kGrads[t % 2], {3}));
      o.step();
      s.step();
    }
  };
  run(opt, a, *sched, 0, 3);
  const StateDict saved = opt.state_dict();
  StateDict saved_copy;
  for (const auto& [k, v] : saved) saved_copy.set(k, Tensor(v.dense().copy_to(Place::cpu())));
  Tensor b = param(to_vector<float>(a));
  run(opt, a, *sched, 3, 5);

  auto sched2 = std::make_shared<optimizer::lr::StepDecay>(0.01, 2, 0.5);
  optimizer::Adam opt2(sched2, optimizer::name_params({b}), AdamOptions{.amsgrad = true});
  opt2.set_state_dict(saved_copy);
  EXPECT_EQ(opt2.step_count(), 3);
  EXPECT_EQ(sched2->last_epoch(), 3);
  run(opt2, b, *sched2, 3, 5);
  EXPECT_EQ(to_vector<float>(a), to_vector<float>(b));
  for (const char* key : {"param_0.moment1", "param_0.moment2", "param_0.moment2_max", "step",
                          "LR_Scheduler.last_epoch"}) {
    EXPECT_TRUE(saved.contains(key)) << key;
  }
}

TEST(OptimizerTest, SetStateDictRejectsUnknownKeysAndShapes) {
  Tensor a = param(kInit);
  optimizer::Adam opt(0.01, optimizer::name_params({a}));
  StateDict bad;
  bad.set("param_9.moment1", zeros({3}));
  try {
    opt.set_state_dict(bad);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'param_9.moment1'"), std::string::npos) << e.what();
  }
  StateDict shape;
  shape.set("param_0.moment2", zeros({4}));
  try {
    opt.set_state_dict(shape);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("dims [3]"), std::string::npos) << e.what();
  }
}

TEST(OptimizerTest, DuplicateNamesAndIntegerParametersAreRejected) {
  Tensor a = param(kInit);
  EXPECT_THROW(optimizer::SGD(0.1, {{"w", a}, {"w", a}}), Error);
  EXPECT_THROW(optimizer::SGD(0.1, {{"i", to_tensor(std::vector<int64_t>{1}, {1})}}), Error);
}

TEST(OptimizerTest, BFloat16ParamsKeepFloat32Moments) {
  Tensor p = cast(to_tensor(kInit, {3}), DType::kBFloat16);
  autograd::set_stop_gradient(p, false);
  optimizer::AdamW opt(0.01, optimizer::name_params({p}));
  set_grad(p, cast(to_tensor(kGrads[0], {3}), DType::kBFloat16));
  opt.step();
  EXPECT_EQ(p.dtype(), DType::kBFloat16);
  EXPECT_EQ(opt.state_dict().at("param_0.moment1").dtype(), DType::kFloat32);
  const auto got = to_vector<float>(cast(p, DType::kFloat32));
  const auto want = adam_reference(true, false, 0.01, 1);
  for (size_t i = 0; i < 3; ++i) EXPECT_NEAR(got[i], want[i], 0.01) << i;
}

// The fused ops' messages --------------------------------------------------------------------

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(FusedOptimizerOpsTest, BadInputsNameTheArgument) {
  const Tensor p = zeros({3}), g = zeros({3}), lr = full({}, Scalar(0.1));
  EXPECT_EQ(error_of([&] {
              fused_sgd_({p, p}, {g}, lr);
            }),
            "(InvalidArgument) fused_sgd_: argument 'grads' expected 2 tensors (one per "
            "parameter), got 1 tensors");
  EXPECT_EQ(error_of([&] { fused_sgd_({p}, {zeros({4})}, lr); }),
            "(InvalidArgument) fused_sgd_: argument 'grads[0]' expected dims [3] (those of "
            "params[0]), got [4]");
  EXPECT_EQ(error_of([&] { fused_sgd_({p}, {zeros({3}, DType::kFloat64)}, lr); }),
            "(InvalidType) fused_sgd_: argument 'grads[0]' expected float32 (the dtype of "
            "params[0]), got "
            "float64");
  EXPECT_EQ(error_of([&] { fused_sgd_({p}, {g}, zeros({2})); }),
            "(InvalidArgument) fused_sgd_: argument 'learning_rate' expected a tensor of one "
            "element, got dims [2]");
  EXPECT_EQ(
      error_of([&] { fused_sgd_({p}, {g}, full({}, Scalar(1), DType::kInt64)); }),
      "(InvalidType) fused_sgd_: argument 'learning_rate' expected a float32 tensor, got int64");
  EXPECT_EQ(
      error_of([&] { fused_momentum_({p}, {g}, {zeros({3}, DType::kBFloat16)}, lr); }),
      "(InvalidType) fused_momentum_: argument 'velocity[0]' expected float32 (state of a float32 "
      "parameter), got bfloat16");
  const Tensor step = full({}, Scalar(1.0));
  EXPECT_EQ(error_of([&] { fused_adam_({p}, {g}, {g}, {g}, {g}, lr, step); }),
            "(InvalidArgument) fused_adam_: argument 'moment2_max' expected an empty list (amsgrad "
            "is false), got 1 "
            "tensors");
  EXPECT_EQ(error_of([&] { fused_adamw_({p}, {g}, {g}, {g}, {}, lr, full({}, Scalar(0.0))); }),
            "(InvalidArgument) fused_adamw_: argument 'step' expected a step number >= 1, got 0");
  EXPECT_EQ(
      error_of([&] {
        fused_sgd_({to_tensor(std::vector<int64_t>{1}, {1})},
                   {to_tensor(std::vector<int64_t>{1}, {1})}, lr);
      }),
      "(InvalidType) fused_sgd_: argument 'params[0]' expected a floating-point tensor, got int64");
}

TEST(FusedOptimizerOpsTest, StridedParametersAreUpdatedThroughTheirView) {
  const Tensor base = to_tensor(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor view = transpose(base, {1, 0});  // [3, 2], not contiguous
  const Tensor g = ones({3, 2});
  const uint32_t version = base.dense().storage()->version();
  fused_sgd_({view}, {g}, full({}, Scalar(0.5)));
  EXPECT_EQ(to_vector<float>(base), (std::vector<float>{0.5, 1.5, 2.5, 3.5, 4.5, 5.5}));
  EXPECT_GT(base.dense().storage()->version(), version);
}

TEST(FusedOptimizerOpsTest, UpdatesInPlaceAndReturnsTheSameStorage) {
  const Tensor p = ones({5}), g = ones({5}), lr = full({}, Scalar(0.5));
  const auto out = fused_sgd_({p}, {g}, lr);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].dense().shares_storage_with(p.dense()));
  expect_near(to_vector<float>(p), {0.5, 0.5, 0.5, 0.5, 0.5}, 0);
}

}  // namespace
}  // namespace skiff
