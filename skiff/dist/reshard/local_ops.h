// The local (no communication) tensor steps reshard is built from, on CPU dense tensors of any
// dtype: copies, identity fills for Partial, and the padded "shard dim first" buffers that
// carry uneven shards through equal-chunk collectives (Paddle pads to ceil size the same way).
#pragma once

#include <cstdint>
#include <vector>

#include "skiff/core/dense_tensor.h"
#include "skiff/dist/placement.h"

namespace skiff::dist::local_ops {

/// A contiguous copy that shares no storage with `x`.
DenseTensor clone(const DenseTensor& x);
/// A contiguous tensor of `shape` filled with zeros.
DenseTensor zeros(const std::vector<int64_t>& shape, DType dtype);
/// Writes the identity of `reduce` (0 for sum/any, 1 for prod, lowest for max, ...) over `x`;
/// avg, max, min and all keep the value (a replicated term already is the reduction).
void fill_identity(DenseTensor& x, ReduceType reduce);
/// True when the reduction of k equal terms is the term itself.
bool idempotent(ReduceType reduce);

/// x with dim `dim` moved to the front, padded with zeros along it to `chunk` rows, as a new
/// contiguous tensor [chunk, other dims...].
DenseTensor front_padded(const DenseTensor& x, int64_t dim, int64_t chunk);
/// The inverse: `rows` rows of a [chunk, other dims...] buffer moved back to position `dim`,
/// written into `out` (whose dim `dim` has `rows` entries).
void unpad_into(const DenseTensor& buf, int64_t dim, DenseTensor out);

}  // namespace skiff::dist::local_ops
