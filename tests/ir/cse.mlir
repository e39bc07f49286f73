// RUN: --passes=cse
// Identical pure ops merge, also into nested regions (outer values dominate); different
// attributes, side-effecting ops and ops in sibling regions do not.
// CHECK: %1 = op.scale(%0) {bias = 0.0, bias_after_scale = true, scale = 2.0}
// CHECK-NEXT: %2 = op.scale(%0) {bias = 0.0, bias_after_scale = true, scale = 3.0}
// CHECK-NEXT: %3 = op.add(%1, %1)
// CHECK-NEXT: %4 = op.data {dtype = f32, name = "x", shape = [2]}
// CHECK-NEXT: %5 = op.data
// CHECK-NEXT: %6 = cf.if(%5)
// CHECK-NEXT: %7 = op.exp(%1)
// CHECK-NEXT: cf.yield(%7)
// CHECK-NEXT: } {
// CHECK-NEXT: %8 = op.exp(%1)
// CHECK-NEXT: cf.yield(%8)
// CHECK: %9 = op.exp(%1)
// CHECK-NEXT: %10 = op.multiply(%6, %9)
builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %1 = op.scale(%0) {bias = 0.0, bias_after_scale = true, scale = 2.0} : (tensor<2xf32>) -> tensor<2xf32>
  %2 = op.scale(%0) {bias = 0.0, bias_after_scale = true, scale = 2.0} : (tensor<2xf32>) -> tensor<2xf32>
  %3 = op.scale(%0) {bias = 0.0, bias_after_scale = true, scale = 3.0} : (tensor<2xf32>) -> tensor<2xf32>
  %4 = op.add(%1, %2) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %5 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool>
  %6 = cf.if(%c) : (tensor<bool>) -> tensor<2xf32> {
    %7 = op.exp(%1) : (tensor<2xf32>) -> tensor<2xf32>
    %8 = op.exp(%2) : (tensor<2xf32>) -> tensor<2xf32>
    cf.yield(%8) : (tensor<2xf32>) -> ()
  } {
    %9 = op.exp(%2) : (tensor<2xf32>) -> tensor<2xf32>
    cf.yield(%9) : (tensor<2xf32>) -> ()
  }
  %10 = op.exp(%1) : (tensor<2xf32>) -> tensor<2xf32>
  %11 = op.multiply(%6, %10) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  builtin.shadow_output(%11) {name = "out"} : (tensor<2xf32>) -> ()
}
// -----
// RUN: --passes=cse,dce
// Random ops (`random : true` records) are not pure: identical draws stay distinct and unused
// ones stay.
// CHECK: %0 = op.uniform
// CHECK-NEXT: %1 = op.uniform
// CHECK-NEXT: %2 = op.uniform
// CHECK-NEXT: %3 = op.add(%0, %1)
builtin.module {
  %0 = op.uniform {dtype = f32, max = 1.0, min = -1.0, seed = 0, shape = [4]} : () -> tensor<4xf32>
  %1 = op.uniform {dtype = f32, max = 1.0, min = -1.0, seed = 0, shape = [4]} : () -> tensor<4xf32>
  %2 = op.uniform {dtype = f32, max = 1.0, min = -1.0, seed = 0, shape = [4]} : () -> tensor<4xf32>
  %3 = op.add(%0, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  builtin.shadow_output(%3) {name = "y"} : (tensor<4xf32>) -> ()
}
