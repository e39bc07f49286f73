#include "op_db.h"

#include "skiff/base/error.h"

namespace skiff::testing {

void OpDb::add(OpInfo info) {
  SKIFF_ENFORCE(ops::find_op_schema(info.name) != nullptr, kNotFound, "OpDb", "name",
                "an op in the schema", info.name);
  const std::string name = info.name;
  SKIFF_ENFORCE(infos_.emplace(name, std::move(info)).second, kInvalidArgument, "OpDb", "name",
                "one entry per op", name);
}

const OpDb& OpDb::get() {
  static const OpDb db = [] {
    OpDb d;
    add_elementwise_op_infos(d);
    add_unary_op_infos(d);
    add_activation_op_infos(d);
    add_reduction_op_infos(d);
    add_linalg_op_infos(d);
    add_nn_op_infos(d);
    add_manipulation_op_infos(d);
    add_creation_op_infos(d);
    add_optimizer_op_infos(d);
    add_vision_op_infos(d);
    add_attention_op_infos(d);
    add_lapack_op_infos(d);
    add_math_functions_op_infos(d);
    add_statistics_op_infos(d);
    add_quant_op_infos(d);
    add_special_op_infos(d);
    add_complex_op_infos(d);
    add_fused_op_infos(d);
    return d;
  }();
  return db;
}

OpSample sample(std::vector<Dims> shapes, std::map<std::string, ops::AttrValue> attrs) {
  OpSample s;
  for (auto& d : shapes) s.shapes.push_back({d});
  s.attrs = std::move(attrs);
  return s;
}

std::vector<std::vector<DenseTensor>> sample_inputs(const OpInfo& info, const OpSample& sample,
                                                    DType dtype, std::mt19937_64& rng,
                                                    std::optional<Domain> domain) {
  std::vector<std::vector<DenseTensor>> out;
  for (size_t arg = 0; arg < sample.shapes.size(); ++arg) {
    const int a = static_cast<int>(arg);
    const auto fixed = info.fixed_dtypes.find(a);
    const DType d = fixed != info.fixed_dtypes.end() ? fixed->second : dtype;
    const auto maker = info.input_makers.find(a);
    std::vector<DenseTensor>& list = out.emplace_back();
    for (const Dims& dims : sample.shapes[arg]) {
      list.push_back(maker != info.input_makers.end()
                         ? maker->second(a, dims, d, rng)
                         : random_tensor(dims, d, domain.value_or(info.domain), rng));
    }
  }
  return out;
}

}  // namespace skiff::testing
