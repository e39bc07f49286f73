#include "skiff/ops/meta/fft_meta.h"

#include <algorithm>

#include "skiff/base/error.h"

namespace skiff::ops::meta {

void check_fft_args(std::string_view op, int rank, const std::vector<int64_t>& axes,
                    const std::string& normalization) {
  SKIFF_ENFORCE(
      normalization == "backward" || normalization == "forward" || normalization == "ortho",
      kInvalidArgument, op, "normalization", "'backward', 'forward' or 'ortho'",
      str("'", normalization, "'"));
  SKIFF_ENFORCE(!axes.empty(), kInvalidArgument, op, "axes", "at least one axis", "[]");
  for (size_t i = 0; i < axes.size(); ++i) {
    SKIFF_ENFORCE(axes[i] >= 0 && axes[i] < rank, kOutOfRange, op, "axes",
                  str("axes in [0, ", rank, ")"), axes[i]);
    for (size_t j = 0; j < i; ++j) {
      SKIFF_ENFORCE(axes[j] != axes[i], kInvalidArgument, op, "axes", "distinct axes",
                    str("axis ", axes[i], " twice"));
    }
  }
}

void fft_c2c_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axes,
                  const std::string& normalization, bool, TensorMeta* out) {
  SKIFF_ENFORCE(is_complex(x.dtype), kTypeError, op, "x", "a complex64 or complex128 tensor",
                x.dtype);
  check_fft_args(op, x.dims.size(), axes, normalization);
  *out = x;
}

void fft_r2c_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axes,
                  const std::string& normalization, bool, bool onesided, TensorMeta* out) {
  SKIFF_ENFORCE(x.dtype == DType::kFloat32 || x.dtype == DType::kFloat64, kTypeError, op, "x",
                "a float32 or float64 tensor", x.dtype);
  check_fft_args(op, x.dims.size(), axes, normalization);
  Dims d = x.dims;
  if (onesided && d[axes.back()] >= 0) d[axes.back()] = d[axes.back()] / 2 + 1;
  *out = {real_to_complex(x.dtype), d};
}

int64_t fft_c2r_length(int64_t k, int64_t last_dim_size) {
  return last_dim_size > 0 ? last_dim_size : 2 * (k - 1);
}

void fft_c2r_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axes,
                  const std::string& normalization, bool, int64_t last_dim_size, TensorMeta* out) {
  SKIFF_ENFORCE(is_complex(x.dtype), kTypeError, op, "x", "a complex64 or complex128 tensor",
                x.dtype);
  check_fft_args(op, x.dims.size(), axes, normalization);
  SKIFF_ENFORCE(last_dim_size >= 0, kInvalidArgument, op, "last_dim_size",
                "a size >= 0 (0: 2(k-1))", last_dim_size);
  Dims d = x.dims;
  const int64_t k = d[axes.back()];
  if (k >= 0) {
    const int64_t n = fft_c2r_length(k, last_dim_size);
    SKIFF_ENFORCE(n >= 1, kInvalidArgument, op, "x",
                  "an output length >= 1 along the last axis (give n for an input of length 1)",
                  str("input length ", k, ", output length ", n));
    d[axes.back()] = n;
  }
  *out = {complex_to_real(x.dtype), d};
}

}  // namespace skiff::ops::meta
