// RUN: --passes=fuse-swiglu
// silu(x @ w1) * (x @ w2) -> op.swiglu(x @ w1, x @ w2), also with the multiply's operands swapped.
// CHECK: %3 = op.matmul(%0, %1)
// CHECK-NEXT: %4 = op.matmul(%0, %2)
// CHECK-NEXT: %5 = op.swiglu(%3, %4) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK-NEXT: %6 = op.swiglu(%4, %3)
// CHECK-NOT: op.silu
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [4, 16]} : () -> tensor<4x16xf32>
  %w1 = builtin.parameter {name = "w1"} : () -> tensor<16x32xf32>
  %w2 = builtin.parameter {name = "w2"} : () -> tensor<16x32xf32>
  %g = op.matmul(%x, %w1) {transpose_x = false, transpose_y = false} : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
  %u = op.matmul(%x, %w2) {transpose_x = false, transpose_y = false} : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
  %s = op.silu(%g) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %y = op.multiply(%s, %u) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  %s2 = op.silu(%u) : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %y2 = op.multiply(%g, %s2) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  builtin.shadow_output(%y) {name = "y"} : (tensor<4x32xf32>) -> ()
  builtin.shadow_output(%y2) {name = "y2"} : (tensor<4x32xf32>) -> ()
}
