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
