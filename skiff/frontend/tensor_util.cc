#include "skiff/tensor_util.h"

#include <cstring>

#include "skiff/base/str.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/grad_mode.h"

namespace skiff {

template <typename T>
Tensor to_tensor(const std::vector<T>& values, const std::vector<int64_t>& shape) {
  Dims dims;
  for (int64_t d : shape) dims.push_back(d);
  SKIFF_ENFORCE(dims.numel() == static_cast<int64_t>(values.size()), kInvalidArgument, "to_tensor",
                "values", str(dims.numel(), " values for shape ", dims), values.size());
  DenseTensor t = DenseTensor::empty(dims, dtype_v<T>, Place::cpu());
  if (!values.empty()) std::memcpy(t.raw_data(), values.data(), values.size() * sizeof(T));
  return Tensor(std::move(t));
}

template <typename T>
std::vector<T> to_vector(const Tensor& t) {
  SKIFF_ENFORCE(t.dtype() == dtype_v<T>, kTypeError, "to_vector", "t", dtype_v<T>, t.dtype());
  const DenseTensor host =
      t.place().is_cpu() ? t.dense().contiguous() : t.dense().copy_to(Place::cpu());
  const T* p = static_cast<const T*>(host.raw_data());
  return std::vector<T>(p, p + host.numel());
}

#define SKIFF_INSTANTIATE_TENSOR_UTIL(T)                                            \
  template Tensor to_tensor<T>(const std::vector<T>&, const std::vector<int64_t>&); \
  template std::vector<T> to_vector<T>(const Tensor&);
SKIFF_INSTANTIATE_TENSOR_UTIL(float)
SKIFF_INSTANTIATE_TENSOR_UTIL(double)
SKIFF_INSTANTIATE_TENSOR_UTIL(int32_t)
SKIFF_INSTANTIATE_TENSOR_UTIL(int64_t)
SKIFF_INSTANTIATE_TENSOR_UTIL(uint8_t)
#undef SKIFF_INSTANTIATE_TENSOR_UTIL

Tensor grad_of(const Tensor& t) {
  const autograd::AutogradMeta* m = t.defined() ? autograd::autograd_meta(t) : nullptr;
  return m ? m->grad : Tensor();
}

void set_grad(const Tensor& t, Tensor g) { autograd::ensure_autograd_meta(t).grad = std::move(g); }

void copy_into(const Tensor& dst, const Tensor& src) {
  SKIFF_ENFORCE(dst.dims() == src.dims(), kInvalidArgument, "copy_into", "src",
                str("dims ", dst.dims(), " (those of the destination)"), src.dims());
  autograd::NoGradGuard no_grad;
  const Tensor s = src.dtype() == dst.dtype() ? src : cast(src, dst.dtype());
  Tensor handle = dst;  // the handle is const, the data it points to is not
  handle.mutable_dense().copy_from(s.dense());
  if (dst.dense().storage()) dst.dense().storage()->bump_version();
}

}  // namespace skiff
