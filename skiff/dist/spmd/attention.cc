// Attention rules: flash_attn_spmd, flash_attn_grad_spmd. Letters: b batch, s query sequence,
// h heads, d head_dim of q and k, t key sequence, e head_dim of v. q and k share the letter h
// also with grouped heads (hk < h): a mesh axis then shards both head dims, and process r holds
// query heads [r h/n, (r+1) h/n) and key heads [r hk/n, (r+1) hk/n), exactly the key heads its
// query heads read when hk divides by n. Only b and h may stay sharded.
#include <string>
#include <utility>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/dist/spmd/einsum.h"
#include "skiff/dist/spmd/rule_util.h"
#include "skiff/dist/spmd/rules.h"

namespace skiff::dist::spmd {

using detail::attr_on;

namespace {

constexpr std::string_view kQ = "bshd", kK = "bthd", kV = "bthe", kOut = "bshe", kLse = "bhs";

// Validates the [b, s, h, d] shapes of q, k, v as flash_attn's infer-meta does, naming `rule`.
void check_qkv(std::string_view rule, const DistTensorSpec& q, const DistTensorSpec& k,
               const DistTensorSpec& v) {
  for (const auto& [name, t] : {std::pair{"q", &q}, std::pair{"k", &k}, std::pair{"v", &v}}) {
    SKIFF_ENFORCE(t->ndim() == 4, kInvalidArgument, rule, name,
                  "a 4-d tensor [batch, seqlen, num_heads, head_dim]", t->shape);
  }
  SKIFF_ENFORCE(k.shape[0] == q.shape[0] && v.shape[0] == q.shape[0], kInvalidArgument, rule, "k",
                str("q's batch size ", q.shape[0], " in k and v"),
                str(k.shape[0], " and ", v.shape[0]));
  SKIFF_ENFORCE(k.shape[2] > 0 && q.shape[2] % k.shape[2] == 0 && v.shape[2] == k.shape[2],
                kInvalidArgument, rule, "k",
                str("num_heads dividing q's ", q.shape[2], ", equal in k and v"),
                str(k.shape[2], " and ", v.shape[2]));
  SKIFF_ENFORCE(k.shape[1] == v.shape[1], kInvalidArgument, rule, "v",
                str("k's seqlen ", k.shape[1]), v.shape[1]);
  SKIFF_ENFORCE(k.shape[3] == q.shape[3], kInvalidArgument, rule, "k",
                str("q's head_dim ", q.shape[3]), k.shape[3]);
}

// The merged letter -> mesh axis map of `operands` with the sequence and head_dim letters
// replicated, and h replicated when grouped key heads do not divide by its mesh axis.
AxisMap merge_attention(std::string_view rule, const std::vector<LetteredMapping>& operands,
                        const DistTensorSpec& q, const DistTensorSpec& k) {
  std::vector<LetteredMapping> kept = operands;
  for (auto& op : kept) {
    for (size_t i = 0; i < op.letters.size(); ++i) {
      if (std::string_view("stde").find(op.letters[i]) != std::string_view::npos) {
        op.dims_mapping[i] = kReplicated;
      }
    }
  }
  AxisMap map = merge_shardings(rule, kept);
  const int64_t h_axis = map.count('h') ? map['h'] : kReplicated;
  if (h_axis >= 0 && k.shape[2] != q.shape[2] &&
      k.shape[2] % q.process_mesh().dim_size(h_axis) != 0) {
    map['h'] = kReplicated;
  }
  return map;
}

}  // namespace

SpmdInfo flash_attn_spmd(const DistTensorSpec& q, const DistTensorSpec& k, const DistTensorSpec& v,
                         const DistTensorSpec* fixed_seed_offset, bool return_softmax) {
  constexpr std::string_view kRule = "flash_attn_spmd";
  std::vector<std::pair<std::string_view, const DistTensorSpec*>> ins = {
      {"q", &q}, {"k", &k}, {"v", &v}};
  if (fixed_seed_offset != nullptr) ins.push_back({"fixed_seed_offset", fixed_seed_offset});
  detail::check_inputs(kRule, ins);
  check_qkv(kRule, q, k, v);
  const AxisMap map = merge_attention(kRule,
                                      {{"q", std::string(kQ), q.dims_mapping()},
                                       {"k", std::string(kK), k.dims_mapping()},
                                       {"v", std::string(kV), v.dims_mapping()}},
                                      q, k);
  SpmdInfo info;
  info.inputs = {attr_on(q, dims_mapping_for(kQ, map)), attr_on(q, dims_mapping_for(kK, map)),
                 attr_on(q, dims_mapping_for(kV, map)),
                 fixed_seed_offset == nullptr
                     ? DistAttr()
                     : DistAttr::replicated(q.process_mesh(), fixed_seed_offset->ndim())};
  info.outputs = {attr_on(q, dims_mapping_for(kOut, map)),
                  return_softmax ? attr_on(q, dims_mapping_for("bhst", map))
                                 : DistAttr::replicated(q.process_mesh(), 1),
                  attr_on(q, dims_mapping_for(kLse, map)),
                  DistAttr::replicated(q.process_mesh(), 1)};
  return info;
}

SpmdInfo flash_attn_grad_spmd(const DistTensorSpec& q, const DistTensorSpec& k,
                              const DistTensorSpec& v, const DistTensorSpec& out,
                              const DistTensorSpec& softmax_lse, const DistTensorSpec& seed_offset,
                              const DistTensorSpec& out_grad) {
  constexpr std::string_view kRule = "flash_attn_grad_spmd";
  detail::check_inputs(kRule, {{"q", &q},
                               {"k", &k},
                               {"v", &v},
                               {"out", &out},
                               {"softmax_lse", &softmax_lse},
                               {"seed_offset", &seed_offset},
                               {"out_grad", &out_grad}});
  check_qkv(kRule, q, k, v);
  const std::vector<int64_t> want_out = {q.shape[0], q.shape[1], q.shape[2], v.shape[3]};
  SKIFF_ENFORCE(out.shape == want_out, kInvalidArgument, kRule, "out", str("shape ", want_out),
                out.shape);
  SKIFF_ENFORCE(out_grad.shape == want_out, kInvalidArgument, kRule, "out_grad",
                str("shape ", want_out), out_grad.shape);
  const std::vector<int64_t> want_lse = {q.shape[0], q.shape[2], q.shape[1]};
  SKIFF_ENFORCE(softmax_lse.shape == want_lse, kInvalidArgument, kRule, "softmax_lse",
                str("shape ", want_lse, " ([batch, num_heads, seqlen_q])"), softmax_lse.shape);
  const AxisMap map =
      merge_attention(kRule,
                      {{"q", std::string(kQ), q.dims_mapping()},
                       {"k", std::string(kK), k.dims_mapping()},
                       {"v", std::string(kV), v.dims_mapping()},
                       {"out", std::string(kOut), out.dims_mapping()},
                       {"softmax_lse", std::string(kLse), softmax_lse.dims_mapping()},
                       {"out_grad", std::string(kOut), out_grad.dims_mapping()}},
                      q, k);
  const DistAttr qa = attr_on(q, dims_mapping_for(kQ, map));
  const DistAttr ka = attr_on(q, dims_mapping_for(kK, map));
  const DistAttr va = attr_on(q, dims_mapping_for(kV, map));
  const DistAttr oa = attr_on(q, dims_mapping_for(kOut, map));
  return {{qa, ka, va, oa, attr_on(q, dims_mapping_for(kLse, map)),
           DistAttr::replicated(q.process_mesh(), seed_offset.ndim()), oa},
          {qa, ka, va}};
}

}  // namespace skiff::dist::spmd
