// Overflow-checked shape arithmetic: every element count, stride, offset and byte size derived
// from a user's shape goes through these (creation and reshape/expand infer-meta, views, output
// allocation, DenseTensor::empty), so a huge shape is an error naming the op, never a wrapped
// (small or zero) size followed by an out-of-bounds access. Dims::numel() and
// contiguous_strides() check the same way as a last line (naming only "shape").
#pragma once

#include <cstdint>
#include <string_view>

#include "skiff/core/dims.h"

namespace skiff {

/// *out = a * b (a + b); true when the exact result does not fit in int64.
inline bool mul_overflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_mul_overflow(a, b, out);
}
inline bool add_overflows(int64_t a, int64_t b, int64_t* out) {
  return __builtin_add_overflow(a, b, out);
}

/// No device has more memory than this (2^56 bytes, 64 PiB): larger requests are refused as
/// ResourceExhausted (kOutOfMemory) without asking an allocator (whose size arithmetic could wrap).
inline constexpr int64_t kMaxTensorBytes = int64_t{1} << 56;

/// The element count of `dims` (every dim >= 0); throws InvalidArgument naming `op` and `arg`
/// when it, or the product of the non-zero dims (which strides reach), overflows int64.
int64_t checked_numel(const Dims& dims, std::string_view op, std::string_view arg = "shape");

/// The byte size of a contiguous tensor of `dims` with elements of `itemsize` bytes, checked like
/// `checked_numel`; more than kMaxTensorBytes is ResourceExhausted (kOutOfMemory).
int64_t checked_nbytes(const Dims& dims, int64_t itemsize, std::string_view op,
                       std::string_view arg = "shape");

}  // namespace skiff
