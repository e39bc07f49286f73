// nn::Layer bookkeeping (names, state dicts, modes, dtype) and the layers' forward passes
// against the ops they are made of.
#include <gtest/gtest.h>

#include <cmath>

#include "skiff/core/generator.h"
#include "skiff/nn/activation.h"
#include "skiff/nn/common.h"
#include "skiff/nn/container.h"
#include "skiff/nn/conv.h"
#include "skiff/nn/norm.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/tensor_util.h"

namespace skiff::nn {
namespace {

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

struct Block : Layer {
  std::shared_ptr<Linear> fc1, fc2;
  std::shared_ptr<BatchNorm2D> bn;
  Block() {
    fc1 = add_sublayer("fc1", std::make_shared<Linear>(4, 3));
    fc2 = add_sublayer("fc2", std::make_shared<Linear>(3, 2, false));
    bn = add_sublayer("bn", std::make_shared<BatchNorm2D>(2));
  }
};

std::vector<std::string> names(const std::vector<std::pair<std::string, Tensor>>& v) {
  std::vector<std::string> out;
  for (const auto& [n, t] : v) out.push_back(n);
  return out;
}

TEST(LayerTest, NamesFollowRegistrationOrder) {
  Block b;
  EXPECT_EQ(
      names(b.named_parameters()),
      (std::vector<std::string>{"fc1.weight", "fc1.bias", "fc2.weight", "bn.weight", "bn.bias"}));
  EXPECT_EQ(names(b.named_buffers()), (std::vector<std::string>{"bn._mean", "bn._variance"}));
  const StateDict state = b.state_dict();
  EXPECT_EQ(names(std::vector<std::pair<std::string, Tensor>>(state.begin(), state.end())),
            (std::vector<std::string>{"fc1.weight", "fc1.bias", "fc2.weight", "bn.weight",
                                      "bn.bias", "bn._mean", "bn._variance"}));
  EXPECT_EQ(b.named_sublayers().size(), 3u);
  EXPECT_EQ(b.named_sublayers()[2].first, "bn");
  EXPECT_FALSE(autograd::autograd_meta(b.fc1->weight)->stop_gradient);
  EXPECT_EQ(b.fc1->weight.shape(), (std::vector<int64_t>{4, 3}));  // Paddle's [in, out]
}

TEST(LayerTest, NestedSequentialNamesAreIndices) {
  Sequential s{std::make_shared<Linear>(2, 2),
               std::make_shared<Sequential>(std::initializer_list<std::shared_ptr<Layer>>{
                   std::make_shared<ReLU>(), std::make_shared<Linear>(2, 1)})};
  EXPECT_EQ(names(s.named_parameters()),
            (std::vector<std::string>{"0.weight", "0.bias", "1.1.weight", "1.1.bias"}));
}

TEST(LayerTest, SetStateDictCopiesIntoTheSameTensors) {
  Block a, b;
  const Tensor handle = b.fc1->weight;
  b.set_state_dict(a.state_dict());
  EXPECT_EQ(to_vector<float>(handle), to_vector<float>(a.fc1->weight));
  EXPECT_EQ(b.fc1->weight.impl(), handle.impl());
}

TEST(LayerTest, StrictSetStateDictListsMissingAndUnexpectedKeys) {
  Block a;
  StateDict s = a.state_dict().with_prefix("");
  StateDict partial;
  for (const auto& [k, v] : s) {
    if (k != "fc2.weight") partial.set(k, v);
  }
  partial.set("extra", zeros({1}));
  EXPECT_EQ(error_of([&] { a.set_state_dict(partial); }),
            "(InvalidArgument) set_state_dict: argument 'state' expected exactly the keys of the "
            "layer's state "
            "dict, got missing keys [fc2.weight], unexpected keys [extra]");
  const auto r = a.set_state_dict(partial, false);
  EXPECT_EQ(r.missing_keys, std::vector<std::string>{"fc2.weight"});
  EXPECT_EQ(r.unexpected_keys, std::vector<std::string>{"extra"});
  StateDict wrong = a.state_dict();
  wrong.set("fc1.bias", zeros({4}));
  EXPECT_EQ(error_of([&] { a.set_state_dict(wrong); }),
            "(InvalidArgument) set_state_dict: argument 'fc1.bias' expected a tensor of dims [3], "
            "got [4]");
}

TEST(LayerTest, DuplicateAndDottedNamesAreRejected) {
  Layer l;
  l.add_parameter("w", zeros({1}));
  EXPECT_EQ(error_of([&] { l.add_parameter("w", zeros({1})); }),
            "(InvalidArgument) Layer: argument 'name' expected a name not yet used in this layer, "
            "got 'w', already "
            "registered");
  EXPECT_EQ(
      error_of([&] { l.register_buffer("a.b", zeros({1})); }),
      "(InvalidArgument) Layer: argument 'name' expected a non-empty name without '.', got 'a.b'");
}

TEST(LayerTest, TrainEvalReachSublayers) {
  Block b;
  b.eval();
  EXPECT_FALSE(b.bn->training());
  b.train();
  EXPECT_TRUE(b.fc1->training());
}

TEST(LayerTest, ToDtypeKeepsHandlesAndTrainability) {
  Block b;
  const Tensor w = b.fc1->weight;
  b.to(DType::kFloat64);
  EXPECT_EQ(w.dtype(), DType::kFloat64);
  EXPECT_EQ(b.bn->running_mean.dtype(), DType::kFloat64);
  EXPECT_FALSE(autograd::autograd_meta(w)->stop_gradient);
  const Tensor y = b.fc1->forward(ones({2, 4}, DType::kFloat64));
  EXPECT_EQ(y.dtype(), DType::kFloat64);
}

TEST(LayerTest, LinearIsMatmulPlusBias) {
  Linear l(3, 2);
  const Tensor x = to_tensor(std::vector<float>{1, 2, 3, -1, 0, 1}, {2, 3});
  const auto got = to_vector<float>(l(x));
  const auto want = to_vector<float>(add(matmul(x, l.weight), l.bias));
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-6);
  const Tensor loss = sum(l(x));
  autograd::backward({loss});
  EXPECT_EQ(to_vector<float>(grad_of(l.bias)), (std::vector<float>{2, 2}));
}

TEST(LayerTest, EmbeddingPaddingRowIsZeroAndGetsNoGradient) {
  Embedding e(5, 3, -1);  // padding_idx 4
  EXPECT_EQ(to_vector<float>(slice(e.weight, {0}, {4}, {5})), (std::vector<float>{0, 0, 0}));
  const Tensor ids = to_tensor(std::vector<int64_t>{4, 1, 4}, {3});
  autograd::backward({sum(e(ids))});
  const auto g = to_vector<float>(grad_of(e.weight));
  EXPECT_EQ(std::vector<float>(g.begin() + 12, g.end()), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(std::vector<float>(g.begin() + 3, g.begin() + 6), (std::vector<float>{1, 1, 1}));
}

TEST(LayerTest, DropoutIsIdentityInEval) {
  Dropout d(0.5);
  d.eval();
  const Tensor x = ones({4, 4});
  EXPECT_EQ(to_vector<float>(d(x)), to_vector<float>(x));
  d.train();
  const auto y = to_vector<float>(d(ones({64, 64})));
  for (float v : y) EXPECT_TRUE(v == 0.0f || v == 2.0f);
}

TEST(LayerTest, BatchNormUsesBatchStatsAndUpdatesRunningOnes) {
  BatchNorm2D bn(2, 0.9);
  // Channel 0 holds 0..3, channel 1 holds 10 everywhere; N = 2, H = 1, W = 2.
  const Tensor x = to_tensor(std::vector<float>{0, 1, 10, 10, 2, 3, 10, 10}, {2, 2, 1, 2});
  const auto y = to_vector<float>(bn(x));
  const double inv = 1 / std::sqrt(1.25 + 1e-5);  // channel 0: mean 1.5, biased var 1.25
  EXPECT_NEAR(y[0], -1.5 * inv, 1e-5);
  EXPECT_NEAR(y[5], 1.5 * inv, 1e-5);
  EXPECT_NEAR(y[2], 0.0, 1e-5);
  const auto rm = to_vector<float>(bn.running_mean), rv = to_vector<float>(bn.running_var);
  EXPECT_NEAR(rm[0], 0.1 * 1.5, 1e-6);
  EXPECT_NEAR(rm[1], 0.1 * 10, 1e-5);
  EXPECT_NEAR(rv[0], 0.9 + 0.1 * 1.25, 1e-6);
  EXPECT_NEAR(rv[1], 0.9, 1e-6);
  bn.eval();
  const auto e = to_vector<float>(bn(x));
  EXPECT_NEAR(e[2], (10 - 1.0) / std::sqrt(0.9 + 1e-5), 1e-4);
}

TEST(LayerTest, LayerNormAndRMSNormNormalizeTrailingDims) {
  LayerNorm ln({4});
  const Tensor x = to_tensor(std::vector<float>{1, 2, 3, 4, 2, 2, 2, 2}, {2, 4});
  const auto y = to_vector<float>(ln(x));
  EXPECT_NEAR(y[0], -1.5 / std::sqrt(1.25 + 1e-5), 1e-5);
  EXPECT_NEAR(y[4], 0.0, 1e-5);
  EXPECT_EQ(error_of([&] {
              ln(ones({2, 3}));
            }),
            "(InvalidArgument) LayerNorm: argument 'x' expected a tensor whose trailing dims are "
            "[4], got [2, 3]");
  RMSNorm rms(4);
  const auto r = to_vector<float>(rms(x));
  EXPECT_NEAR(r[5], 1.0, 1e-5);
}

TEST(LayerTest, ConvAndPoolShapes) {
  Conv2D conv(3, 8, {3}, {1}, {1});
  EXPECT_EQ(conv.weight.shape(), (std::vector<int64_t>{8, 3, 3, 3}));
  const Tensor y = conv(ones({2, 3, 8, 8}));
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 8, 8, 8}));
  EXPECT_EQ(MaxPool2D({2})(y).shape(), (std::vector<int64_t>{2, 8, 4, 4}));
  EXPECT_EQ(AvgPool2D({2}, {1})(y).shape(), (std::vector<int64_t>{2, 8, 7, 7}));
  const auto avg =
      to_vector<float>(AvgPool2D({2})(to_tensor(std::vector<float>{1, 2, 3, 4}, {1, 1, 2, 2})));
  EXPECT_EQ(avg, std::vector<float>{2.5f});
  autograd::backward({sum(MaxPool2D({2})(y))});
  EXPECT_EQ(grad_of(conv.weight).shape(), conv.weight.shape());
  EXPECT_EQ(grad_of(conv.bias).shape(), (std::vector<int64_t>{8}));
}

