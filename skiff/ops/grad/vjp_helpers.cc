#include "skiff/ops/grad/vjp_helpers.h"

#include "skiff/ops/generated/api.h"

namespace skiff {

Tensor unbroadcast(const Tensor& grad, const Tensor& like) {
  if (grad.dims() == like.dims()) return grad;
  return reduce_as(grad, like);
}

}  // namespace skiff
