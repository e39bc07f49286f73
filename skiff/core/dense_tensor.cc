#include "skiff/core/dense_tensor.h"

#include <cstring>
#include <utility>

#include "skiff/core/shape_math.h"
#include "skiff/core/strided_copy.h"
#include "skiff/device/device_manager.h"

namespace skiff {

DenseTensor::DenseTensor(std::shared_ptr<Storage> storage, DType dtype, const Dims& dims,
                         const Dims& strides, int64_t offset)
    : storage_(std::move(storage)), dtype_(dtype), dims_(dims), strides_(strides), offset_(offset) {
  SKIFF_CHECK(dims_.size() == strides_.size());
}

DenseTensor DenseTensor::empty(const Dims& dims, DType dtype, const Place& place) {
  SKIFF_ENFORCE(!dims.has_dynamic(), kInvalidArgument, "empty", "shape", "non-negative dims", dims);
  SKIFF_ENFORCE(dtype != DType::kUndefined, kTypeError, "empty", "dtype", "a defined dtype", dtype);
  const size_t nbytes = static_cast<size_t>(checked_nbytes(dims, dtype_size(dtype), "empty"));
  auto storage = std::make_shared<Storage>(nbytes, place);
  return DenseTensor(std::move(storage), dtype, dims, contiguous_strides(dims), 0);
}

bool DenseTensor::is_contiguous() const {
  int64_t expected = 1;
  for (int i = dims_.size() - 1; i >= 0; --i) {
    if (dims_[i] == 1) continue;  // the stride of a size-1 dim never matters
    if (strides_[i] != expected) return false;
    expected *= dims_[i];
  }
  return true;
}

DenseTensor DenseTensor::as_strided(const Dims& dims, const Dims& strides, int64_t offset) const {
  return DenseTensor(storage_, dtype_, dims, strides, offset);
}

DenseTensor DenseTensor::contiguous() const {
  if (is_contiguous()) return *this;
  DenseTensor out = empty(dims_, dtype_, place());
  out.copy_from(*this);
  return out;
}

DenseTensor DenseTensor::copy_to(const Place& place) const {
  DenseTensor out = empty(dims_, dtype_, place);
  out.copy_from(*this);
  return out;
}

void DenseTensor::copy_from(const DenseTensor& src) {
  SKIFF_ENFORCE(src.dims() == dims_, kInvalidArgument, "copy", "src", str("dims ", dims_),
                src.dims());
  SKIFF_ENFORCE(src.dtype() == dtype_, kTypeError, "copy", "src", str("dtype ", dtype_),
                src.dtype());
  if (numel() == 0) return;
  // Onto itself (kernels of in-place ops start with out = copy of x): nothing to move.
  if (src.storage_ == storage_ && src.offset_ == offset_ && src.strides_ == strides_) return;
  const Place dst_place = place(), src_place = src.place();
  if (dst_place.is_cpu() && src_place.is_cpu()) {
    strided_copy(src, *this);
    return;
  }
  // Across devices the bytes move contiguously; strided layouts are resolved on the CPU side.
  // A strided layout on a device would need a device copy kernel: without this check
  // contiguous() and copy_from recursed without end.
  SKIFF_ENFORCE(src_place.is_cpu() || src.is_contiguous(), kUnimplemented, "copy", "src",
                str("a contiguous tensor (no strided copy kernel on ", src_place, " yet)"),
                str("strides ", src.strides(), " for dims ", src.dims()));
  SKIFF_ENFORCE(dst_place.is_cpu() || is_contiguous(), kUnimplemented, "copy", "dst",
                str("a contiguous tensor (no strided copy kernel on ", dst_place, " yet)"),
                str("strides ", strides_, " for dims ", dims_));
  DenseTensor src_c = src.contiguous();
  if (is_contiguous()) {
    copy_bytes(raw_data(), dst_place, src_c.raw_data(), src_place, src_c.nbytes());
    return;
  }
  DenseTensor staging = empty(dims_, dtype_, dst_place);
  copy_bytes(staging.raw_data(), dst_place, src_c.raw_data(), src_place, src_c.nbytes());
  copy_from(staging);
}

}  // namespace skiff
