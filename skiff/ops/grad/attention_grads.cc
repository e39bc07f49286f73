// The VJP rule of flash_attn: the fused, tiled flash_attn_grad (it recomputes the
// probabilities from softmax_lse).
#include <tuple>

#include "skiff/ops/generated/api.h"
#include "skiff/ops/grad/vjp_helpers.h"

namespace skiff {

std::tuple<Tensor, Tensor, Tensor> flash_attn_vjp(const Tensor& grad_out, const Tensor& q,
                                                  const Tensor& k, const Tensor& v,
                                                  const Tensor& out, const Tensor& softmax_lse,
                                                  const Tensor& seed_offset, float dropout,
                                                  bool causal, bool is_test) {
  return flash_attn_grad(q, k, v, out, softmax_lse, seed_offset, grad_out,
                         is_test ? 0.0f : dropout, causal);
}

}  // namespace skiff
