// Building blocks of VJP rules that do not fit on one line of an op record. All are written
// against the public op API, so they are themselves differentiable (higher-order gradients)
// and will run unchanged on captured IR values.
#pragma once

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "skiff/core/scalar.h"
#include "skiff/core/tensor.h"

namespace skiff {

/// `grad` summed down to `like`'s shape (undoing numpy broadcasting).
Tensor unbroadcast(const Tensor& grad, const Tensor& like);

// Complex numbers (complex_grads.cc), conjugate Wirtinger convention (PyTorch's, Paddle's): the
// gradient of a real loss L with respect to z = x + iy is dL/dx + i dL/dy, so a product rule
// multiplies by the conjugate of the other factor.
/// conj(t) for a complex t, t itself otherwise (the rules of multiply, divide, matmul).
Tensor conj_if_complex(const Tensor& t);
/// abs: grad * sign(x) for real x, grad * x / |x| (0 at 0) for complex x.
Tensor abs_grad(const Tensor& grad, const Tensor& x);
/// angle: grad * i z / |z|^2 (0 at 0) for complex z; zeros for real x.
Tensor angle_grad(const Tensor& grad, const Tensor& x);

// FFT (fft_grads.cc): the adjoint of a scaled DFT is the DFT of the opposite direction with the
// same scale, i.e. the other normalization name ("backward" <-> "forward").
Tensor fft_c2c_grad(const Tensor& grad, const std::vector<int64_t>& axes,
                    const std::string& normalization, bool forward);
/// The onesided gradient is zero-padded to the full length, transformed back, real part taken.
Tensor fft_r2c_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& axes,
                    const std::string& normalization, bool forward, bool onesided);
/// rfft of the real gradient, its entries mirrored by the Hermitian completion counted twice.
Tensor fft_c2r_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& axes,
                    const std::string& normalization, bool forward);

// Reductions: the incoming gradient has the reduced shape; these spread it back over x.
Tensor reduce_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& axis,
                   bool keepdim);
Tensor mean_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& axis,
                 bool keepdim);
/// max/min/amax/amin: the gradient is shared evenly by the elements equal to the result.
Tensor extreme_grad(const Tensor& grad, const Tensor& x, const Tensor& out,
                    const std::vector<int64_t>& axis, bool keepdim);
Tensor prod_grad(const Tensor& grad, const Tensor& x, const Tensor& out,
                 const std::vector<int64_t>& axis, bool keepdim);
Tensor logsumexp_grad(const Tensor& grad, const Tensor& x, const Tensor& out,
                      const std::vector<int64_t>& axis, bool keepdim);
Tensor var_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& axis,
                bool unbiased, bool keepdim);
Tensor std_grad(const Tensor& grad, const Tensor& x, const Tensor& out,
                const std::vector<int64_t>& axis, bool unbiased, bool keepdim);
Tensor p_norm_grad(const Tensor& grad, const Tensor& x, const Tensor& out, float porder,
                   int64_t axis, bool keepdim, bool asvector);
Tensor cumsum_grad(const Tensor& grad, const Tensor& x, const Scalar& axis, bool flatten,
                   bool exclusive, bool reverse);

// Activations.
Tensor gelu_grad(const Tensor& grad, const Tensor& x, bool approximate);
Tensor silu_grad(const Tensor& grad, const Tensor& x);
Tensor softplus_grad(const Tensor& grad, const Tensor& x, float beta, float threshold);
Tensor hardswish_grad(const Tensor& grad, const Tensor& x);
Tensor hardsigmoid_grad(const Tensor& grad, const Tensor& x, float slope, float offset);
Tensor mish_grad(const Tensor& grad, const Tensor& x);

// Linear algebra.
Tensor matmul_grad(const Tensor& grad, const Tensor& x, const Tensor& y, bool transpose_x,
                   bool transpose_y, bool wrt_x);
Tensor dot_grad(const Tensor& grad, const Tensor& other);
Tensor linear_weight_grad(const Tensor& grad, const Tensor& x, const Tensor& weight);

/// The order in which linear_weight_grad flattens the leading dims of x (and grad) of a tensor
/// kind into rows: a permutation of [0, x.rank() - 1). A DistTensor puts its sharded dims first,
/// so the merged rows stay sharded ([s, b/dp, h] flattens as [b/dp * s, h], not gathered over
/// dp); the rows' order does not change dW, a sum over them. Identity for other kinds.
using FlattenOrderFn = std::vector<int64_t> (*)(const Tensor& x);
void set_flatten_order_for_kind(TensorKind kind, FlattenOrderFn fn);

