// oneDNN-backed GEMM and convolution for float32 and bfloat16. Primitives are cached by
// (dtype, shapes, strides, attributes) in a thread-safe LRU, so repeated calls pay only for
// execution; scratchpads come from Skiff's caching allocator (user scratchpad mode). Only this
// header's .cc includes dnnl.hpp.
#pragma once

#include <cstdint>

#include "skiff/core/dense_tensor.h"
#include "skiff/ops/meta/conv_meta.h"

namespace skiff::ops::cpu::onednn {

/// A [batch, rows, cols] operand: data and element strides. A batch stride of 0 broadcasts the
/// operand over the batch. One of the row and column strides should be 1 (plain or transposed).
struct Operand {
  const void* data;
  int64_t batch_stride, row_stride, col_stride;
};

/// c[b] = alpha * a[b] @ b[b] + beta * c[b] for b < batch, with a [m, k], b [k, n] and c a
/// contiguous [batch, m, n] buffer. dtype is float32 or bfloat16 (c has the same dtype).
/// Returns false when oneDNN cannot run this dtype on this CPU (the caller falls back).
bool gemm(DType dtype, int64_t batch, int64_t m, int64_t n, int64_t k, const Operand& a,
          const Operand& b, void* c, float alpha, float beta);

/// c [m, n] (int32, contiguous) = a [m, k] @ b^T in exact integer arithmetic, with a int8 rows
/// of stride k and b an int8 [n, k] matrix of rows of stride k (a linear's weight rows). oneDNN
/// picks VNNI or AMX where the CPU has them. Returns false when oneDNN cannot run it here.
bool gemm_s8(int64_t m, int64_t n, int64_t k, const int8_t* a, const int8_t* b, int32_t* c);

/// 2-D convolution of contiguous input and filter into the contiguous out (layouts per
/// g.nhwc). Returns false when oneDNN cannot run this dtype on this CPU.
bool conv2d(DType dtype, const meta::Window2d& g, const DenseTensor& input,
            const DenseTensor& filter, DenseTensor& out);

/// Gradients of conv2d (contiguous tensors, layouts per g.nhwc, plain OIHW filters): of the
/// input from the output's gradient and the filter, and of the filter from the input and the
/// output's gradient. Return false when oneDNN cannot run them here.
bool conv2d_backward_data(DType dtype, const meta::Window2d& g, const DenseTensor& grad_out,
                          const DenseTensor& filter, DenseTensor& grad_input);
bool conv2d_backward_weights(DType dtype, const meta::Window2d& g, const DenseTensor& input,
                             const DenseTensor& grad_out, DenseTensor& grad_filter);

/// Number of cached primitives (tests and benchmarks check that repeated calls hit the cache).
int64_t cached_primitives();

}  // namespace skiff::ops::cpu::onednn
