// Views: new dims/strides/offset over the same storage, no data movement. Each returns a tensor
// that shares storage with its input; errors name the op and the bad argument.
#pragma once

#include <optional>
#include <span>

#include "skiff/core/dense_tensor.h"

namespace skiff {

/// A view with dims `shape` if the strides allow it (always for contiguous input), else nullopt.
/// `shape` must be fully specified (no -1; see infer_reshape_dims).
std::optional<DenseTensor> try_view_reshape(const DenseTensor& x, const Dims& shape);
/// Resolves a Paddle reshape target: one -1 is inferred, 0 copies the input dim.
Dims infer_reshape_dims(const Dims& in, std::span<const int64_t> shape, const char* op);

DenseTensor view_permute(const DenseTensor& x, std::span<const int64_t> perm);
DenseTensor view_transpose(const DenseTensor& x, int64_t dim0, int64_t dim1);
/// Elements start, start+step, ... < end along `axis` (Python slice semantics, step > 0).
DenseTensor view_slice(const DenseTensor& x, int64_t axis, int64_t start, int64_t end,
                       int64_t step = 1);
/// Removes the given size-1 axes (all size-1 axes when `axes` is empty).
DenseTensor view_squeeze(const DenseTensor& x, std::span<const int64_t> axes);
DenseTensor view_unsqueeze(const DenseTensor& x, std::span<const int64_t> axes);
/// Broadcasts size-1 dims to `shape` with stride 0 (-1 keeps a dim); may add leading dims.
DenseTensor view_expand(const DenseTensor& x, const Dims& shape);
/// The diagonal of the (axis1, axis2) plane as the last dim.
DenseTensor view_diagonal(const DenseTensor& x, int64_t offset, int64_t axis1, int64_t axis2);

}  // namespace skiff
