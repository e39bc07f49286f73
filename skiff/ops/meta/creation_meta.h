// Infer-meta for creation ops: full/zeros/ones and their *_like forms, ranges, eye, random.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "skiff/core/place.h"
#include "skiff/core/scalar.h"
#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// `shape` (every dim >= 0) with `dtype` (undefined: float32).
void shape_dtype_meta(std::string_view op, const std::vector<int64_t>& shape, DType dtype,
                      TensorMeta* out);
/// x's dims with `dtype` (undefined: x's dtype).
void like_meta(std::string_view op, const TensorMeta& x, DType dtype, TensorMeta* out);
/// [ceil((end - start) / step)] (empty when the range runs against step's sign).
void arange_meta(std::string_view op, const Scalar& start, const Scalar& end, const Scalar& step,
                 DType dtype, TensorMeta* out);
void linspace_meta(std::string_view op, const Scalar& start, const Scalar& stop, int64_t num,
                   DType dtype, TensorMeta* out);
void eye_meta(std::string_view op, int64_t num_rows, int64_t num_columns, DType dtype,
              TensorMeta* out);
void uniform_meta(std::string_view op, const std::vector<int64_t>& shape, DType dtype, double min,
                  double max, int64_t seed, TensorMeta* out);
void gaussian_meta(std::string_view op, const std::vector<int64_t>& shape, double mean, double std,
                   int64_t seed, DType dtype, TensorMeta* out);
void randint_meta(std::string_view op, int64_t low, int64_t high, const std::vector<int64_t>& shape,
                  DType dtype, TensorMeta* out);
void randperm_meta(std::string_view op, int64_t n, DType dtype, TensorMeta* out);

/// Number of elements of arange(start, end, step) (shared by infer-meta and kernels).
int64_t arange_size(double start, double end, double step);

}  // namespace skiff::ops::meta
