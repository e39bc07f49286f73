// OpDb entries of the activations, with special values mixed into float inputs (see
// op_db_unary.cc) and each attribute varied once.
#include "op_db.h"

namespace skiff::testing {

InputMaker with_special_values(Domain domain);  // op_db_unary.cc

namespace {

// Plain, rank 0, zero-size, 3-d, and one large enough for the multi-threaded path.
std::vector<OpSample> activation_samples(
    const std::vector<std::map<std::string, ops::AttrValue>>& attr_sets = {{}}) {
  std::vector<OpSample> out = {sample({{}}), sample({{0, 3}}), sample({{2, 3, 5}}),
                               sample({{200, 256}})};
  for (const auto& attrs : attr_sets) out.push_back(sample({{3, 40}}, attrs));
  return out;
}

OpInfo activation_info(const std::string& name,
                       const std::vector<std::map<std::string, ops::AttrValue>>& attr_sets = {{}}) {
  OpInfo info;
  info.name = name;
  info.samples = activation_samples(attr_sets);
  info.input_makers[0] = with_special_values(Domain::kAny);
  return info;
}

}  // namespace

void add_activation_op_infos(OpDb& db) {
  for (const char* name : {"relu", "relu6", "silu", "sigmoid", "hardswish", "mish", "tanhshrink"}) {
    db.add(activation_info(name));
  }
  // relu_grad(out, out_grad): out has both signs, so both sides of the mask are exercised, and
  // stays a step away from 0, where finite differences would straddle the mask's edge.
  OpInfo relu_grad;
  relu_grad.name = "relu_grad";
  for (const auto& s : activation_samples()) {
    relu_grad.samples.push_back(sample({s.shapes[0][0], s.shapes[0][0]}, s.attrs));
  }
  relu_grad.input_makers[0] = [](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    return random_tensor(dims, dtype, Domain::kNonZero, rng);
  };
  db.add(std::move(relu_grad));
  db.add(activation_info("leaky_relu", {{}, {{"negative_slope", 0.2}}}));
  db.add(activation_info("elu", {{}, {{"alpha", 0.5}}}));
  db.add(activation_info("gelu", {{{"approximate", false}}, {{"approximate", true}}}));
  db.add(activation_info("softplus", {{}, {{"beta", 2.0}, {"threshold", 1.0}}}));
  db.add(activation_info("hardsigmoid", {{}, {{"slope", 0.2}, {"offset", 0.4}}}));
}

}  // namespace skiff::testing
