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

namespace {
// The host copy of a device view: `span` receives the storage elements from the view's lowest
// to its highest address, the result is the view over them; `*first` is the span's start in
// elements relative to element 0 (negative with negative strides).
DenseTensor stage_to_host(const DenseTensor& t, DenseTensor* span, int64_t* first) {
  int64_t lo = 0, hi = 0;
  for (int i = 0; i < t.rank(); ++i) {
    const int64_t reach = (t.dims()[i] - 1) * t.strides()[i];
    (reach < 0 ? lo : hi) += reach;
  }
  *first = lo;
  *span = DenseTensor::empty(Dims{hi - lo + 1}, t.dtype(), Place::cpu());
  const char* start = static_cast<const char*>(t.raw_data()) + lo * t.itemsize();
  copy_bytes(span->raw_data(), Place::cpu(), start, t.place(), span->nbytes());
  return span->as_strided(t.dims(), t.strides(), -lo);
}
}  // namespace

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
  // Across devices the bytes move contiguously. A strided view on a device (there is no device
  // copy kernel) is staged through the host: the span of storage it covers comes over, the host
  // rearranges, and a strided destination's span goes back (elements of the span outside the
  // view are written back unchanged).
  if (!src_place.is_cpu() && !src.is_contiguous()) {
    DenseTensor span;
    int64_t first = 0;
    copy_from(stage_to_host(src, &span, &first));
    return;
  }
  if (!dst_place.is_cpu() && !is_contiguous()) {
    DenseTensor span;
    int64_t first = 0;
    DenseTensor host = stage_to_host(*this, &span, &first);
    host.copy_from(src);
    copy_bytes(static_cast<char*>(raw_data()) + first * itemsize(), dst_place, span.raw_data(),
               Place::cpu(), span.nbytes());
    return;
  }
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
