#include "skiff/dist/process_mesh.h"

#include <algorithm>
#include <functional>
#include <set>

#include "skiff/base/error.h"

namespace skiff::dist {

namespace {
std::string join(const auto& xs) {
  std::string s = "[";
  for (size_t i = 0; i < xs.size(); ++i) s += str(i ? ", " : "", xs[i]);
  return s + "]";
}
}  // namespace

ProcessMesh::ProcessMesh(std::vector<int64_t> shape, std::vector<int64_t> process_ids,
                         std::vector<std::string> dim_names)
    : shape_(std::move(shape)),
      process_ids_(std::move(process_ids)),
      dim_names_(std::move(dim_names)) {
  SKIFF_ENFORCE(!shape_.empty(), kInvalidArgument, "ProcessMesh", "shape", "at least one dim",
                "[]");
  int64_t n = 1;
  for (int64_t d : shape_) {
    SKIFF_ENFORCE(d >= 1, kInvalidArgument, "ProcessMesh", "shape", "dims >= 1", join(shape_));
    n *= d;
  }
  if (process_ids_.empty()) {
    for (int64_t i = 0; i < n; ++i) process_ids_.push_back(i);
  }
  SKIFF_ENFORCE(static_cast<int64_t>(process_ids_.size()) == n, kInvalidArgument, "ProcessMesh",
                "process_ids", str(n, " ids (the product of shape ", join(shape_), ")"),
                process_ids_.size());
  std::set<int64_t> seen;
  for (int64_t id : process_ids_) {
    SKIFF_ENFORCE(id >= 0, kInvalidArgument, "ProcessMesh", "process_ids", "ids >= 0", id);
    SKIFF_ENFORCE(seen.insert(id).second, kInvalidArgument, "ProcessMesh", "process_ids",
                  "distinct ids", str(id, " twice"));
  }
  if (dim_names_.empty()) {
    for (size_t i = 0; i < shape_.size(); ++i) dim_names_.push_back(str("d", i));
  }
  SKIFF_ENFORCE(dim_names_.size() == shape_.size(), kInvalidArgument, "ProcessMesh", "dim_names",
                str("one name per dim (", shape_.size(), ")"), dim_names_.size());
  std::set<std::string> names(dim_names_.begin(), dim_names_.end());
  SKIFF_ENFORCE(names.size() == dim_names_.size(), kInvalidArgument, "ProcessMesh", "dim_names",
                "distinct names", join(dim_names_));
}

int64_t ProcessMesh::dim_size(int64_t dim) const {
  const int64_t r = ndim();
  SKIFF_ENFORCE(dim >= -r && dim < r, kOutOfRange, "ProcessMesh", "dim",
                str("a dim in [", -r, ", ", r, ")"), dim);
  return shape_[dim < 0 ? dim + r : dim];
}

int64_t ProcessMesh::dim_index(std::string_view name) const {
  for (size_t i = 0; i < dim_names_.size(); ++i) {
    if (dim_names_[i] == name) return static_cast<int64_t>(i);
  }
  SKIFF_THROW(kInvalidArgument, "ProcessMesh", "dim_name", str("one of ", join(dim_names_)),
              str("'", name, "'"));
}

int64_t ProcessMesh::dim_size(std::string_view name) const { return shape_[dim_index(name)]; }

bool ProcessMesh::contains(int64_t process_id) const {
  return std::find(process_ids_.begin(), process_ids_.end(), process_id) != process_ids_.end();
}

std::vector<int64_t> ProcessMesh::coord(int64_t process_id) const {
  auto it = std::find(process_ids_.begin(), process_ids_.end(), process_id);
  SKIFF_ENFORCE(it != process_ids_.end(), kInvalidArgument, "ProcessMesh", "process_id",
                str("an id of the mesh ", join(process_ids_)), process_id);
  int64_t flat = it - process_ids_.begin();
  std::vector<int64_t> c(shape_.size());
  for (size_t i = shape_.size(); i-- > 0;) {
    c[i] = flat % shape_[i];
    flat /= shape_[i];
  }
  return c;
}

bool ProcessMesh::is_default_layout() const {
  for (size_t i = 0; i < process_ids_.size(); ++i) {
    if (process_ids_[i] != static_cast<int64_t>(i)) return false;
  }
  for (size_t i = 0; i < dim_names_.size(); ++i) {
    if (dim_names_[i] != str("d", i)) return false;
  }
  return true;
}

std::string ProcessMesh::to_string() const {
  return str("{shape: ", join(shape_), ", process_ids: ", join(process_ids_),
             ", dim_names: ", join(dim_names_), "}");
}

size_t ProcessMesh::hash() const {
  size_t h = 0;
  auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  for (int64_t d : shape_) mix(std::hash<int64_t>()(d));
  for (int64_t id : process_ids_) mix(std::hash<int64_t>()(id));
  for (const auto& n : dim_names_) mix(std::hash<std::string>()(n));
  return h;
}

}  // namespace skiff::dist
