// The run-time description of every op, generated from the op records (skiff/ops/yaml/*.yaml):
// argument names, kinds and defaults, outputs, and the facts later layers need (differentiable,
// view, random). The boxed call path, the `skiff` tool, the IR's op dialect and the Python
// binding all read this table; nothing about an op is written by hand in a second place.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "skiff/core/dense_tensor.h"
#include "skiff/core/scalar.h"

namespace skiff::ops {

using OpId = uint16_t;

enum class ArgKind : uint8_t {
  kTensor,          // Tensor
  kTensorList,      // Tensor[]
  kOptionalTensor,  // Tensor?
  kBool,
  kInt,         // int / int64_t -> int64_t
  kFloat,       // float
  kDouble,      // double
  kString,      // str
  kIntArray,    // int[] / int64_t[] -> std::vector<int64_t>
  kFloatArray,  // float[] -> std::vector<double>
  kScalar,
  kDType,  // DataType
  kPlace,
};

bool is_tensor_kind(ArgKind kind);
std::string_view arg_kind_name(ArgKind kind);

/// An attribute value in boxed form.
using AttrValue = std::variant<bool, int64_t, double, std::string, std::vector<int64_t>,
                               std::vector<double>, Scalar, DType, Place>;

std::string attr_to_string(const AttrValue& value);

struct ArgSchema {
  std::string name;
  ArgKind kind;
  std::optional<AttrValue> default_value;  // attributes only
};

struct OutputSchema {
  std::string name;
  bool is_list = false;
};

struct OpSchema {
  OpId id;
  std::string name;
  std::vector<ArgSchema> args;
  std::vector<OutputSchema> outputs;
  bool differentiable = true;
  bool is_view = false;
  bool is_random = false;
  /// Tensor arguments that have a VJP rule (gradients flow into them).
  std::vector<std::string> grad_inputs;
  /// The record's text form, e.g. "matmul(Tensor x, Tensor y, bool transpose_x = false, ...)".
  std::string signature;
};

/// Every op, indexed by OpId.
std::span<const OpSchema> all_op_schemas();
const OpSchema& op_schema(OpId id);
/// Throws NotFound (naming close matches) for an unknown name.
const OpSchema& op_schema(std::string_view name);
const OpSchema* find_op_schema(std::string_view name);

/// Boxed call: inputs per tensor argument (a list of one for Tensor, of zero or one for
/// Tensor?), attributes by name (missing ones take the record's default).
struct BoxedInputs {
  std::vector<std::vector<DenseTensor>> tensors;
  std::map<std::string, AttrValue> attrs;
};
/// Outputs per output of the record (a list of one for a single tensor).
using BoxedOutputs = std::vector<std::vector<DenseTensor>>;

}  // namespace skiff::ops
