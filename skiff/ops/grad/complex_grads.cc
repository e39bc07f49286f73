// VJP rules of the complex-number ops (declared in vjp_helpers.h). Written against the op API,
// so they are differentiable themselves.
#include "skiff/ops/generated/api.h"
#include "skiff/ops/grad/vjp_helpers.h"

namespace skiff {

Tensor conj_if_complex(const Tensor& t) { return is_complex(t.dtype()) ? conj(t) : t; }

Tensor abs_grad(const Tensor& grad, const Tensor& x) {
  if (!is_complex(x.dtype())) return multiply(grad, sign(x));
  // sgn(z) = z / |z|, 0 at 0 (|z| replaced by 1 there, where z is 0 anyway)
  const Tensor r = abs(x);
  const Tensor safe = where(equal(r, zeros_like(r)), ones_like(r), r);
  return multiply(cast(grad, x.dtype()), divide(x, cast(safe, x.dtype())));
}

Tensor angle_grad(const Tensor& grad, const Tensor& x) {
  if (!is_complex(x.dtype())) return zeros_like(x);
  // angle = atan2(b, a): d/da = -b / r^2, d/db = a / r^2, so the gradient is g (-b + i a) / r^2.
  const Tensor a = real(x), b = imag(x);
  const Tensor r2 = add(multiply(a, a), multiply(b, b));
  const Tensor g = divide(grad, where(equal(r2, zeros_like(r2)), ones_like(r2), r2));
  return complex(neg(multiply(b, g)), multiply(a, g));
}

}  // namespace skiff