// LAPACK ops (lapack_grads.cc). Square-matrix rules assume x invertible where they invert it.
Tensor det_grad(const Tensor& grad, const Tensor& x, const Tensor& out);
/// grad is [2, *]: only its log|det| row (row 1) reaches x; the sign is piecewise constant.
Tensor slogdet_grad(const Tensor& grad, const Tensor& x);
std::tuple<Tensor, Tensor> solve_vjp(const Tensor& grad, const Tensor& x, const Tensor& y,
                                     const Tensor& out);
std::tuple<Tensor, Tensor> triangular_solve_vjp(const Tensor& grad, const Tensor& x,
                                                const Tensor& y, const Tensor& out, bool upper,
                                                bool transpose, bool unitriangular);
/// The symmetric gradient of x = L L^T (or U^T U) given the factor's gradient.
Tensor cholesky_grad(const Tensor& grad, const Tensor& factor, bool upper);
std::tuple<Tensor, Tensor> cholesky_solve_vjp(const Tensor& grad, const Tensor& x, const Tensor& y,
                                              const Tensor& out, bool upper);
/// Square x only (Unimplemented otherwise): x = P L U from the packed factors and pivots.
Tensor lu_grad(const Tensor& grad, const Tensor& lu, const Tensor& pivots);
/// Reduced or square complete QR (M >= N), and M < N through the leading square block.
Tensor qr_grad(const Tensor& grad_q, const Tensor& grad_r, const Tensor& x, const Tensor& q,
               const Tensor& r, const std::string& mode);
Tensor svd_grad(const Tensor& grad_u, const Tensor& grad_s, const Tensor& grad_vh, const Tensor& x,
                const Tensor& u, const Tensor& s, const Tensor& vh, bool full_matrices);
Tensor eigh_grad(const Tensor& grad_w, const Tensor& grad_v, const Tensor& w, const Tensor& v);
/// The general eigendecomposition's (complex w, v; real or complex x); either grad may be
/// undefined.
Tensor eig_grad(const Tensor& grad_w, const Tensor& grad_v, const Tensor& x, const Tensor& w,
                const Tensor& v);
/// (grad_x, grad_tau): the reflectors walked back one rank-1 update at a time.
std::tuple<Tensor, Tensor> householder_product_vjp(const Tensor& grad, const Tensor& x,
                                                   const Tensor& tau);
/// (grad_x, grad_tau, grad_y) through the explicit Q (householder_product of the padded x).
std::tuple<Tensor, Tensor, Tensor> ormqr_vjp(const Tensor& grad, const Tensor& x, const Tensor& tau,
                                             const Tensor& y, bool left, bool transpose);

// Normalization and losses.
Tensor softmax_grad(const Tensor& grad, const Tensor& out, int64_t axis);
Tensor log_softmax_grad(const Tensor& grad, const Tensor& out, int64_t axis);
/// wrt: 0 = x, 1 = scale, 2 = bias. Gradients of the mean and variance outputs count too
/// (either may be undefined: no gradient reached it).
Tensor layer_norm_grad(const Tensor& grad, const Tensor& grad_mean, const Tensor& grad_variance,
                       const Tensor& x, const std::optional<Tensor>& scale,
                       const std::optional<Tensor>& bias, float epsilon, int64_t begin_norm_axis,
                       int wrt);
/// wrt: 0 = x, 1 = weight. The gradient of the inv_rms output counts too (undefined: unused).
Tensor rms_norm_grad(const Tensor& grad, const Tensor& grad_inv_rms, const Tensor& x,
                     const std::optional<Tensor>& weight, float epsilon, int64_t begin_norm_axis,
                     int wrt);
/// flash_attn's rule (attention_grads.cc): the fused flash_attn_grad of q, k and v; under
/// is_test the forward applied no dropout, so neither does the gradient.
std::tuple<Tensor, Tensor, Tensor> flash_attn_vjp(const Tensor& grad_out, const Tensor& q,
                                                  const Tensor& k, const Tensor& v,
                                                  const Tensor& out, const Tensor& softmax_lse,
                                                  const Tensor& seed_offset, float dropout,
                                                  bool causal, bool is_test);

