// OpDb entries of the linalg, convolution and pooling ops.
#include "op_db.h"

namespace skiff::testing {

namespace {
using IntList = std::vector<int64_t>;

// conv2d sums C*KH*KW = 72 products (terms of order 1) in float32 in the order of oneDNN's
// blocked direct kernels: on outputs near zero (cancellation) the absolute error reaches about
// 5e-6, above float32's atol (2e-6) though within sqrt(72) * eps * |terms|. The GEMM samples
// (K <= 32) pass the plain per-dtype tolerances.
constexpr double kConvTolerance = 4.0;

OpSample linear_sample(Dims x, Dims w, std::optional<Dims> bias) {
  OpSample s;
  s.shapes = {{x}, {w}, bias ? std::vector<Dims>{*bias} : std::vector<Dims>{}};
  return s;
}

OpSample pool(Dims x, std::map<std::string, ops::AttrValue> attrs) {
  return sample({x}, std::move(attrs));
}
}  // namespace

void add_linalg_op_infos(OpDb& db) {
  db.add({
      .name = "matmul",
      .samples = {sample({{3, 4}, {4, 5}}),
                  sample({{2, 3, 4}, {4, 5}}),        // y broadcast over x's batch
                  sample({{2, 1, 3, 4}, {3, 4, 2}}),  // both broadcast
                  sample({{3, 4}, {2, 4, 2}}),        // x broadcast over y's batch
                  sample({{4}, {4}}),                 // 1-D . 1-D -> rank 0
                  sample({{4}, {2, 4, 3}}), sample({{2, 3, 4}, {4}}),
                  sample({{4, 3}, {4, 5}}, {{"transpose_x", true}}),
                  sample({{2, 3, 4}, {2, 5, 4}}, {{"transpose_y", true}}),
                  sample({{2, 2, 4, 3}, {5, 4}}, {{"transpose_x", true}, {"transpose_y", true}}),
                  sample({{0, 4}, {4, 5}}),
                  sample({{3, 0}, {0, 5}}),         // empty contraction gives zeros
                  sample({{256, 32}, {32, 160}})},  // multi-threaded
  });
  db.add({.name = "bmm",
          .samples = {sample({{2, 3, 4}, {2, 4, 5}}), sample({{1, 1, 1}, {1, 1, 7}}),
                      sample({{0, 3, 4}, {0, 4, 2}}), sample({{4, 64, 32}, {4, 32, 160}})}});
  db.add({.name = "dot",
          .samples = {sample({{5}, {5}}), sample({{3, 7}, {3, 7}}), sample({{0}, {0}}),
                      sample({{2, 0}, {2, 0}}), sample({{300, 200}, {300, 200}})}});
  db.add({.name = "outer",
          .samples = {sample({{3}, {4}}), sample({{}, {5}}), sample({{2, 3}, {4}}),
                      sample({{0}, {3}}), sample({{200}, {250}})}});
  db.add({.name = "addmm",
          .samples = {sample({{3, 5}, {3, 4}, {4, 5}}, {{"beta", 0.5}, {"alpha", 2.0}}),
                      sample({{5}, {3, 4}, {4, 5}}), sample({{}, {2, 3}, {3, 2}}, {{"beta", -1.0}}),
                      sample({{3, 1}, {3, 0}, {0, 2}}, {{"alpha", 3.0}}),
                      sample({{1, 5}, {0, 4}, {4, 5}}),
                      sample({{200, 200}, {200, 16}, {16, 200}}, {{"beta", 0.25}})}});
  db.add({.name = "linear",
          .samples = {linear_sample({3, 4}, {4, 5}, Dims{5}),
                      linear_sample({2, 3, 4}, {4, 5}, std::nullopt),
                      linear_sample({4}, {4, 3}, Dims{3}), linear_sample({0, 4}, {4, 3}, Dims{3}),
                      linear_sample({2, 0}, {0, 3}, Dims{3}),
                      linear_sample({512, 32}, {32, 80}, Dims{80})}});

  db.add(
      {.name = "conv2d",
       .samples = {sample({{1, 2, 5, 5}, {3, 2, 3, 3}}),
                   sample({{2, 3, 7, 6}, {4, 3, 3, 3}},
                          {{"strides", IntList{2, 2}}, {"paddings", IntList{1, 1}}}),
                   sample({{1, 4, 7, 7}, {6, 2, 3, 3}}, {{"groups", int64_t{2}},
                                                         {"dilations", IntList{2, 2}},
                                                         {"paddings", IntList{1, 2}}}),
                   sample({{1, 2, 6, 5}, {2, 2, 3, 2}}, {{"paddings", IntList{1, 0, 2, 1}}}),
                   sample({{1, 2, 6, 5}, {2, 2, 3, 2}},
                          {{"strides", IntList{2, 1}}, {"padding_algorithm", std::string("SAME")}}),
                   sample(
                       {{1, 2, 6, 5}, {2, 2, 3, 2}},
                       {{"paddings", IntList{3, 3}}, {"padding_algorithm", std::string("VALID")}}),
                   sample({{1, 5, 5, 3}, {2, 3, 3, 3}},
                          {{"data_format", std::string("NHWC")}, {"paddings", IntList{1, 1}}}),
                   sample({{1, 3, 6, 6}, {3, 1, 3, 3}}, {{"groups", int64_t{3}}}),  // depthwise
                   sample({{0, 2, 5, 5}, {3, 2, 3, 3}}),
                   sample({{2, 8, 40, 40}, {16, 8, 3, 3}}, {{"paddings", IntList{1, 1}}})},
       .tolerance_scale = kConvTolerance});

  const ops::AttrValue k2 = IntList{2, 2}, k3 = IntList{3, 3}, s2 = IntList{2, 2},
                       p1 = IntList{1, 1};
  const ops::AttrValue avg = std::string("avg");
  db.add(
      {.name = "pool2d",
       .samples =
           {pool({1, 2, 5, 5}, {{"kernel_size", k2}, {"strides", s2}}),
            pool({1, 2, 5, 5},
                 {{"kernel_size", k3}, {"strides", s2}, {"paddings", p1}, {"pooling_type", avg}}),
            pool({1, 2, 5, 5}, {{"kernel_size", k3},
                                {"strides", s2},
                                {"paddings", p1},
                                {"pooling_type", avg},
                                {"exclusive", false}}),
            pool({1, 2, 6, 6}, {{"kernel_size", k3}, {"strides", s2}, {"ceil_mode", true}}),
            pool(
                {1, 2, 6, 6},
                {{"kernel_size", k3}, {"strides", s2}, {"ceil_mode", true}, {"pooling_type", avg}}),
            pool({2, 3, 4, 5},
                 {{"kernel_size", k2}, {"global_pooling", true}, {"pooling_type", avg}}),
            pool({1, 3, 7, 5},
                 {{"kernel_size", IntList{3, 2}}, {"adaptive", true}, {"pooling_type", avg}}),
            pool({1, 3, 7, 5}, {{"kernel_size", IntList{4, 3}}, {"adaptive", true}}),
            pool(
                {1, 5, 5, 3},
                {{"kernel_size", k2}, {"data_format", std::string("NHWC")}, {"pooling_type", avg}}),
            pool({1, 2, 7, 6}, {{"kernel_size", k3},
                                {"strides", s2},
                                {"padding_algorithm", std::string("SAME")},
                                {"pooling_type", avg}}),
            pool({1, 2, 6, 7}, {{"kernel_size", IntList{3, 2}}, {"paddings", IntList{1, 0, 0, 1}}}),
            pool({0, 2, 4, 4}, {{"kernel_size", k2}}),
            pool({2, 16, 80, 80}, {{"kernel_size", k2}, {"strides", s2}, {"pooling_type", avg}})},
       // Max pooling has no second order (pool2d_grad's own rule is for avg pooling only).
       .check_gradgrad = false});
  // conv2d_grad: (input, filter, out_grad) with out_grad of the convolution's output shape.
  // Filter gradients sum over N * OH * OW products: a looser scale than the forward's.
  db.add(
      {.name = "conv2d_grad",
       .samples = {sample({{1, 2, 5, 5}, {3, 2, 3, 3}, {1, 3, 3, 3}}),
                   sample({{2, 3, 7, 6}, {4, 3, 3, 3}, {2, 4, 4, 3}},
                          {{"strides", IntList{2, 2}}, {"paddings", IntList{1, 1}}}),
                   sample({{1, 4, 7, 7}, {6, 2, 3, 3}, {1, 6, 5, 7}},
                          {{"groups", int64_t{2}},
                           {"dilations", IntList{2, 2}},
                           {"paddings", IntList{1, 2}}}),
                   sample({{1, 2, 6, 5}, {2, 2, 3, 2}, {1, 2, 3, 5}},
                          {{"strides", IntList{2, 1}}, {"padding_algorithm", std::string("SAME")}}),
                   sample({{1, 2, 6, 5}, {2, 2, 3, 2}, {1, 2, 5, 7}},
                          {{"paddings", IntList{1, 0, 2, 1}}}),
                   sample({{1, 5, 5, 3}, {2, 3, 3, 3}, {1, 5, 5, 2}},
                          {{"data_format", std::string("NHWC")}, {"paddings", IntList{1, 1}}}),
                   sample({{1, 3, 6, 6}, {3, 1, 3, 3}, {1, 3, 4, 4}}, {{"groups", int64_t{3}}}),
                   sample({{0, 2, 5, 5}, {3, 2, 3, 3}, {0, 3, 3, 3}}),
                   sample({{2, 8, 20, 20}, {16, 8, 3, 3}, {2, 16, 20, 20}},
                          {{"paddings", IntList{1, 1}}})},
       .tolerance_scale = 4 * kConvTolerance});

  // pool2d_grad: (x, out, out_grad). x and out are all ones, so out is pool2d(x) for max
  // pooling (the gradient goes to the first element of each window: ties on purpose) and avg
  // pooling ignores them. Its own gradient exists for avg pooling only (tested separately).
  const InputMaker ones = [](int, const Dims& dims, DType dtype, std::mt19937_64&) {
    return make_tensor(dims, dtype, std::vector<double>(dims.numel(), 1.0));
  };
  auto pool_grad = [](Dims x, Dims out, std::map<std::string, ops::AttrValue> attrs) {
    return sample({x, out, out}, std::move(attrs));
  };
  db.add(
      {.name = "pool2d_grad",
       .samples =
           {pool_grad({1, 2, 5, 5}, {1, 2, 2, 2}, {{"kernel_size", k2}, {"strides", s2}}),
            pool_grad(
                {1, 2, 5, 5}, {1, 2, 3, 3},
                {{"kernel_size", k3}, {"strides", s2}, {"paddings", p1}, {"pooling_type", avg}}),
            pool_grad({1, 2, 5, 5}, {1, 2, 3, 3},
                      {{"kernel_size", k3},
                       {"strides", s2},
                       {"paddings", p1},
                       {"pooling_type", avg},
                       {"exclusive", false}}),
            pool_grad({1, 2, 6, 6}, {1, 2, 3, 3},
                      {{"kernel_size", k3}, {"strides", s2}, {"ceil_mode", true}}),
            pool_grad({2, 3, 4, 5}, {2, 3, 1, 1},
                      {{"kernel_size", k2}, {"global_pooling", true}, {"pooling_type", avg}}),
            pool_grad({1, 3, 7, 5}, {1, 3, 3, 2},
                      {{"kernel_size", IntList{3, 2}}, {"adaptive", true}, {"pooling_type", avg}}),
            pool_grad({1, 3, 7, 5}, {1, 3, 4, 3},
                      {{"kernel_size", IntList{4, 3}}, {"adaptive", true}}),
            pool_grad({1, 5, 5, 3}, {1, 4, 4, 3},
                      {{"kernel_size", k2}, {"data_format", std::string("NHWC")}}),
            pool_grad({1, 2, 7, 6}, {1, 2, 4, 3},
                      {{"kernel_size", k3},
                       {"strides", s2},
                       {"padding_algorithm", std::string("SAME")},
                       {"pooling_type", avg}}),
            pool_grad({1, 2, 6, 7}, {1, 2, 5, 7},
                      {{"kernel_size", IntList{3, 2}}, {"paddings", IntList{1, 0, 0, 1}}}),
            pool_grad({0, 2, 4, 4}, {0, 2, 3, 3}, {{"kernel_size", k2}}),
            pool_grad({2, 16, 80, 80}, {2, 16, 40, 40},
                      {{"kernel_size", k2}, {"strides", s2}, {"pooling_type", avg}})},
       .input_makers = {{0, ones}, {1, ones}},
       .check_grad = false});
}

}  // namespace skiff::testing
