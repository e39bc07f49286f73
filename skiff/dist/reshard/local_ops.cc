#include "skiff/dist/reshard/local_ops.h"

#include <cstring>
#include <limits>
#include <numeric>

#include "skiff/base/error.h"
#include "skiff/core/float16.h"
#include "skiff/core/views.h"

namespace skiff::dist::local_ops {

namespace {

std::vector<int64_t> front_perm(int64_t ndim, int64_t dim) {
  std::vector<int64_t> perm{dim};
  for (int64_t d = 0; d < ndim; ++d) {
    if (d != dim) perm.push_back(d);
  }
  return perm;
}

std::vector<int64_t> inverse(const std::vector<int64_t>& perm) {
  std::vector<int64_t> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inv[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  return inv;
}

}  // namespace

DenseTensor clone(const DenseTensor& x) {
  auto out = DenseTensor::empty(x.dims(), x.dtype(), x.place());
  out.copy_from(x);
  return out;
}

DenseTensor zeros(const std::vector<int64_t>& shape, DType dtype) {
  auto out = DenseTensor::empty(Dims(shape), dtype);
  if (out.nbytes() > 0) std::memset(out.raw_data(), 0, static_cast<size_t>(out.nbytes()));
  return out;
}

bool idempotent(ReduceType reduce) {
  return reduce == ReduceType::kRedAvg || reduce == ReduceType::kRedMax ||
         reduce == ReduceType::kRedMin || reduce == ReduceType::kRedAll;
}

void fill_identity(DenseTensor& x, ReduceType reduce) {
  if (idempotent(reduce) || x.numel() == 0) return;
  SKIFF_ENFORCE(x.is_contiguous(), kInternal, "reshard", "tensor", "a contiguous local value",
                "a strided view");
  if (reduce != ReduceType::kRedProd) {
    std::memset(x.raw_data(), 0, static_cast<size_t>(x.nbytes()));
    return;
  }
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* p = static_cast<T*>(x.raw_data());
    for (int64_t i = 0; i < x.numel(); ++i) p[i] = static_cast<T>(1.0f);
  });
}

DenseTensor front_padded(const DenseTensor& x, int64_t dim, int64_t chunk) {
  auto perm = front_perm(x.rank(), dim);
  DenseTensor moved = view_permute(x, perm);
  auto shape = moved.dims().to_vector();
  int64_t rows = shape[0];
  shape[0] = chunk;
  DenseTensor buf = zeros(shape, x.dtype());
  if (rows > 0 && x.numel() > 0) view_slice(buf, 0, 0, rows).copy_from(moved);
  return buf;
}

void unpad_into(const DenseTensor& buf, int64_t dim, DenseTensor out) {
  int64_t rows = out.dims()[static_cast<int>(dim)];
  if (rows == 0 || out.numel() == 0) return;
  auto perm = front_perm(out.rank(), dim);
  DenseTensor piece = view_permute(view_slice(buf, 0, 0, rows), inverse(perm));
  out.copy_from(piece);
}

}  // namespace skiff::dist::local_ops
