// RUN: --passes=fuse-linear
// matmul + bias add -> op.linear(x, weight [in, out], bias); a transposed matmul or a non-bias
// add is left alone.
// CHECK: %3 = op.linear(%0, %1, %2) : (tensor<?x16xf32>, tensor<16x32xf32>, tensor<32xf32>) -> tensor<?x32xf32>
// CHECK-NEXT: %4 = builtin.parameter
// CHECK-NEXT: %5 = op.matmul(%3, %4)
// CHECK-NOT: op.linear
// CHECK: builtin.shadow_output
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [-1, 16]} : () -> tensor<?x16xf32>
  %w = builtin.parameter {name = "w"} : () -> tensor<16x32xf32>
  %b = builtin.parameter {name = "b"} : () -> tensor<32xf32>
  %mm = op.matmul(%x, %w) {transpose_x = false, transpose_y = false} : (tensor<?x16xf32>, tensor<16x32xf32>) -> tensor<?x32xf32>
  %y = op.add(%mm, %b) : (tensor<?x32xf32>, tensor<32xf32>) -> tensor<?x32xf32>
  %w2 = builtin.parameter {name = "w2"} : () -> tensor<32x32xf32>
  %m2 = op.matmul(%y, %w2) {transpose_x = false, transpose_y = false} : (tensor<?x32xf32>, tensor<32x32xf32>) -> tensor<?x32xf32>
  %z = op.add(%m2, %y) : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
  %b3 = builtin.parameter {name = "b3"} : () -> tensor<32xf32>
  %m3 = op.matmul(%z, %w2) {transpose_x = false, transpose_y = true} : (tensor<?x32xf32>, tensor<32x32xf32>) -> tensor<?x32xf32>
  %z3 = op.add(%m3, %b3) : (tensor<?x32xf32>, tensor<32xf32>) -> tensor<?x32xf32>
  builtin.shadow_output(%z3) {name = "z"} : (tensor<?x32xf32>) -> ()
}
