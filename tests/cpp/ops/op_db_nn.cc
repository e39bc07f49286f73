// OpDb entries of the nn ops.
#include "op_db.h"

namespace skiff::testing {

namespace {

using ops::AttrValue;
using Attrs = std::map<std::string, AttrValue>;

// Integer ids in [lo, hi) of `dtype`; with `ignore` set, about one in eight is that value.
InputMaker ids_in(int64_t lo, int64_t hi, std::optional<int64_t> ignore = std::nullopt) {
  return [=](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    std::uniform_int_distribution<int64_t> pick(lo, hi - 1);
    std::vector<double> v(dims.numel());
    for (auto& x : v) x = static_cast<double>(ignore && rng() % 8 == 0 ? *ignore : pick(rng));
    return make_tensor(dims, dtype, v);
  };
}

std::vector<OpSample> softmax_samples() {
  return {sample({{3, 5}}),
          sample({{2, 3, 4}}, {{"axis", int64_t{1}}}),
          sample({{2, 3, 4}}, {{"axis", int64_t{0}}}),
          sample({{2, 3, 4}}, {{"axis", int64_t{-3}}}),
          sample({{}}),
          sample({{7}}, {{"axis", int64_t{0}}}),
          sample({{0, 4}}),
          sample({{4, 0}}, {{"axis", int64_t{0}}}),
          sample({{64, 1000}}),                             // threads over rows
          sample({{6, 40, 300}}, {{"axis", int64_t{1}}})};  // threads over column blocks
}

InputMaker positive_values() {
  return [](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    return random_tensor(dims, dtype, Domain::kPositive, rng);
  };
}

// batch_norm: x, mean, variance, scale, bias. Training (batch statistics), eval, global and
// trainable statistics, channels first and last, ranks 2-5, no affine parameters, zero size,
// and large ones that split over threads (channels first by channel, channels last by chunks).
std::vector<OpSample> batch_norm_samples() {
  const AttrValue nhwc = std::string("NHWC"), nlc = std::string("NLC");
  return {
      with_optional({{{4, 3, 5}}, {{3}}, {{3}}, {{3}}, {{3}}}, {}),
      with_optional({{{2, 3, 2, 4}}, {{4}}, {{4}}, {{4}}, {{4}}}, {{"data_format", nhwc}}),
      with_optional({{{6, 2}}, {{2}}, {{2}}, {}, {}}, {{"momentum", 0.5}}),
      with_optional({{{3, 4, 2}}, {{2}}, {{2}}, {{2}}, {{2}}}, {{"data_format", nlc}}),
      with_optional({{{2, 3, 2, 2, 2}}, {{3}}, {{3}}, {{3}}, {}}, {{"epsilon", 1e-3}}),
      with_optional({{{4, 3, 5}}, {{3}}, {{3}}, {{3}}, {{3}}}, {{"is_test", true}}),
      with_optional({{{4, 3, 5}}, {{3}}, {{3}}, {{3}}, {{3}}}, {{"use_global_stats", true}}),
      with_optional({{{4, 3, 5}}, {{3}}, {{3}}, {{3}}, {{3}}},
                    {{"is_test", true}, {"trainable_statistics", true}}),
      with_optional({{{0, 3, 2}}, {{3}}, {{3}}, {{3}}, {{3}}}, {}),
      with_optional({{{8, 16, 32, 32}}, {{16}}, {{16}}, {{16}}, {{16}}}, {}),
      with_optional({{{8, 8, 8, 64}}, {{64}}, {{64}}, {{64}}, {{64}}}, {{"data_format", nhwc}})};
}

// batch_norm_grad: x, saved_mean, saved_variance (1/std), out_grad, scale.
std::vector<OpSample> batch_norm_grad_samples() {
  const AttrValue nhwc = std::string("NHWC");
  return {
      with_optional({{{4, 3, 5}}, {{3}}, {{3}}, {{4, 3, 5}}, {{3}}}, {}),
      with_optional({{{2, 3, 2, 4}}, {{4}}, {{4}}, {{2, 3, 2, 4}}, {{4}}}, {{"data_format", nhwc}}),
      with_optional({{{6, 2}}, {{2}}, {{2}}, {{6, 2}}, {}}, {}),
      with_optional({{{4, 3, 5}}, {{3}}, {{3}}, {{4, 3, 5}}, {{3}}}, {{"use_global_stats", true}}),
      with_optional({{{0, 3}}, {{3}}, {{3}}, {{0, 3}}, {{3}}}, {}),
      with_optional({{{8, 16, 32, 32}}, {{16}}, {{16}}, {{8, 16, 32, 32}}, {{16}}}, {}),
      with_optional({{{8, 8, 8, 64}}, {{64}}, {{64}}, {{8, 8, 8, 64}}, {{64}}},
                    {{"data_format", nhwc}})};
}

}  // namespace

void add_nn_op_infos(OpDb& db) {
  db.add({.name = "batch_norm",
          .samples = batch_norm_samples(),
          .input_makers = {{2, positive_values()}},
          .tolerance_scale = 4});
  db.add({.name = "batch_norm_grad",
          .samples = batch_norm_grad_samples(),
          .input_makers = {{2, positive_values()}},
          .tolerance_scale = 4});
  db.add({.name = "softmax", .samples = softmax_samples()});
  db.add({.name = "log_softmax", .samples = softmax_samples()});
  db.add({.name = "layer_norm",
          .samples = {with_optional({{{4, 8}}, {{8}}, {{8}}}, {}),
                      with_optional({{{2, 3, 4}}, {{12}}, {}}, {}),
                      with_optional({{{2, 3, 4}}, {}, {{4}}}, {{"begin_norm_axis", int64_t{2}}}),
                      with_optional({{{2, 3, 4}}, {{3, 4}}, {{3, 4}}},
                                    {{"begin_norm_axis", int64_t{-2}}, {"epsilon", 1e-3}}),
                      with_optional({{{5, 6}}, {}, {}}, {{"begin_norm_axis", int64_t{0}}}),
                      with_optional({{{}}, {}, {}}, {{"begin_norm_axis", int64_t{0}}}),
                      with_optional({{{0, 8}}, {{8}}, {{8}}}, {}),
                      with_optional({{{64, 1024}}, {{1024}}, {{1024}}}, {})}});
  db.add({.name = "rms_norm",
          .samples = {with_optional({{{4, 8}}, {{8}}}, {}), with_optional({{{2, 3, 4}}, {}}, {}),
                      with_optional({{{2, 3, 4}}, {{12}}}, {{"begin_norm_axis", int64_t{1}}}),
                      with_optional({{{2, 3, 4}}, {{3, 4}}},
                                    {{"begin_norm_axis", int64_t{1}}, {"epsilon", 1e-2}}),
                      with_optional({{{}}, {}}, {}), with_optional({{{0, 8}}, {{8}}}, {}),
                      with_optional({{{64, 1024}}, {{1024}}}, {})}});
  db.add(
      {.name = "embedding",
       .samples = {sample({{5}, {10, 4}}), sample({{2, 3}, {10, 6}}, {{"padding_idx", int64_t{3}}}),
                   sample({{}, {10, 3}}), sample({{0, 2}, {10, 3}}), sample({{4}, {10, 0}}),
                   sample({{300}, {10, 160}}, {{"padding_idx", int64_t{0}}})},
       .input_makers = {{0, ids_in(0, 10)}},
       .fixed_dtypes = {{0, DType::kInt64}}});
  db.add({.name = "one_hot",
          .samples = {sample({{5}}, {{"num_classes", int64_t{4}}}),
                      sample({{2, 3}}, {{"num_classes", int64_t{6}}}),
                      sample({{}}, {{"num_classes", int64_t{4}}}),
                      sample({{0}}, {{"num_classes", int64_t{4}}})},
          .input_makers = {{0, ids_in(0, 4)}}});
  db.add({.name = "cross_entropy_with_softmax",
          .samples = {sample({{4, 5}, {4, 1}}), sample({{3, 4}, {1, 4}}, {{"axis", int64_t{0}}}),
                      sample({{2, 3, 4}, {2, 1, 4}}, {{"axis", int64_t{1}}}), sample({{6}, {1}}),
                      sample({{0, 5}, {0, 1}}),
                      sample({{4, 5}, {4, 1}}, {{"ignore_index", int64_t{-100}}}),
                      sample({{4, 5}, {4, 1}}, {{"use_softmax", false}}),
                      sample({{400, 100}, {400, 1}})},
          .domain = Domain::kPositive,
          .input_makers = {{1, ids_in(0, 3, -100)}},
          .fixed_dtypes = {{1, DType::kInt64}}});
  db.add({.name = "dropout",
          .samples = {
              sample({{4, 50}}), sample({{4, 50}}, {{"p", 0.0}}), sample({{4, 50}}, {{"p", 1.0}}),
              sample({{4, 50}}, {{"p", 0.2}, {"mode", std::string("downgrade_in_infer")}}),
              sample({{3, 7}}, {{"is_test", true}}),
              sample({{3, 7}},
                     {{"is_test", true}, {"p", 0.25}, {"mode", std::string("downgrade_in_infer")}}),
              sample({{5, 5}}, {{"seed", int64_t{42}}}), sample({{}}), sample({{0, 3}}),
              sample({{300, 200}}, {{"p", 0.3}})}});
}

}  // namespace skiff::testing
