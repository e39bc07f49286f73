// DenseElementsAttr: the data of a constant tensor, e.g. the value of a builtin.constant that
// constant folding produced by running a kernel. Elements are row-major in the element type's
// native (little-endian) bytes, so the ops layer converts to and from DenseTensor with a copy.
// Text form (round-trips bit-exactly):
//   dense<tensor<2x2xf32>, [1.0, 2.0, 3.0, 4.0]>   up to kInlineLimit elements, inline
//   dense<tensor<64x64xf32>, 0.5>                 a splat (every element equal)
//   dense<tensor<64x64xf32>, "0x0000803f...">     larger tensors, f16/bf16/complex: hex blob
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "skiff/ir/core/builtin_types.h"
#include "skiff/ir/core/type.h"

namespace skiff::ir {

/// Bytes per element (0 for kUndefined).
size_t dtype_size(DataType t);

class DenseElementsAttr : public Attribute {
 public:
  /// Tensors with more elements print as a hex blob (a splat always prints one value).
  static constexpr int64_t kInlineLimit = 16;

  using Attribute::Attribute;
  /// `bytes` holds numel(type) elements; equal elements are stored once (a splat).
  static DenseElementsAttr get(IrContext* ctx, TensorType type, std::span<const uint8_t> bytes);
  /// Every element equal to the one element in `element`.
  static DenseElementsAttr get_splat(IrContext* ctx, TensorType type,
                                     std::span<const uint8_t> element);
  /// From doubles (one value: a splat), converted to the element type (not f16/bf16/complex).
  static DenseElementsAttr from_doubles(IrContext* ctx, TensorType type,
                                        std::span<const double> values);
  static bool classof(Attribute a);

  TensorType type() const;
  int64_t numel() const { return type().numel(); }
  bool is_splat() const;
  /// The stored bytes: one element for a splat, numel elements otherwise.
  std::span<const uint8_t> raw() const;
  /// Copies all numel elements (a splat is expanded) to `dst` (numel * element size bytes).
  void copy_to(uint8_t* dst) const;
  /// Element i as double (bool, ints, floats incl. f16/bf16; complex: the real part).
  double element_as_double(int64_t i) const;
};

/// "0x" followed by two lower-case hex digits per byte.
std::string to_hex(std::span<const uint8_t> bytes);
/// Inverse of to_hex; false when `text` is not of that form.
bool from_hex(std::string_view text, std::string& out);

}  // namespace skiff::ir
