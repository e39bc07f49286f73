#include "skiff/dist/shard_layout.h"

#include <algorithm>
#include <map>

#include "skiff/base/error.h"

namespace skiff::dist {

int64_t chunk_size(int64_t n, int64_t parts) { return parts <= 0 ? n : (n + parts - 1) / parts; }

ShardRange shard_range(int64_t n, int64_t parts, int64_t index) {
  int64_t c = chunk_size(n, parts);
  int64_t begin = std::min(index * c, n);
  return {begin, std::min(begin + c, n)};
}

std::vector<ShardRange> local_ranges(const std::vector<int64_t>& shape,
                                     const spmd::DistAttr& attr,
                                     const std::vector<int64_t>& coord) {
  std::vector<ShardRange> r(shape.size());
  const auto& map = attr.dims_mapping();
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t axis = d < map.size() ? map[d] : spmd::kReplicated;
    r[d] = axis == spmd::kReplicated
               ? ShardRange{0, shape[d]}
               : shard_range(shape[d], attr.process_mesh().shape()[axis], coord[axis]);
  }
  return r;
}

std::vector<int64_t> local_shape(const std::vector<int64_t>& shape, const spmd::DistAttr& attr,
                                 const std::vector<int64_t>& coord) {
  std::vector<int64_t> s;
  for (const auto& r : local_ranges(shape, attr, coord)) s.push_back(r.size());
  return s;
}

spmd::DistAttr dist_attr_for(const char* op, const ProcessMesh& mesh,
                             const std::vector<Placement>& placements, int64_t ndim) {
  SKIFF_ENFORCE(!mesh.empty(), kInvalidArgument, op, "mesh", "a non-empty ProcessMesh",
                "an empty mesh");
  SKIFF_ENFORCE(static_cast<int64_t>(placements.size()) == mesh.ndim(), kInvalidArgument, op,
                "placements", str("one placement per mesh dim (", mesh.ndim(), ")"),
                str(placements.size(), " placements"));
  for (const auto& p : placements) {
    SKIFF_ENFORCE(!p.is_shard() || p.shard_dim() < ndim, kInvalidArgument, op, "placements",
                  str("Shard dims in [0, ", ndim, ") for a ", ndim, "-d tensor"), p.to_string());
  }
  std::vector<int64_t> map(ndim, spmd::kReplicated);
  std::map<int64_t, ReduceType> partial;
  for (size_t axis = 0; axis < placements.size(); ++axis) {
    const auto& p = placements[axis];
    if (p.is_partial()) partial[static_cast<int64_t>(axis)] = p.reduce_type();
    if (!p.is_shard()) continue;
    SKIFF_ENFORCE(map[p.shard_dim()] == spmd::kReplicated, kUnimplemented, op, "placements",
                  "each tensor dim sharded on at most one mesh dim",
                  str("dim ", p.shard_dim(), " sharded on mesh dims ", map[p.shard_dim()], " and ",
                      axis));
    map[p.shard_dim()] = static_cast<int64_t>(axis);
  }
  return spmd::DistAttr(mesh, std::move(map), std::move(partial));
}

}  // namespace skiff::dist
