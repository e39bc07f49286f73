// VJP rules of the FFT ops (declared in vjp_helpers.h), written against the op API so that they
// are differentiable themselves. The conventions are PyTorch's (its fft_r2c_backward and
// fft_c2r_backward), which the tests check against.
#include <string>

#include "skiff/ops/generated/api.h"
#include "skiff/ops/grad/vjp_helpers.h"

namespace skiff {

namespace {
// The normalization whose scale in the opposite direction equals `n`'s in this one.
std::string adjoint_norm(const std::string& n) {
  if (n == "backward") return "forward";
  if (n == "forward") return "backward";
  return n;
}

// `t` with its dim `axis` cut or zero-padded to `len`.
Tensor resize_axis(const Tensor& t, int64_t axis, int64_t len) {
  const int64_t cur = t.dims()[static_cast<int>(axis)];
  if (cur == len) return t;
  if (cur > len) return slice(t, {axis}, {0}, {len});
  std::vector<int64_t> shape = t.shape();
  shape[axis] = len - cur;
  return concat({t, zeros(shape, t.dtype())}, axis);
}
}  // namespace

Tensor fft_c2c_grad(const Tensor& grad, const std::vector<int64_t>& axes,
                    const std::string& normalization, bool forward) {
  return fft_c2c(grad, axes, adjoint_norm(normalization), !forward);
}

Tensor fft_r2c_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& axes,
                    const std::string& normalization, bool forward, bool onesided) {
  const int64_t last = axes.back();
  const Tensor full = onesided ? resize_axis(grad, last, x.dims()[static_cast<int>(last)]) : grad;
  return real(fft_c2c(full, axes, adjoint_norm(normalization), !forward));
}

Tensor fft_c2r_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& axes,
                    const std::string& normalization, bool forward) {
  const int64_t last = axes.back();
  const int64_t n = grad.dims()[static_cast<int>(last)], m = n / 2 + 1;
  Tensor g = fft_r2c(grad, axes, adjoint_norm(normalization), !forward, true);
  // Entries 1 .. n - m reappear conjugated in the completed line: their gradient counts twice.
  const int64_t twice = n - m;
  if (twice > 0) {
    const DType real_dtype = grad.dtype();
    std::vector<Tensor> parts = {ones({1}, real_dtype), full({twice}, 2.0, real_dtype)};
    if (m - 1 - twice > 0) parts.push_back(ones({m - 1 - twice}, real_dtype));
    std::vector<int64_t> shape(g.rank(), 1);
    shape[last] = m;
    g = multiply(g, cast(reshape(concat(parts, 0), shape), g.dtype()));
  }
  return resize_axis(g, last, x.dims()[static_cast<int>(last)]);
}

}  // namespace skiff