TEST(LayerTest, LayerListIndexing) {
  LayerList list{std::make_shared<ReLU>(), std::make_shared<Tanh>()};
  EXPECT_EQ(list.size(), 2u);
  EXPECT_EQ(list[-1].get(), list[1].get());
  EXPECT_EQ(error_of([&] { list[2]; }),
            "(OutOfRange) LayerList: argument 'index' expected in [-2, 2), got 2");
}

TEST(LayerTest, ActivationsMatchOps) {
  const Tensor x = to_tensor(std::vector<float>{-2, -0.5, 0, 0.5, 2}, {5});
  EXPECT_EQ(to_vector<float>(ReLU()(x)), to_vector<float>(relu(x)));
  EXPECT_EQ(to_vector<float>(GELU(true)(x)), to_vector<float>(gelu(x, true)));
  EXPECT_EQ(to_vector<float>(Softmax(0)(x)), to_vector<float>(softmax(x, 0)));
  EXPECT_EQ(to_vector<float>(LeakyReLU(0.2)(x))[0], -0.4f);
}

TEST(LayerTest, ForwardOfABaseLayerIsUnimplemented) {
  Layer l;
  EXPECT_EQ(error_of([&] { l(ones({1})); }),
            "(Unimplemented) Layer::forward: argument 'x' expected a layer with a single-input "
            "forward, got a "
            "layer that does not define one");
}

