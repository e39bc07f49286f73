#include "skiff/ir/core/op_schema.h"

#include <algorithm>

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/operation.h"

namespace skiff::ir {

std::string_view arg_kind_name(ArgKind k) {
  static constexpr std::string_view kNames[] = {
      "Tensor", "Tensor[]", "Tensor?",   "int",     "int64_t", "float",    "double", "bool",
      "str",    "int[]",    "int64_t[]", "float[]", "Scalar",  "DataType", "Place"};
  return kNames[static_cast<int>(k)];
}

int OpSchema::input_index(std::string_view name) const {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].name == name) return static_cast<int>(i);
  }
  return -1;
}
int OpSchema::output_index(std::string_view name) const {
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

namespace {
bool all_elements(Attribute a, bool (*pred)(Attribute)) {
  auto arr = a.dyn_cast<ArrayAttr>();
  if (!arr) return false;
  return std::all_of(arr.elements().begin(), arr.elements().end(), pred);
}
bool is_int(Attribute a) { return a.isa<IntAttr>(); }
bool is_num(Attribute a) { return a.isa<IntAttr>() || a.isa<FloatAttr>(); }

bool value_matches(ArgKind k, Type t) {
  switch (k) {
    case ArgKind::kTensorList:
      return t && t.isa<VectorType>();
    case ArgKind::kOptionalTensor:
      return !t || !t.isa<VectorType>();
    default:
      return t && !t.isa<VectorType>();
  }
}
}  // namespace

bool attr_matches(ArgKind k, Attribute a) {
  if (!a) return false;
  switch (k) {
    case ArgKind::kInt:
    case ArgKind::kInt64:
      return a.isa<IntAttr>();
    case ArgKind::kFloat:
    case ArgKind::kDouble:
      return is_num(a);
    case ArgKind::kScalar:  // Paddle's Scalar keeps its kind: bool, int or float
      return is_num(a) || a.isa<BoolAttr>();
    case ArgKind::kBool:
      return a.isa<BoolAttr>();
    case ArgKind::kStr:
    case ArgKind::kPlace:
      return a.isa<StrAttr>();
    case ArgKind::kIntArray:
    case ArgKind::kInt64Array:
      return all_elements(a, is_int);
    case ArgKind::kFloatArray:
      return all_elements(a, is_num);
    case ArgKind::kDataType:
      return a.isa<DTypeAttr>();
    default:
      return false;
  }
}

void verify_schema(Operation* op, const OpSchema& s) {
  SKIFF_ENFORCE(op->num_operands() == s.inputs.size(), kInvalidArgument, op->describe(), "operands",
                str(s.inputs.size(), " operands"), op->num_operands());
  SKIFF_ENFORCE(op->num_results() == s.outputs.size(), kInvalidArgument, op->describe(), "results",
                str(s.outputs.size(), " results"), op->num_results());
  for (size_t i = 0; i < s.inputs.size(); ++i) {
    Value v = op->operand(static_cast<uint32_t>(i));
    Type t = v ? v.type() : Type();
    SKIFF_ENFORCE(value_matches(s.inputs[i].kind, t), kTypeError, op->describe(), s.inputs[i].name,
                  std::string("a ") + std::string(arg_kind_name(s.inputs[i].kind)), to_string(t));
  }
  for (size_t i = 0; i < s.outputs.size(); ++i) {
    Type t = op->result_type(static_cast<uint32_t>(i));
    SKIFF_ENFORCE(value_matches(s.outputs[i].kind, t), kTypeError, op->describe(),
                  s.outputs[i].name,
                  std::string("a ") + std::string(arg_kind_name(s.outputs[i].kind)), to_string(t));
  }
  for (const ArgDef& a : s.attrs) {
    Attribute v = op->attr(a.name);
    SKIFF_ENFORCE(v, kInvalidArgument, op->describe(), a.name, "the attribute to be set",
                  "it is missing");
    SKIFF_ENFORCE(attr_matches(a.kind, v), kTypeError, op->describe(), a.name,
                  std::string("an attribute of kind ") + std::string(arg_kind_name(a.kind)),
                  to_string(v));
  }
}

void fill_default_attrs(const OpInfo* info, std::vector<NamedAttribute>& attrs) {
  if (!info->schema) return;
  for (const ArgDef& a : info->schema->attrs) {
    bool present = std::any_of(attrs.begin(), attrs.end(),
                               [&](const NamedAttribute& n) { return n.name.value() == a.name; });
    if (present || a.default_text.empty()) continue;
    AsmParser p(info->ctx, a.default_text);
    attrs.push_back({StrAttr::get(info->ctx, a.name), p.parse_attr()});
  }
}

}  // namespace skiff::ir
