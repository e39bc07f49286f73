// The tensor-centric description of a distributed tensor that SPMD rules work on (Paddle's
// TensorDistAttr): a ProcessMesh, a dims_mapping (per tensor dim the mesh axis it is sharded on,
// or -1) and a partial status (mesh axes holding a pending reduction). Users write the
// mesh-centric placements (one Placement per mesh axis); from_placements/placements convert.
// A DistTensorSpec adds the global shape (rules need it for broadcasting and reshapes), and a
// rule returns an SpmdInfo: the dist attrs the inputs must be resharded to, and the outputs'.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "skiff/dist/placement.h"
#include "skiff/dist/process_mesh.h"

namespace skiff::dist::spmd {

/// dims_mapping value of a dim that is not sharded (Paddle's kReplicateDim).
inline constexpr int64_t kReplicated = -1;

class DistAttr {
 public:
  DistAttr() = default;
  /// Not validated here: rules validate their inputs (validate below) so that an error names the
  /// rule and the argument.
  DistAttr(ProcessMesh mesh, std::vector<int64_t> dims_mapping,
           std::map<int64_t, ReduceType> partial = {})
      : mesh_(std::move(mesh)),
        dims_mapping_(std::move(dims_mapping)),
        partial_(std::move(partial)) {}
  /// Every dim replicated, nothing partial.
  static DistAttr replicated(ProcessMesh mesh, int64_t ndim);
  /// From one placement per mesh axis for a tensor of `ndim` dims; InvalidArgument when the count
  /// differs from the mesh's ndim, a Shard dim is out of range, or two mesh axes shard one dim
  /// (co-sharding is not expressible as a dims_mapping).
  static DistAttr from_placements(ProcessMesh mesh, const std::vector<Placement>& placements,
                                  int64_t ndim);

  const ProcessMesh& process_mesh() const { return mesh_; }
  const std::vector<int64_t>& dims_mapping() const { return dims_mapping_; }
  const std::map<int64_t, ReduceType>& partial_status() const { return partial_; }
  int64_t ndim() const { return static_cast<int64_t>(dims_mapping_.size()); }
  /// One placement per mesh axis: Shard(d) where dims_mapping[d] is the axis, Partial where the
  /// axis is partial, Replicate otherwise.
  std::vector<Placement> placements() const;

  bool is_partial() const { return !partial_.empty(); }
  bool is_partial(int64_t mesh_axis) const { return partial_.count(mesh_axis) > 0; }
  /// The mesh axes that are partial, ascending.
  std::vector<int64_t> partial_axes() const;
  /// True when no dim is sharded and nothing is partial.
  bool is_replicated() const;

  void set_dims_mapping(std::vector<int64_t> m) { dims_mapping_ = std::move(m); }
  void set_partial(int64_t mesh_axis, ReduceType t = ReduceType::kRedSum) {
    partial_[mesh_axis] = t;
  }
  void clear_partial() { partial_.clear(); }

  /// InvalidArgument naming `rule` and `arg` unless: the mesh is non-empty, dims_mapping has
  /// `ndim` entries, each -1 or a mesh axis in [0, mesh.ndim), no mesh axis twice, and every
  /// partial axis is a mesh axis that shards no dim.
  void validate(std::string_view rule, std::string_view arg, int64_t ndim) const;

  /// "{mesh: [2, 3], dims_mapping: [0, -1], partial: [1:sum]}".
  std::string to_string() const;
  bool operator==(const DistAttr&) const = default;

 private:
  ProcessMesh mesh_;
  std::vector<int64_t> dims_mapping_;
  std::map<int64_t, ReduceType> partial_;
};

/// A rule's view of one input (Paddle's DistMetaTensor): the global shape and the dist attr.
struct DistTensorSpec {
  std::vector<int64_t> shape;
  DistAttr dist_attr;

  int64_t ndim() const { return static_cast<int64_t>(shape.size()); }
  const std::vector<int64_t>& dims_mapping() const { return dist_attr.dims_mapping(); }
  const ProcessMesh& process_mesh() const { return dist_attr.process_mesh(); }
};

/// What a rule infers (Paddle's SpmdInfo): the dist attrs each input must be resharded to before
/// the local kernel runs (never partial, a partial input is reduced first; index_add_spmd's x
/// is the exception), in argument order
/// (a list argument contributes one entry per tensor), and the outputs' dist attrs.
struct SpmdInfo {
  std::vector<DistAttr> inputs;
  std::vector<DistAttr> outputs;
};

}  // namespace skiff::dist::spmd
