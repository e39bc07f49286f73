#include "skiff/ops/op_schema.h"

#include <algorithm>

#include "skiff/base/error.h"

namespace skiff::ops {

std::vector<OpSchema> make_op_schemas();  // generated

std::span<const OpSchema> all_op_schemas() {
  static const std::vector<OpSchema> schemas = make_op_schemas();
  return schemas;
}

const OpSchema& op_schema(OpId id) {
  auto all = all_op_schemas();
  SKIFF_ENFORCE(id < all.size(), kOutOfRange, "op_schema", "id", str("below ", all.size()), id);
  return all[id];
}

const OpSchema* find_op_schema(std::string_view name) {
  auto all = all_op_schemas();
  auto it = std::lower_bound(all.begin(), all.end(), name,
                             [](const OpSchema& s, std::string_view n) { return s.name < n; });
  return it != all.end() && it->name == name ? &*it : nullptr;
}

const OpSchema& op_schema(std::string_view name) {
  if (const OpSchema* s = find_op_schema(name)) return *s;
  std::vector<std::string> close;
  for (const OpSchema& s : all_op_schemas()) {
    if (s.name.find(name) != std::string::npos || name.find(s.name) != std::string::npos) {
      close.push_back(s.name);
    }
  }
  SKIFF_THROW(kNotFound, "op_schema", "name",
              close.empty() ? std::string("a registered op") : str("one of ", join(close, ", ")),
              str("'", name, "'"));
}

bool is_tensor_kind(ArgKind kind) {
  return kind == ArgKind::kTensor || kind == ArgKind::kTensorList ||
         kind == ArgKind::kOptionalTensor;
}

std::string_view arg_kind_name(ArgKind kind) {
  switch (kind) {
    case ArgKind::kTensor:
      return "Tensor";
    case ArgKind::kTensorList:
      return "Tensor[]";
    case ArgKind::kOptionalTensor:
      return "Tensor?";
    case ArgKind::kBool:
      return "bool";
    case ArgKind::kInt:
      return "int";
    case ArgKind::kFloat:
      return "float";
    case ArgKind::kDouble:
      return "double";
    case ArgKind::kString:
      return "str";
    case ArgKind::kIntArray:
      return "int[]";
    case ArgKind::kFloatArray:
      return "float[]";
    case ArgKind::kScalar:
      return "Scalar";
    case ArgKind::kDType:
      return "DataType";
    case ArgKind::kPlace:
      return "Place";
  }
  return "?";
}

std::string attr_to_string(const AttrValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::string>)
          return str("\"", v, "\"");
        else
          return str(v);
      },
      value);
}

}  // namespace skiff::ops
