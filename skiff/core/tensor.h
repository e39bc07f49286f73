// Tensor: the cheap, copyable handle users and the op API pass around. It points to a
// TensorImpl (dense now; distributed and symbolic later), which also holds the autograd state
// the eager engine fills; copies of a handle share both.
#pragma once

#include <memory>

#include "skiff/core/dense_tensor.h"

namespace skiff {

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}
  explicit Tensor(DenseTensor dense) : impl_(std::make_shared<DenseTensor>(std::move(dense))) {}

  bool defined() const { return impl_ != nullptr; }
  TensorImpl* impl() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }

  // On an undefined tensor (default-constructed, an unused gradient) these throw a
  // PreconditionNotMet error rather than read through a null pointer.
  TensorKind kind() const { return checked().kind(); }
  bool is_dense() const { return defined() && impl_->kind() == TensorKind::kDense; }
  DType dtype() const { return checked().dtype(); }
  const Dims& dims() const { return checked().dims(); }
  std::vector<int64_t> shape() const { return dims().to_vector(); }
  Place place() const { return checked().place(); }
  int rank() const { return dims().size(); }
  int64_t numel() const { return dims().numel(); }

  /// The dense body; throws a clear error for other kinds.
  const DenseTensor& dense() const;
  DenseTensor& mutable_dense();

  AutogradMetaBase* autograd_meta() const { return impl_ ? impl_->autograd_meta() : nullptr; }
  void set_autograd_meta(std::shared_ptr<AutogradMetaBase> meta) const {
    checked().set_autograd_meta(std::move(meta));
  }

  /// Element access for tests and small host-side logic (CPU dense tensors only).
  template <typename T>
  T item() const;

 private:
  TensorImpl& checked() const {
    if (impl_ == nullptr) [[unlikely]]
      throw_undefined();
    return *impl_;
  }
  [[noreturn]] static void throw_undefined();

  std::shared_ptr<TensorImpl> impl_;
};

}  // namespace skiff
