// A strided view of device memory: storage + dtype + dims + strides + offset (in elements).
// Views (reshape where strides allow, permute, slice with steps, squeeze/unsqueeze, expand with
// stride 0, diagonal) share storage; contiguous() copies only when needed.
#pragma once

#include <memory>

#include "skiff/base/error.h"
#include "skiff/core/storage.h"
#include "skiff/core/tensor_impl.h"

namespace skiff {

class DenseTensor final : public TensorImpl {
 public:
  DenseTensor() = default;
  DenseTensor(std::shared_ptr<Storage> storage, DType dtype, const Dims& dims, const Dims& strides,
              int64_t offset);
  /// A new contiguous tensor with uninitialized memory from `place`'s caching allocator.
  static DenseTensor empty(const Dims& dims, DType dtype, const Place& place = Place::cpu());

  TensorKind kind() const override { return TensorKind::kDense; }
  DType dtype() const override { return dtype_; }
  const Dims& dims() const override { return dims_; }
  Place place() const override { return storage_ ? storage_->place() : Place::cpu(); }
  TensorMeta meta() const { return {dtype_, dims_}; }

  bool defined() const { return storage_ != nullptr; }
  int rank() const { return dims_.size(); }
  int64_t numel() const { return dims_.numel(); }
  int64_t dim(int i) const { return dims_[i]; }
  const Dims& strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  int64_t itemsize() const { return dtype_size(dtype_); }
  int64_t nbytes() const { return numel() * itemsize(); }
  const std::shared_ptr<Storage>& storage() const { return storage_; }
  bool is_contiguous() const;
  bool shares_storage_with(const DenseTensor& other) const { return storage_ == other.storage_; }

  /// Address of element 0 (storage base + offset).
  void* raw_data() const { return static_cast<char*>(storage_->data()) + offset_ * itemsize(); }
  template <typename T>
  T* data() const {
    SKIFF_ENFORCE(dtype_v<T> == dtype_, kTypeError, "DenseTensor::data", "T", dtype_v<T>, dtype_);
    return static_cast<T*>(raw_data());
  }

  /// A tensor sharing this one's storage with new dims, strides and offset.
  DenseTensor as_strided(const Dims& dims, const Dims& strides, int64_t offset) const;
  /// This tensor if contiguous, otherwise a contiguous copy.
  DenseTensor contiguous() const;
  /// A contiguous copy on `place`.
  DenseTensor copy_to(const Place& place) const;
  /// Copies `src` (same dims and dtype, any strides or place) into this tensor's elements.
  void copy_from(const DenseTensor& src);

 private:
  std::shared_ptr<Storage> storage_;
  DType dtype_ = DType::kUndefined;
  Dims dims_;
  Dims strides_;
  int64_t offset_ = 0;
};

}  // namespace skiff
