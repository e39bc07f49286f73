#include "skiff/dist/spmd/rule_util.h"

#include "skiff/base/error.h"

namespace skiff::dist::spmd::detail {

void check_inputs(std::string_view rule,
                  const std::vector<std::pair<std::string_view, const DistTensorSpec*>>& inputs) {
  for (const auto& [name, spec] : inputs) {
    spec->dist_attr.validate(rule, name, spec->ndim());
    const ProcessMesh& first = inputs.front().second->process_mesh();
    SKIFF_ENFORCE(spec->process_mesh() == first, kInvalidArgument, rule, name,
                  str("the process mesh of '", inputs.front().first, "' ", first.to_string()),
                  spec->process_mesh().to_string());
  }
}

int64_t normalize_axis(std::string_view rule, std::string_view arg, int64_t axis, int64_t ndim) {
  const int64_t lo = ndim == 0 ? -1 : -ndim;
  const int64_t hi = ndim == 0 ? 1 : ndim;
  SKIFF_ENFORCE(axis >= lo && axis < hi, kInvalidArgument, rule, arg,
                str("an axis in [", lo, ", ", hi, ")"), axis);
  return axis < 0 ? axis + (ndim == 0 ? 1 : ndim) : axis;
}

}  // namespace skiff::dist::spmd::detail
