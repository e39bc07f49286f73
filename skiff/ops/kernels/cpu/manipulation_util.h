// Helpers for the CPU manipulation and indexing kernels. Data movement does not depend on the
// element type, only on its size, so the kernels dispatch once on the element size
// (visit_bytes) instead of instantiating a loop per dtype: one copy engine serves all ten dtypes
// and keeps compile time small.
//
// table_copy is the engine behind flip-free gathers (tile, roll, pad, repeat_interleave,
// index_select, gather): out[i0, ..., ik] = src[sum_d table_d[i_d]] with per-dim offset tables
// (kFillOffset: write the fill value). The innermost table is compressed into runs of constant
// step, so contiguous runs become memcpy and repeated elements become fills.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/core/dense_tensor.h"

namespace skiff::ops::cpu {

inline constexpr int64_t kFillOffset = INT64_MIN;

/// 16 bytes moved as one element (complex128).
struct Bytes16 {
  uint64_t lo, hi;
};

/// Calls f(U{}) with a trivially copyable type of `itemsize` bytes (1, 2, 4, 8 or 16).
template <typename F>
void visit_bytes(int64_t itemsize, const F& f) {
  switch (itemsize) {
    case 1:
      return f(uint8_t{});
    case 2:
      return f(uint16_t{});
    case 4:
      return f(uint32_t{});
    case 8:
      return f(uint64_t{});
    default:
      SKIFF_CHECK(itemsize == 16);
      return f(Bytes16{});
  }
}

/// out (contiguous) from src through per-dim offset tables (elements of src, from src's data
/// pointer). `fill` points to one element of out's dtype (used where a table holds kFillOffset).
void table_copy(const DenseTensor& src, DenseTensor& out,
                const std::vector<std::vector<int64_t>>& tables, const void* fill = nullptr);

/// Identity tables of src read with out's dims (src dims equal to out's, or 1 = broadcast).
std::vector<std::vector<int64_t>> identity_tables(const DenseTensor& src, const Dims& out_dims);

/// The values of an int32/int64 tensor as int64, in row-major order.
std::vector<int64_t> index_values(const DenseTensor& index);

/// The values of an int32/int64 index tensor as int64, checked to lie in [-n, n) when
/// `allow_negative` (then wrapped) or [0, n); throws kOutOfRange naming op and arg.
std::vector<int64_t> read_indices(const char* op, const char* arg, const DenseTensor& index,
                                  int64_t n, bool allow_negative, const char* what);

/// A freshly allocated contiguous copy of x (never aliases x).
DenseTensor clone(const DenseTensor& x);

}  // namespace skiff::ops::cpu
