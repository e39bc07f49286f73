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

}  // namespace skiff::testing
