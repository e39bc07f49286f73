// The VJP rule of flash_attn. Outside create_graph (grad mode off while the rule runs: eager
// backward) it is the fused, tiled flash_attn_grad, which recomputes the probabilities from
// softmax_lse. With create_graph (and in captured programs, whose gradients are recorded so
// they can be differentiated again) it is composed from the op API, so it differentiates
// again; that composition materializes the [seqlen_q, seqlen_k] probabilities.
#include <cmath>
#include <limits>
#include <tuple>

#include "skiff/ops/generated/api.h"
#include "skiff/ops/grad/vjp_helpers.h"
#include "skiff/runtime/eager/grad_mode.h"

namespace skiff {

namespace {

// [B, S, H, D] with H = Hk * g as [B, Hk, g * S, D]: the g query heads sharing a key head
// become extra rows of one matmul against that key head.
Tensor group_rows(const Tensor& x, int64_t hk) {
  const auto s = x.shape();
  const int64_t g = s[2] / hk;
  return reshape(transpose(reshape(x, {s[0], s[1], hk, g, s[3]}), {0, 2, 3, 1, 4}),
                 {s[0], hk, g * s[1], s[3]});
}

Tensor ungroup_rows(const Tensor& x, const std::vector<int64_t>& like) {
  const int64_t hk = x.shape()[1], g = like[2] / hk;
  return reshape(transpose(reshape(x, {like[0], hk, g, like[1], like[3]}), {0, 3, 1, 2, 4}),
                 like);
}

std::tuple<Tensor, Tensor, Tensor> composed_grad(const Tensor& grad_out, const Tensor& q,
                                                 const Tensor& k, const Tensor& v, bool causal) {
  const auto qs = q.shape(), ks = k.shape();
  const int64_t hk = ks[2], g = qs[2] / hk, sq = qs[1], sk = ks[1];
  const double sc = 1.0 / std::sqrt(static_cast<double>(qs[3]));
  const Tensor qg = group_rows(q, hk), dog = group_rows(grad_out, hk);
  const Tensor kt = transpose(k, {0, 2, 1, 3}), vt = transpose(v, {0, 2, 1, 3});
  Tensor scores = matmul(scale(qg, Scalar(sc)), kt, false, true);  // [B, Hk, g*Sq, Sk]
  if (causal) {
    const Tensor mask =
        triu(full({g, sq, sk}, Scalar(-std::numeric_limits<double>::infinity()), q.dtype()),
             sk - sq + 1);
    scores = add(scores, reshape(mask, {g * sq, sk}));
  }
  const Tensor p = softmax(scores, -1);
  const Tensor dv = matmul(p, dog, true, false);
  const Tensor dp = matmul(dog, vt, false, true);
  const Tensor ds = multiply(p, subtract(dp, sum(multiply(dp, p), {-1}, DType::kUndefined, true)));
  const Tensor dq = scale(matmul(ds, kt), Scalar(sc));
  const Tensor dk = scale(matmul(ds, qg, true, false), Scalar(sc));
  return {ungroup_rows(dq, qs), transpose(dk, {0, 2, 1, 3}), transpose(dv, {0, 2, 1, 3})};
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> flash_attn_vjp(const Tensor& grad_out, const Tensor& q,
                                                  const Tensor& k, const Tensor& v,
                                                  const Tensor& out, const Tensor& softmax_lse,
                                                  const Tensor& seed_offset, float dropout,
                                                  bool causal, bool is_test) {
  const float p = is_test ? 0.0f : dropout;
  if (!autograd::grad_enabled() || p != 0.0f) {
    return flash_attn_grad(q, k, v, out, softmax_lse, seed_offset, grad_out, p, causal);
  }
  return composed_grad(grad_out, q, k, v, causal);
}

}  // namespace skiff
