// Which piece of a global tensor each process holds (Paddle's balanced split, as in
// phi's reshard_utils): a dim of size n sharded over k processes gives chunks of ceil(n/k)
// elements, in mesh-coordinate order, so the last chunks are shorter and may be empty (7 over 4
// is 2, 2, 2, 1; 5 over 4 is 2, 2, 1, 0). Pure arithmetic on a DistAttr: DistTensor, reshard and
// the tests share it, and zero-size shards fall out of the same formula.
#pragma once

#include <cstdint>
#include <vector>

#include "skiff/dist/spmd/dist_attr.h"

namespace skiff::dist {

/// [begin, end) of chunk `index` of `n` elements split into `parts` (ceil-sized chunks).
struct ShardRange {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t size() const { return end - begin; }
};
ShardRange shard_range(int64_t n, int64_t parts, int64_t index);
/// ceil(n / parts): the padded chunk size collectives exchange for uneven shards.
int64_t chunk_size(int64_t n, int64_t parts);

/// Per tensor dim, the range the process at mesh coordinate `coord` holds of a tensor with
/// global `shape` laid out by `attr` (partial axes hold a full-size term).
std::vector<ShardRange> local_ranges(const std::vector<int64_t>& shape,
                                     const spmd::DistAttr& attr,
                                     const std::vector<int64_t>& coord);
/// The local shape at `coord` (the sizes of local_ranges).
std::vector<int64_t> local_shape(const std::vector<int64_t>& shape, const spmd::DistAttr& attr,
                                 const std::vector<int64_t>& coord);

/// Checks `placements` for a tensor of `ndim` dims on `mesh` and converts them (InvalidArgument
/// naming `op`: wrong count, a Shard dim out of range, one dim sharded on two mesh axes).
spmd::DistAttr dist_attr_for(const char* op, const ProcessMesh& mesh,
                             const std::vector<Placement>& placements, int64_t ndim);

}  // namespace skiff::dist
