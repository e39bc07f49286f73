// Complex tensors seen as real ones and back, without copying. A complex64 tensor of shape S is
// the float32 tensor of shape S + [2] (real, imaginary adjacent, as numpy and Paddle store them),
// so kernels that are linear per component (add, sum, copies, layout changes) run their real
// code on this view instead of a second complex implementation.
#pragma once

#include "skiff/core/dense_tensor.h"

namespace skiff {

/// x (complex64/complex128) as float32/float64 with a trailing dim of 2; shares storage.
DenseTensor view_as_real(const DenseTensor& x);
/// x (float32/float64, last dim 2 with stride 1, other strides even) as complex; shares
/// storage. InvalidArgument names `op` when the layout does not allow a view.
DenseTensor view_as_complex(const DenseTensor& x, const char* op = "as_complex");

}  // namespace skiff
