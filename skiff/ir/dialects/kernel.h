// The kernel dialect: ops bound to a chosen kernel. A placed tensor type
// !kernel.dense<gpu:0, tensor<2x3xf32>> records where a value lives; a kernel key
// #kernel.key<gpu, f32, NCHW> (backend, dtype, layout) selects the kernel. kernel.call carries the
// original op's name and attributes; kernel.transfer moves data between places. The lowering pass
// from the op dialect comes with the static-graph executor.
#pragma once

#include <span>
#include <string>

#include "skiff/ir/core/builder.h"
#include "skiff/ir/core/dialect.h"
#include "skiff/ir/core/op_base.h"

namespace skiff::ir {

class KernelDialect : public Dialect {
 public:
  static constexpr std::string_view kName = "kernel";
  explicit KernelDialect(IrContext* ctx);
  Type parse_type(std::string_view mnemonic, AsmParser& p) override;
  Attribute parse_attr(std::string_view mnemonic, AsmParser& p) override;
};

/// A device place: "cpu", "gpu:0".
struct Place {
  std::string backend = "cpu";
  int64_t device = -1;  // -1: none printed
  std::string to_string() const;
  bool operator==(const Place&) const = default;
};

class DenseTensorOnPlaceType : public Type {
 public:
  using Type::Type;
  static DenseTensorOnPlaceType get(IrContext* ctx, const Place& place, TensorType tensor);
  static bool classof(Type t);
  const Place& place() const;
  TensorType tensor() const;
};

class KernelKeyAttr : public Attribute {
 public:
  using Attribute::Attribute;
  static KernelKeyAttr get(IrContext* ctx, std::string_view backend, DataType dtype,
                           Layout layout = Layout::kAny);
  static bool classof(Attribute a);
  const std::string& backend() const;
  DataType dtype() const;
  Layout layout() const;
};

/// A call of a kernel: operands and results are placed tensors (or vecs of them).
/// Attributes: op_name, kernel_name, kernel_key, then the attributes of the original op.
class KernelCallOp : public Op<KernelCallOp> {
 public:
  using Op::Op;
  static constexpr std::string_view kName = "kernel.call";
  static void verify(Operation* op);
  static KernelCallOp build(Builder& b, std::string_view op_name, std::string_view kernel_name,
                            KernelKeyAttr key, std::span<const Value> inputs,
                            std::span<const Type> result_types,
                            std::vector<NamedAttribute> attrs = {});
  std::string op_name() const { return op_->attr_of<StrAttr>("op_name").value(); }
  std::string kernel_name() const { return op_->attr_of<StrAttr>("kernel_name").value(); }
  KernelKeyAttr kernel_key() const { return op_->attr_of<KernelKeyAttr>("kernel_key"); }
};

/// Copies a placed tensor to `dst_place`, or places an unplaced one (constants, host data).
class TransferOp : public Op<TransferOp> {
 public:
  using Op::Op;
  static constexpr std::string_view kName = "kernel.transfer";
  static void populate(OpInfo& info);
  static void verify(Operation* op);
  static TransferOp build(Builder& b, Value x, const Place& dst);
};

}  // namespace skiff::ir
