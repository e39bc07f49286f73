#include "skiff/core/tensor.h"

namespace skiff {

namespace {
[[noreturn]] void throw_not_dense(const Tensor& t) {
  SKIFF_ENFORCE(t.defined(), kPrecondition, "Tensor", "self", "an initialized tensor",
                "an undefined tensor");
  SKIFF_THROW(kTypeError, "Tensor", "self", "a dense tensor",
              t.kind() == TensorKind::kDist ? "a distributed tensor" : "a symbolic tensor");
}
}  // namespace

void Tensor::throw_undefined() {
  SKIFF_THROW(kPrecondition, "Tensor", "self", "an initialized tensor", "an undefined tensor");
}

const DenseTensor& Tensor::dense() const {
  if (!is_dense()) throw_not_dense(*this);
  return static_cast<const DenseTensor&>(*impl_);
}

DenseTensor& Tensor::mutable_dense() {
  if (!is_dense()) throw_not_dense(*this);
  return static_cast<DenseTensor&>(*impl_);
}

template <typename T>
T Tensor::item() const {
  const DenseTensor& d = dense();
  SKIFF_ENFORCE(d.numel() == 1, kInvalidArgument, "item", "self", "a tensor with one element",
                str("shape ", d.dims()));
  SKIFF_ENFORCE(d.place().is_cpu(), kInvalidArgument, "item", "self", "a CPU tensor", d.place());
  return visit_dtype(d.dtype(), [&](auto tag) -> T {
    using S = decltype(tag);
    const S v = *static_cast<const S*>(d.raw_data());
    if constexpr (std::is_same_v<S, float16> || std::is_same_v<S, bfloat16>) {
      return static_cast<T>(static_cast<float>(v));
    } else {
      return static_cast<T>(v);
    }
  });
}

template bool Tensor::item<bool>() const;
template int64_t Tensor::item<int64_t>() const;
template int32_t Tensor::item<int32_t>() const;
template float Tensor::item<float>() const;
template double Tensor::item<double>() const;

}  // namespace skiff
