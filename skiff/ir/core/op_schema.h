// OpSchema: the argument lists of an op generated from an operator record (ops.yaml). The
// generated op dialect keeps one static schema per op; the generic verifier, attribute defaults,
// the inplace pass and DRR read it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "skiff/ir/core/builtin_attributes.h"

namespace skiff::ir {

class Operation;
struct OpInfo;

enum class ArgKind : uint8_t {
  kTensor,
  kTensorList,
  kOptionalTensor,
  kInt,
  kInt64,
  kFloat,
  kDouble,
  kBool,
  kStr,
  kIntArray,
  kInt64Array,
  kFloatArray,
  kScalar,
  kDataType,
  kPlace,
};
std::string_view arg_kind_name(ArgKind k);

struct ArgDef {
  std::string_view name;
  ArgKind kind;
  std::string_view default_text;  // IR attribute text, empty when required
};

struct InplacePair {
  std::string_view input;
  std::string_view output;
};

struct OpSchema {
  std::span<const ArgDef> inputs;
  std::span<const ArgDef> attrs;
  std::span<const ArgDef> outputs;
  std::span<const InplacePair> inplace;
  std::string_view infer_meta;
  std::string_view kernel;
  int input_index(std::string_view name) const;
  int output_index(std::string_view name) const;
};

/// Checks operand and result counts and kinds and the presence and kinds of attributes.
void verify_schema(Operation* op, const OpSchema& schema);
/// True when `a` is a valid value for an attribute of kind `k`.
bool attr_matches(ArgKind k, Attribute a);
/// Adds the default value of every schema attribute missing from `attrs`.
void fill_default_attrs(const OpInfo* info, std::vector<NamedAttribute>& attrs);

}  // namespace skiff::ir
