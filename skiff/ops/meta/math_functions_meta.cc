#include "skiff/ops/meta/math_functions_meta.h"

#include "skiff/base/error.h"

namespace skiff::ops::meta {

void as_strided_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& dims,
                     const std::vector<int64_t>& stride, int64_t offset, TensorMeta* out) {
  SKIFF_ENFORCE(dims.size() == stride.size(), kInvalidArgument, op, "stride",
                str("one stride per dim (", dims.size(), " dims)"), stride);
  SKIFF_ENFORCE(dims.size() <= static_cast<size_t>(kMaxRank), kInvalidArgument, op, "dims",
                str("at most ", kMaxRank, " dims"), dims);
  SKIFF_ENFORCE(offset >= 0, kInvalidArgument, op, "offset", "an offset >= 0", offset);
  int64_t numel = 1, last = offset;
  for (size_t i = 0; i < dims.size(); ++i) {
    SKIFF_ENFORCE(dims[i] >= 0, kInvalidArgument, op, "dims", "sizes >= 0", dims);
    SKIFF_ENFORCE(stride[i] >= 0, kInvalidArgument, op, "stride", "strides >= 0", stride);
    numel *= dims[i];
    if (dims[i] > 0) last += (dims[i] - 1) * stride[i];
  }
  int64_t x_numel = 1;
  for (int64_t d : x.dims) x_numel *= d;
  SKIFF_ENFORCE(numel == 0 || last < x_numel, kInvalidArgument, op, "x",
                str("at least ", last + 1, " elements for dims ", dims, ", stride ", stride,
                    " and offset ", offset),
                str(x_numel, " elements (shape ", x.dims, ")"));
  Dims d;
  for (int64_t v : dims) d.push_back(v);
  *out = {x.dtype, d};
}

}  // namespace skiff::ops::meta
