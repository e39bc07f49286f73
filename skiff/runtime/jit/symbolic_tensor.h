// SymbolicTensor: the TensorImpl kind that stands for an IR value while a function is captured.
// It carries the value's meta (dims may be -1 where unknown) so shape logic in user code and in
// VJP rules works as in eager mode; its data exists only when the program runs.
#pragma once

#include "skiff/core/tensor.h"
#include "skiff/core/tensor_impl.h"
#include "skiff/ir/core/value.h"

namespace skiff::jit {

class SymbolicTensor final : public TensorImpl {
 public:
  SymbolicTensor(ir::Value value, TensorMeta meta, Place place)
      : value_(value), meta_(std::move(meta)), place_(place) {}
  TensorKind kind() const override { return TensorKind::kSymbolic; }
  DType dtype() const override { return meta_.dtype; }
  const Dims& dims() const override { return meta_.dims; }
  Place place() const override { return place_; }
  ir::Value value() const { return value_; }

 private:
  ir::Value value_;
  TensorMeta meta_;
  Place place_;
};

/// The symbolic body of `t`, or nullptr for other kinds.
inline const SymbolicTensor* as_symbolic(const Tensor& t) {
  return t.defined() && t.kind() == TensorKind::kSymbolic
             ? static_cast<const SymbolicTensor*>(t.impl())
             : nullptr;
}

/// A new handle with the same value and no autograd state (detach of a symbolic tensor).
inline Tensor symbolic_copy(const SymbolicTensor& s) {
  return Tensor(std::make_shared<SymbolicTensor>(s));
}

}  // namespace skiff::jit
