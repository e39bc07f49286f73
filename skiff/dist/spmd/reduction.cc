// reduction_spmd and replicated_spmd.
#include <algorithm>

#include "skiff/base/error.h"
#include "skiff/dist/spmd/einsum.h"
#include "skiff/dist/spmd/rule_util.h"
#include "skiff/dist/spmd/rules.h"

namespace skiff::dist::spmd {

SpmdInfo reduction_spmd(const DistTensorSpec& x, const std::vector<int64_t>& axis, bool keepdim,
                        ReduceType reduce_type) {
  constexpr std::string_view kRule = "reduction_spmd";
  detail::check_inputs(kRule, {{"x", &x}});
  const int64_t n = x.ndim();
  std::vector<bool> reduced(static_cast<size_t>(n), axis.empty());
  for (int64_t a : axis) {
    if (n == 0) {  // a 0-d tensor reduces over axis 0 / -1 to itself
      detail::normalize_axis(kRule, "axis", a, n);
      continue;
    }
    reduced[static_cast<size_t>(detail::normalize_axis(kRule, "axis", a, n))] = true;
  }
  const std::string xl = dim_letters(kRule, n);
  std::string outl;
  for (int64_t i = 0; i < n; ++i) {
    if (!reduced[static_cast<size_t>(i)]) {
      outl += xl[static_cast<size_t>(i)];
    } else if (keepdim) {
      outl += '1';
    }
  }
  const AxisMap map = merge_shardings(kRule, {{"x", xl, x.dims_mapping()}});
  SpmdInfo info;
  info.inputs = {detail::attr_on(x, dims_mapping_for(xl, map))};
  info.outputs = {detail::attr_on(x, dims_mapping_for(outl, map),
                                  partial_for(xl, outl, map, reduce_type))};
  return info;
}

SpmdInfo replicated_spmd(const std::vector<DistTensorSpec>& inputs,
                         const std::vector<int64_t>& output_ndims) {
  constexpr std::string_view kRule = "replicated_spmd";
  SKIFF_ENFORCE(!inputs.empty(), kInvalidArgument, kRule, "inputs",
                "at least one input (it gives the mesh)", "none");
  std::vector<std::string> names;
  for (size_t i = 0; i < inputs.size(); ++i) names.push_back(str("inputs[", i, "]"));
  std::vector<std::pair<std::string_view, const DistTensorSpec*>> checked;
  for (size_t i = 0; i < inputs.size(); ++i) checked.push_back({names[i], &inputs[i]});
  detail::check_inputs(kRule, checked);
  const ProcessMesh& mesh = inputs.front().process_mesh();
  SpmdInfo info;
  for (const DistTensorSpec& in : inputs) info.inputs.push_back(DistAttr::replicated(mesh, in.ndim()));
  for (size_t i = 0; i < output_ndims.size(); ++i) {
    SKIFF_ENFORCE(output_ndims[i] >= 0, kInvalidArgument, kRule, str("output_ndims[", i, "]"),
                  "a rank >= 0", output_ndims[i]);
    info.outputs.push_back(DistAttr::replicated(mesh, output_ndims[i]));
  }
  return info;
}

}  // namespace skiff::dist::spmd