/// batch_norm's rule (norm_grads.cc): gradients of x, scale and bias. The four statistics'
/// gradients may be undefined (unused). Fused batch_norm_grad unless grad mode is on
/// (create_graph), then composed from the op API.
std::tuple<Tensor, Tensor, Tensor> batch_norm_vjp(
    const Tensor& grad, const Tensor& grad_mean_out, const Tensor& grad_variance_out,
    const Tensor& grad_saved_mean, const Tensor& grad_saved_variance, const Tensor& x,
    const std::optional<Tensor>& scale, const std::optional<Tensor>& bias, const Tensor& saved_mean,
    const Tensor& saved_variance, bool is_test, float momentum, float epsilon,
    const std::string& data_format, bool use_global_stats, bool trainable_statistics);
/// grad_softmax may be undefined (no gradient reached the softmax output).
Tensor cross_entropy_grad(const Tensor& grad_softmax, const Tensor& grad_loss, const Tensor& logits,
                          const Tensor& softmax, const Tensor& label, bool soft_label,
                          bool use_softmax, int64_t ignore_index, int64_t axis);
Tensor embedding_grad(const Tensor& grad, const Tensor& x, const Tensor& weight,
                      int64_t padding_idx);
Tensor dropout_grad(const Tensor& grad, const Tensor& mask, float p, bool is_test,
                    const std::string& mode);

// Shape manipulation.
Tensor transpose_grad(const Tensor& grad, const std::vector<int64_t>& perm);
std::vector<Tensor> concat_grad(const Tensor& grad, const std::vector<Tensor>& x, int64_t axis);
Tensor tile_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& repeat_times);
Tensor slice_grad(const Tensor& grad, const Tensor& input, const std::vector<int64_t>& axes,
                  const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
                  const std::vector<int64_t>& decrease_axis);
std::vector<int64_t> negated(const std::vector<int64_t>& v);
/// reshape to an exact shape (Paddle's reshape reads 0 as "keep the input dim"; gradients of
/// zero-size tensors need a literal 0).
Tensor reshape_exact(const Tensor& t, const std::vector<int64_t>& shape);
Tensor gather_grad(const Tensor& grad, const Tensor& x, const Tensor& index, int64_t axis);
Tensor outer_grad(const Tensor& grad, const Tensor& x, const Tensor& y, bool wrt_x);
/// Gradient of a gather along `axis` by `indices` (sort, topk, take_along_axis).
Tensor scatter_along_grad(const Tensor& grad, const Tensor& x, const Tensor& indices, int64_t axis);
/// put_along_axis: wrt 0 = arr, 1 = values.
Tensor put_along_axis_grad(const Tensor& grad, const Tensor& arr, const Tensor& out,
                           const Tensor& indices, const Tensor& values, int64_t axis,
                           const std::string& reduce, bool include_self, int wrt);

// Ops that move, select or repeat elements (movement_grads.cc; see Note [Index-map gradients]).
/// x's flat element indices (int64) in x's shape.
Tensor iota_like(const Tensor& x);
/// The gradient of an op that copies elements of x: `positions` is the op applied to
/// iota_like(x); each output gradient is added at its source element.
Tensor index_map_grad(const Tensor& grad, const Tensor& x, const Tensor& positions);
Tensor pad_grad(const Tensor& grad, const Tensor& x, const std::vector<int64_t>& paddings,
                const std::string& mode);
Tensor cumprod_grad(const Tensor& grad, const Tensor& x, int64_t dim, bool exclusive, bool reverse);
/// scatter's gradient for `updates` (with overwrite, only each row's last update gets one).
Tensor scatter_updates_grad(const Tensor& grad, const Tensor& index, const Tensor& updates,
                            bool overwrite);

// Statistics (statistics_grads.cc).
Tensor logcumsumexp_grad(const Tensor& grad, const Tensor& x, const Tensor& out, int64_t axis,
                         bool flatten, bool exclusive, bool reverse);
/// mode: each gradient to the element at its index along axis.
Tensor mode_grad(const Tensor& grad, const Tensor& x, const Tensor& indices, int64_t axis,
                 bool keepdim);

// Convolution and pooling (conv_grads.cc).
/// The gradient of pool2d_grad with respect to its out_grad: average pooling again (a clear
/// Unimplemented error for max pooling).
Tensor pool2d_double_grad(const Tensor& grad, const std::vector<int64_t>& kernel_size,
                          const std::vector<int64_t>& strides, const std::vector<int64_t>& paddings,
                          bool ceil_mode, bool exclusive, const std::string& data_format,
                          const std::string& pooling_type, bool global_pooling, bool adaptive,
                          const std::string& padding_algorithm);

// math_functions.yaml (math_functions_grads.cc).
/// logit: grad / (x (1 - x)) where x lies in [eps, 1 - eps], 0 elsewhere.
Tensor logit_grad(const Tensor& grad, const Tensor& x, float eps);

}  // namespace skiff
