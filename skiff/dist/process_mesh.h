// An n-d array of process ids with named dims (Paddle's paddle.distributed.ProcessMesh): the
// topology a DistTensor's placements refer to. Used by the IR's dist dialect and by DistTensor,
// so it depends on skiff_base only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace skiff::dist {

class ProcessMesh {
 public:
  /// Empty mesh (no processes).
  ProcessMesh() = default;
  /// `shape` dims >= 1; `process_ids` (row-major, as many as the product of `shape`) distinct and
  /// >= 0; `dim_names` distinct, one per dim. Empty ids mean 0..n-1, empty names "d0", "d1", ...
  /// (Paddle's defaults). InvalidArgument naming the argument otherwise.
  explicit ProcessMesh(std::vector<int64_t> shape, std::vector<int64_t> process_ids = {},
                       std::vector<std::string> dim_names = {});

  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<int64_t>& process_ids() const { return process_ids_; }
  const std::vector<std::string>& dim_names() const { return dim_names_; }
  int64_t ndim() const { return static_cast<int64_t>(shape_.size()); }
  /// Number of processes.
  int64_t size() const { return static_cast<int64_t>(process_ids_.size()); }
  bool empty() const { return process_ids_.empty(); }
  /// Size of mesh dim `dim` (negative counts from the end) or of the dim named `name`.
  int64_t dim_size(int64_t dim) const;
  int64_t dim_size(std::string_view name) const;
  /// Index of the dim named `name`; InvalidArgument listing the names otherwise.
  int64_t dim_index(std::string_view name) const;
  bool contains(int64_t process_id) const;
  /// The coordinate of `process_id` in the mesh; InvalidArgument when it is not in the mesh.
  std::vector<int64_t> coord(int64_t process_id) const;
  /// True when the ids are 0..n-1 in order and the names are the defaults.
  bool is_default_layout() const;

  /// "{shape: [2, 2], process_ids: [0, 1, 2, 3], dim_names: [x, y]}".
  std::string to_string() const;

  bool operator==(const ProcessMesh&) const = default;
  size_t hash() const;

 private:
  std::vector<int64_t> shape_;
  std::vector<int64_t> process_ids_;
  std::vector<std::string> dim_names_;
};

}  // namespace skiff::dist
