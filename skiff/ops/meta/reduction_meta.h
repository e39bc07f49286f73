// Infer-meta for reduction ops: reductions over a set of axes (`axis = {}` means all) with
// keepdim, arg-reductions over one axis or the flattened tensor, the p-norm and scans.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "skiff/core/scalar.h"
#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// Which of `rank` dims `axis` reduces (all when empty); negative axes count from the end.
/// Throws kOutOfRange for an axis outside the rank and kInvalidArgument for a repeated axis.
std::vector<bool> reduce_mask(std::string_view op, int rank, const std::vector<int64_t>& axis);
/// Dims of a reduction of `dims` over `mask`: reduced dims become 1 (keepdim) or disappear.
Dims reduced_dims(const Dims& dims, const std::vector<bool>& mask, bool keepdim);

/// x's dtype, reduced dims (mean, logsumexp).
void reduce_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axis,
                 bool keepdim, TensorMeta* out);
/// As reduce_meta, and a reduction over zero elements is an error (max, min, amax, amin).
void reduce_nonempty_meta(std::string_view op, const TensorMeta& x,
                          const std::vector<int64_t>& axis, bool keepdim, TensorMeta* out);
/// Bool result (all, any).
void reduce_bool_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axis,
                      bool keepdim, TensorMeta* out);
/// `dtype` if given; otherwise bool and int32 give int64 (Paddle), other dtypes are kept.
void sum_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axis,
              DType dtype, bool keepdim, TensorMeta* out);
/// `dtype` if given, else x's dtype.
void prod_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axis,
               bool keepdim, DType dtype, TensorMeta* out);
/// var and std.
void moment_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axis,
                 bool unbiased, bool keepdim, TensorMeta* out);
/// Paddle's p_norm: over `axis`, or every element when `asvector`.
void p_norm_meta(std::string_view op, const TensorMeta& x, float porder, int64_t axis,
                 float epsilon, bool keepdim, bool asvector, TensorMeta* out);
/// argmax/argmin: int64 or int32 indices over `axis`, or over the flattened tensor.
void arg_reduce_meta(std::string_view op, const TensorMeta& x, const Scalar& axis, bool keepdim,
                     bool flatten, DType dtype, TensorMeta* out);
/// x's dims (1-D when `flatten`) and dtype.
void cumsum_meta(std::string_view op, const TensorMeta& x, const Scalar& axis, bool flatten,
                 bool exclusive, bool reverse, TensorMeta* out);
void cumprod_meta(std::string_view op, const TensorMeta& x, int64_t dim, bool exclusive,
                  bool reverse, TensorMeta* out);

}  // namespace skiff::ops::meta