TEST(InitializerTest, SeededAndShaped) {
  manual_seed_all(7);
  const Tensor a = XavierUniform().generate({64, 32}, DType::kFloat32);
  manual_seed_all(7);
  const Tensor b = XavierUniform().generate({64, 32}, DType::kFloat32);
  EXPECT_EQ(to_vector<float>(a), to_vector<float>(b));
  const double limit = std::sqrt(6.0 / 96);
  for (float v : to_vector<float>(a)) EXPECT_LE(std::abs(v), limit);
  for (float v : to_vector<float>(TruncatedNormal(1.0, 0.5).generate({4096}, DType::kFloat32))) {
    EXPECT_GE(v, 0.0f);
    EXPECT_LE(v, 2.0f);
  }
  const auto k = to_vector<float>(KaimingNormal().generate({512, 256}, DType::kFloat32));
  double ss = 0;
  for (float v : k) ss += v * v;
  EXPECT_NEAR(std::sqrt(ss / k.size()), std::sqrt(2.0 / 512), 0.005);
  EXPECT_EQ(compute_fans({8, 3, 3, 3}), (std::pair<double, double>{27, 72}));
  EXPECT_EQ(to_vector<double>(Constant(0.5).generate({2}, DType::kFloat64)),
            (std::vector<double>{0.5, 0.5}));
  EXPECT_THROW(calculate_gain("nope"), Error);
}

}  // namespace
}  // namespace skiff::nn
