// OpDb entries of the fused optimizer ops. They update their inputs in place: the reference
// runs on copies, and the strided variant is skipped (it would start from the updated inputs;
// strided parameters are tested in tests/cpp/frontend/optimizer_test.cc).
#include "op_db.h"

namespace skiff::testing {

namespace {

using ops::AttrValue;
using Attrs = std::map<std::string, AttrValue>;

InputMaker constant(double v) {
  return [=](int, const Dims& dims, DType dtype, std::mt19937_64&) {
    return make_tensor(dims, dtype, std::vector<double>(dims.numel(), v));
  };
}

InputMaker positive() {
  return [](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    return random_tensor(dims, dtype, Domain::kPositive, rng);
  };
}

// Parameter shapes of a small model (matrix, vector, scalar, empty) and one large tensor that
// spans several chunks and threads.
const std::vector<Dims> kShapes = {{4, 5}, {7}, {}, {0, 3}};
const std::vector<Dims> kLarge = {{300, 100}, {3}};

std::vector<OpSample> samples(int lists, const std::vector<Attrs>& attrs) {
  std::vector<OpSample> out;
  for (const auto* shapes : {&kShapes, &kLarge}) {
    for (const Attrs& a : attrs) {
      OpSample s;
      for (int i = 0; i < lists; ++i) s.shapes.push_back(*shapes);
      s.attrs = a;
      out.push_back(s);
    }
  }
  return out;
}

// Adam samples: params, grads, moment1, moment2, moment2_max (empty unless amsgrad), lr, step.
std::vector<OpSample> adam_samples(double weight_decay) {
  std::vector<OpSample> out;
  for (bool amsgrad : {false, true}) {
    for (const auto* shapes : {&kShapes, &kLarge}) {
      OpSample s;
      for (int i = 0; i < 4; ++i) s.shapes.push_back(*shapes);
      s.shapes.push_back(amsgrad ? *shapes : std::vector<Dims>{});
      s.shapes.push_back({{}});
      s.shapes.push_back({{}});
      s.attrs = {{"amsgrad", amsgrad}, {"weight_decay", weight_decay}, {"beta1", 0.8}};
      out.push_back(s);
    }
  }
  return out;
}

OpInfo adam_info(const std::string& name, double weight_decay) {
  return {.name = name,
          .samples = adam_samples(weight_decay),
          .input_makers = {{3, positive()}, {4, positive()}, {5, constant(0.01)}, {6, constant(3)}},
          .fixed_dtypes = {{2, DType::kFloat32},
                           {3, DType::kFloat32},
                           {4, DType::kFloat32},
                           {5, DType::kFloat32},
                           {6, DType::kFloat32}},
          .skip_noncontiguous = true,
          .check_grad = false,
          .check_gradgrad = false};
}

}  // namespace

void add_optimizer_op_infos(OpDb& db) {
  std::vector<OpSample> sgd = samples(2, {{}, {{"weight_decay", 0.1}}});
  for (auto& s : sgd) s.shapes.push_back({{}});
  db.add({.name = "fused_sgd_",
          .samples = sgd,
          .input_makers = {{2, constant(0.1)}},
          .fixed_dtypes = {{2, DType::kFloat32}},
          .skip_noncontiguous = true,
          .check_grad = false,
          .check_gradgrad = false});
  std::vector<OpSample> momentum =
      samples(3, {{}, {{"use_nesterov", true}, {"weight_decay", 0.1}, {"mu", 0.5}}});
  for (auto& s : momentum) s.shapes.push_back({{}});
  db.add({.name = "fused_momentum_",
          .samples = momentum,
          .input_makers = {{3, constant(0.1)}},
          .fixed_dtypes = {{2, DType::kFloat32}, {3, DType::kFloat32}},
          .skip_noncontiguous = true,
          .check_grad = false,
          .check_gradgrad = false});
  db.add(adam_info("fused_adam_", 0.1));
  db.add(adam_info("fused_adamw_", 0.1));
}

}  // namespace skiff::testing
