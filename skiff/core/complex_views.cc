#include "skiff/core/complex_views.h"

#include "skiff/base/error.h"

namespace skiff {

DenseTensor view_as_real(const DenseTensor& x) {
  SKIFF_ENFORCE(is_complex(x.dtype()), kTypeError, "as_real", "x", "a complex tensor", x.dtype());
  Dims dims = x.dims(), strides = x.strides();
  for (int i = 0; i < strides.size(); ++i) strides[i] *= 2;
  dims.push_back(2);
  strides.push_back(1);
  return DenseTensor(x.storage(), complex_to_real(x.dtype()), dims, strides, x.offset() * 2);
}

DenseTensor view_as_complex(const DenseTensor& x, const char* op) {
  SKIFF_ENFORCE(x.dtype() == DType::kFloat32 || x.dtype() == DType::kFloat64, kTypeError, op, "x",
                "a float32 or float64 tensor", x.dtype());
  SKIFF_ENFORCE(x.rank() >= 1 && x.dims().back() == 2, kInvalidArgument, op, "x",
                "a last dim of size 2 (real, imaginary)", x.dims());
  const DenseTensor& c = x.strides().back() == 1 ? x : x.contiguous();
  Dims dims, strides;
  bool even = c.offset() % 2 == 0;
  for (int i = 0; i + 1 < c.rank(); ++i) {
    dims.push_back(c.dim(i));
    strides.push_back(c.strides()[i] / 2);
    even &= c.strides()[i] % 2 == 0 || c.dim(i) == 1;
  }
  if (!even) return view_as_complex(x.contiguous(), op);
  return DenseTensor(c.storage(), real_to_complex(c.dtype()), dims, strides, c.offset() / 2);
}

}  // namespace skiff
