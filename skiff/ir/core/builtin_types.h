// Builtin types: the tensor type (dtype + shape with -1 dynamic dims + layout) and the vector type
// that carries Tensor[] values (built by builtin.combine, taken apart by builtin.split). Other
// dialects add their own kinds (kernel.dense for placed tensors, a dist tensor type with mesh and
// placements later) through the same uniquing machinery.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "skiff/ir/core/type.h"

namespace skiff::ir {

/// Element types of tensors. Printed short: f32, bf16, i64, bool, ...
enum class DataType : uint8_t {
  kUndefined,
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kFloat16,
  kBFloat16,
  kFloat32,
  kFloat64,
  kComplex64,
  kComplex128,
};
std::string_view dtype_name(DataType t);
/// Accepts short names (f32) and long names (float32).
std::optional<DataType> parse_dtype(std::string_view s);
bool is_floating(DataType t);

enum class Layout : uint8_t { kAny, kNCHW, kNHWC, kNCDHW, kNDHWC };
std::string_view layout_name(Layout l);
std::optional<Layout> parse_layout(std::string_view s);

constexpr int64_t kDynamic = -1;

struct TensorTypeStorage;
/// tensor<2x?x3xf32> or tensor<2x3xf32, NHWC>; a rank-0 tensor prints as tensor<f32>.
class TensorType : public Type {
 public:
  using Type::Type;
  static TensorType get(IrContext* ctx, DataType dtype, std::span<const int64_t> shape,
                        Layout layout = Layout::kAny);
  static TensorType get(IrContext* ctx, DataType dtype, std::initializer_list<int64_t> shape,
                        Layout layout = Layout::kAny) {
    return get(ctx, dtype, std::span<const int64_t>(shape.begin(), shape.size()), layout);
  }
  static bool classof(Type t);

  DataType dtype() const;
  std::span<const int64_t> shape() const;
  Layout layout() const;
  int64_t rank() const { return static_cast<int64_t>(shape().size()); }
  bool is_dynamic() const;
  /// Product of dims, or -1 when any dim is dynamic.
  int64_t numel() const;
  TensorType with_shape(std::span<const int64_t> shape) const;
  TensorType with_dtype(DataType dtype) const;
  IrContext* context() const;
};

struct VectorTypeStorage;
/// vec<tensor<2xf32>, tensor<3xf32>>: the type of a Tensor[] value.
class VectorType : public Type {
 public:
  using Type::Type;
  static VectorType get(IrContext* ctx, std::span<const Type> elements);
  static bool classof(Type t);
  std::span<const Type> elements() const;
  size_t size() const { return elements().size(); }
};

}  // namespace skiff::ir
