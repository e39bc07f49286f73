#include "skiff/dist/spmd/dist_attr.h"

#include <sstream>

#include "skiff/base/error.h"

namespace skiff::dist::spmd {

DistAttr DistAttr::replicated(ProcessMesh mesh, int64_t ndim) {
  return DistAttr(std::move(mesh), std::vector<int64_t>(static_cast<size_t>(ndim), kReplicated));
}

DistAttr DistAttr::from_placements(ProcessMesh mesh, const std::vector<Placement>& placements,
                                   int64_t ndim) {
  SKIFF_ENFORCE(static_cast<int64_t>(placements.size()) == mesh.ndim(), kInvalidArgument,
                "DistAttr", "placements", str(mesh.ndim(), " placements (one per mesh axis)"),
                placements.size());
  std::vector<int64_t> dims(static_cast<size_t>(ndim), kReplicated);
  std::map<int64_t, ReduceType> partial;
  for (int64_t axis = 0; axis < mesh.ndim(); ++axis) {
    const Placement& p = placements[static_cast<size_t>(axis)];
    if (p.is_partial()) {
      partial[axis] = p.reduce_type();
      continue;
    }
    if (!p.is_shard()) continue;
    const int64_t d = p.shard_dim();
    SKIFF_ENFORCE(d < ndim, kInvalidArgument, "DistAttr", str("placements[", axis, "]"),
                  str("Shard(dim) with dim < ", ndim, " (the tensor's ndim)"), p.to_string());
    SKIFF_ENFORCE(dims[static_cast<size_t>(d)] == kReplicated, kInvalidArgument, "DistAttr",
                  str("placements[", axis, "]"), str("tensor dim ", d, " sharded by one mesh axis"),
                  str("mesh axes ", dims[static_cast<size_t>(d)], " and ", axis));
    dims[static_cast<size_t>(d)] = axis;
  }
  return DistAttr(std::move(mesh), std::move(dims), std::move(partial));
}

std::vector<Placement> DistAttr::placements() const {
  std::vector<Placement> out(static_cast<size_t>(mesh_.ndim()));
  for (const auto& [axis, t] : partial_) out[static_cast<size_t>(axis)] = Placement::partial(t);
  for (size_t d = 0; d < dims_mapping_.size(); ++d) {
    if (dims_mapping_[d] >= 0) {
      out[static_cast<size_t>(dims_mapping_[d])] = Placement::shard(static_cast<int64_t>(d));
    }
  }
  return out;
}

std::vector<int64_t> DistAttr::partial_axes() const {
  std::vector<int64_t> out;
  for (const auto& [axis, t] : partial_) out.push_back(axis);
  return out;
}

bool DistAttr::is_replicated() const {
  if (!partial_.empty()) return false;
  for (int64_t m : dims_mapping_) {
    if (m != kReplicated) return false;
  }
  return true;
}

void DistAttr::validate(std::string_view rule, std::string_view arg, int64_t ndim) const {
  SKIFF_ENFORCE(!mesh_.empty(), kInvalidArgument, rule, arg, "a dist attr with a process mesh",
                "an empty mesh");
  SKIFF_ENFORCE(this->ndim() == ndim, kInvalidArgument, rule, arg,
                str("dims_mapping of length ", ndim, " (the tensor's ndim)"), dims_mapping_);
  std::vector<bool> used(static_cast<size_t>(mesh_.ndim()), false);
  for (int64_t m : dims_mapping_) {
    SKIFF_ENFORCE(m >= -1 && m < mesh_.ndim(), kInvalidArgument, rule, arg,
                  str("dims_mapping entries -1 or a mesh axis in [0, ", mesh_.ndim(), ")"),
                  dims_mapping_);
    if (m < 0) continue;
    SKIFF_ENFORCE(!used[static_cast<size_t>(m)], kInvalidArgument, rule, arg,
                  str("each mesh axis in dims_mapping at most once"), dims_mapping_);
    used[static_cast<size_t>(m)] = true;
  }
  for (const auto& [axis, t] : partial_) {
    SKIFF_ENFORCE(axis >= 0 && axis < mesh_.ndim(), kInvalidArgument, rule, arg,
                  str("partial mesh axes in [0, ", mesh_.ndim(), ")"), axis);
    SKIFF_ENFORCE(!used[static_cast<size_t>(axis)], kInvalidArgument, rule, arg,
                  "a partial mesh axis that shards no dim",
                  str("axis ", axis, " partial and in dims_mapping ", dims_mapping_));
  }
}

std::string DistAttr::to_string() const {
  std::ostringstream os;
  os << "{mesh: " << str(mesh_.shape()) << ", dims_mapping: " << str(dims_mapping_)
     << ", partial: [";
  bool first = true;
  for (const auto& [axis, t] : partial_) {
    os << (first ? "" : ", ") << axis << ":" << reduce_type_name(t);
    first = false;
  }
  os << "]}";
  return os.str();
}

}  // namespace skiff::dist::spmd
