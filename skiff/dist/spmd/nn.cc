// Neural-network rules: softmax_spmd, layer_norm_spmd, rms_norm_spmd, embedding_spmd,
// cross_entropy_with_softmax_spmd.
#include <algorithm>

#include "skiff/base/error.h"
#include "skiff/dist/spmd/einsum.h"
#include "skiff/dist/spmd/rule_util.h"
#include "skiff/dist/spmd/rules.h"

namespace skiff::dist::spmd {

using detail::attr_on;

SpmdInfo softmax_spmd(const DistTensorSpec& x, int64_t axis) {
  constexpr std::string_view kRule = "softmax_spmd";
  detail::check_inputs(kRule, {{"x", &x}});
  std::vector<int64_t> m = x.dims_mapping();
  if (x.ndim() > 0) m[static_cast<size_t>(detail::normalize_axis(kRule, "axis", axis, x.ndim()))] = -1;
  return {{attr_on(x, m)}, {attr_on(x, m)}};
}

namespace {
// Shared by layer_norm and rms_norm: x with dims >= begin replicated, each parameter replicated,
// out like x, the statistics (x.dims[:begin]) with x's leading shardings.
SpmdInfo norm_spmd(std::string_view rule, const DistTensorSpec& x,
                   const std::vector<std::pair<std::string_view, const DistTensorSpec*>>& params,
                   int64_t begin_norm_axis, size_t num_stats) {
  std::vector<std::pair<std::string_view, const DistTensorSpec*>> ins = {{"x", &x}};
  for (const auto& p : params) {
    if (p.second != nullptr) ins.push_back(p);
  }
  detail::check_inputs(rule, ins);
  SKIFF_ENFORCE(x.ndim() >= 1, kInvalidArgument, rule, "x", "a tensor of at least 1 dim",
                "0 dims");
  const int64_t begin = detail::normalize_axis(rule, "begin_norm_axis", begin_norm_axis, x.ndim());
  std::vector<int64_t> m = x.dims_mapping();
  std::fill(m.begin() + begin, m.end(), kReplicated);
  SpmdInfo info{{attr_on(x, m)}, {attr_on(x, m)}};
  for (const auto& p : params) {
    info.inputs.push_back(p.second == nullptr
                              ? DistAttr()
                              : DistAttr::replicated(x.process_mesh(), p.second->ndim()));
  }
  const std::vector<int64_t> stats(m.begin(), m.begin() + begin);
  for (size_t k = 0; k < num_stats; ++k) info.outputs.push_back(attr_on(x, stats));
  return info;
}
}  // namespace

SpmdInfo layer_norm_spmd(const DistTensorSpec& x, const DistTensorSpec* scale,
                         const DistTensorSpec* bias, [[maybe_unused]] float epsilon,
                         int64_t begin_norm_axis) {
  return norm_spmd("layer_norm_spmd", x, {{"scale", scale}, {"bias", bias}}, begin_norm_axis, 2);
}

SpmdInfo rms_norm_spmd(const DistTensorSpec& x, const DistTensorSpec* weight,
                       [[maybe_unused]] float epsilon, int64_t begin_norm_axis) {
  return norm_spmd("rms_norm_spmd", x, {{"weight", weight}}, begin_norm_axis, 1);
}

SpmdInfo embedding_spmd(const DistTensorSpec& x, const DistTensorSpec& weight,
                        int64_t padding_idx) {
  constexpr std::string_view kRule = "embedding_spmd";
  detail::check_inputs(kRule, {{"x", &x}, {"weight", &weight}});
  SKIFF_ENFORCE(weight.ndim() == 2, kInvalidArgument, kRule, "weight",
                "a 2-d table [vocab, hidden]", weight.shape);
  SKIFF_ENFORCE(x.ndim() <= 24, kInvalidArgument, kRule, "x", "at most 24 dims", x.ndim());
  const std::string xl = dim_letters(kRule, x.ndim());
  const std::string wl = "yz";  // vocab, hidden
  std::vector<int64_t> wm = weight.dims_mapping();
  if (padding_idx != -1) wm[0] = kReplicated;  // a padding row needs the whole table
  const AxisMap map = merge_shardings(kRule, {{"x", xl, x.dims_mapping()}, {"weight", wl, wm}});
  SpmdInfo info;
  info.inputs = {attr_on(x, dims_mapping_for(xl, map)), attr_on(x, dims_mapping_for(wl, map))};
  info.outputs = {attr_on(x, dims_mapping_for(xl + "z", map), partial_for(wl, xl + "z", map))};
  return info;
}

SpmdInfo cross_entropy_with_softmax_spmd(const DistTensorSpec& logits, const DistTensorSpec& label,
                                         [[maybe_unused]] bool soft_label,
                                         [[maybe_unused]] bool use_softmax,
                                         [[maybe_unused]] bool numeric_stable_mode,
                                         [[maybe_unused]] int64_t ignore_index, int64_t axis) {
  constexpr std::string_view kRule = "cross_entropy_with_softmax_spmd";
  detail::check_inputs(kRule, {{"logits", &logits}, {"label", &label}});
  const int64_t n = logits.ndim();
  SKIFF_ENFORCE(n >= 1, kInvalidArgument, kRule, "logits", "a tensor of at least 1 dim", "0 dims");
  SKIFF_ENFORCE(label.ndim() == n, kInvalidArgument, kRule, "label",
                str(n, " dims (as logits; size 1 on the class axis for hard labels)"),
                label.shape);
  const int64_t a = detail::normalize_axis(kRule, "axis", axis, n);
  std::string letters = dim_letters(kRule, n);
  letters[static_cast<size_t>(a)] = '1';  // the class axis is replicated
  const AxisMap map = merge_shardings(
      kRule, {{"logits", letters, logits.dims_mapping()}, {"label", letters, label.dims_mapping()}});
  const std::vector<int64_t> m = dims_mapping_for(letters, map);
  return {{attr_on(logits, m), attr_on(logits, m)}, {attr_on(logits, m), attr_on(logits, m)}};
}

}  // namespace skiff::dist::spmd
