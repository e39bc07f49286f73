// Infer-meta for manipulation and indexing ops (skiff/ops/yaml/manipulation.yaml, indexing.yaml).
// Shapes that depend on data (masked_select, nonzero, unique, tensor repeats) come out as -1.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "skiff/core/place.h"
#include "skiff/core/scalar.h"
#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

using IntList = std::vector<int64_t>;

void reshape_meta(std::string_view op, const TensorMeta& x, const IntList& shape, TensorMeta* out);
void flatten_meta(std::string_view op, const TensorMeta& x, int64_t start_axis, int64_t stop_axis,
                  TensorMeta* out);
void transpose_meta(std::string_view op, const TensorMeta& x, const IntList& perm, TensorMeta* out);
void squeeze_meta(std::string_view op, const TensorMeta& x, const IntList& axis, TensorMeta* out);
void unsqueeze_meta(std::string_view op, const TensorMeta& x, const IntList& axis, TensorMeta* out);
/// expand and broadcast_to: -1 keeps a dim; new dims may be added in front.
void expand_meta(std::string_view op, const TensorMeta& x, const IntList& shape, TensorMeta* out);
void slice_meta(std::string_view op, const TensorMeta& input, const IntList& axes,
                const IntList& starts, const IntList& ends, const IntList& decrease_axis,
                TensorMeta* out);
void strided_slice_meta(std::string_view op, const TensorMeta& x, const IntList& axes,
                        const IntList& starts, const IntList& ends, const IntList& strides,
                        TensorMeta* out);
void diagonal_meta(std::string_view op, const TensorMeta& x, int64_t offset, int64_t axis1,
                   int64_t axis2, TensorMeta* out);
void split_meta(std::string_view op, const TensorMeta& x, const IntList& sections, int64_t axis,
                std::vector<TensorMeta>* out);
/// split_with_num and chunk: `num` equal pieces.
void split_with_num_meta(std::string_view op, const TensorMeta& x, int64_t num, int64_t axis,
                         std::vector<TensorMeta>* out);
void unbind_meta(std::string_view op, const TensorMeta& input, int64_t axis,
                 std::vector<TensorMeta>* out);
void concat_meta(std::string_view op, std::span<const TensorMeta> x, int64_t axis, TensorMeta* out);
void stack_meta(std::string_view op, std::span<const TensorMeta> x, int64_t axis, TensorMeta* out);
void tile_meta(std::string_view op, const TensorMeta& x, const IntList& repeat_times,
               TensorMeta* out);
void flip_meta(std::string_view op, const TensorMeta& x, const IntList& axis, TensorMeta* out);
void roll_meta(std::string_view op, const TensorMeta& x, const IntList& shifts, const IntList& axis,
               TensorMeta* out);
void pad_meta(std::string_view op, const TensorMeta& x, const IntList& paddings,
              const std::string& mode, float value, TensorMeta* out);
void tril_triu_meta(std::string_view op, const TensorMeta& x, int64_t diagonal, TensorMeta* out);
void repeat_interleave_meta(std::string_view op, const TensorMeta& x, int64_t repeats, int64_t axis,
                            TensorMeta* out);
void repeat_interleave_with_tensor_index_meta(std::string_view op, const TensorMeta& x,
                                              const TensorMeta& repeats, int64_t axis,
                                              TensorMeta* out);

void gather_meta(std::string_view op, const TensorMeta& x, const TensorMeta& index, int64_t axis,
                 TensorMeta* out);
void gather_nd_meta(std::string_view op, const TensorMeta& x, const TensorMeta& index,
                    TensorMeta* out);
void index_select_meta(std::string_view op, const TensorMeta& x, const TensorMeta& index,
                       int64_t axis, TensorMeta* out);
void take_along_axis_meta(std::string_view op, const TensorMeta& arr, const TensorMeta& indices,
                          int64_t axis, TensorMeta* out);
void scatter_meta(std::string_view op, const TensorMeta& x, const TensorMeta& index,
                  const TensorMeta& updates, bool overwrite, TensorMeta* out);
void scatter_nd_add_meta(std::string_view op, const TensorMeta& x, const TensorMeta& index,
                         const TensorMeta& updates, TensorMeta* out);
void index_add_meta(std::string_view op, const TensorMeta& x, const TensorMeta& index, int64_t axis,
                    const TensorMeta& value, TensorMeta* out);
void put_along_axis_meta(std::string_view op, const TensorMeta& arr, const TensorMeta& indices,
                         const TensorMeta& values, int64_t axis, const std::string& reduce,
                         bool include_self, TensorMeta* out);
void masked_fill_meta(std::string_view op, const TensorMeta& x, const TensorMeta& mask,
                      const Scalar& value, TensorMeta* out);
void masked_select_meta(std::string_view op, const TensorMeta& x, const TensorMeta& mask,
                        TensorMeta* out);
void nonzero_meta(std::string_view op, const TensorMeta& x, TensorMeta* out);
void topk_meta(std::string_view op, const TensorMeta& x, int64_t k, int64_t axis, bool largest,
               bool sorted, TensorMeta* out, TensorMeta* indices);
void sort_meta(std::string_view op, const TensorMeta& x, int64_t axis, bool descending, bool stable,
               TensorMeta* out);
void argsort_meta(std::string_view op, const TensorMeta& x, int64_t axis, bool descending,
                  bool stable, TensorMeta* out, TensorMeta* indices);
void unique_meta(std::string_view op, const TensorMeta& x, bool return_index, bool return_inverse,
                 bool return_counts, const IntList& axis, DType dtype, TensorMeta* out,
                 TensorMeta* indices, TensorMeta* inverse, TensorMeta* counts);

// Shared by both kernel backends: attribute decoding that must agree between them.

/// Per-dim (before, after) padding from pad's `paddings` (see the record); rank entries.
std::vector<std::pair<int64_t, int64_t>> pad_pairs(std::string_view op, int rank,
                                                   const IntList& paddings);
/// Normalized, per-dim slice parameters of slice/strided_slice: start, step and length.
struct SliceDim {
  int64_t start = 0, step = 1, len = 0;
};
std::vector<SliceDim> slice_dims(std::string_view op, const Dims& dims, const IntList& axes,
                                 const IntList& starts, const IntList& ends,
                                 const IntList* strides);
/// Split sizes of split (with one -1 inferred) along a dim of size `n`.
IntList split_sizes(std::string_view op, int64_t n, const IntList& sections);

}  // namespace skiff::ops::meta
