// RUN: --passes=constant-fold,dce
// Splat and dense constants fold through elementwise ops, scale and cast: the ops' CPU kernels
// run (skiff-opt loads the op dialect bridge; the IR has no op math of its own), so rsqrt of the
// i32 7 is the kernel's float32 0.3779645. Results are op.full (float splats) or
// builtin.constant ops. Ops with a non-constant operand stay.
// CHECK: %0 = op.full {dtype = f32, fill_value = 7.875, shape = [2, 2]} : () -> tensor<2x2xf32>
// CHECK-NEXT: %1 = builtin.constant {value = dense<tensor<2x2xf32>, [3.0, 5.0, 7.0, 9.0]>} : () -> tensor<2x2xf32>
// CHECK-NEXT: %2 = op.full {dtype = f32, fill_value = 0.37796449661254883, shape = [2, 2]}
// CHECK-NEXT: %3 = op.data
// CHECK-NEXT: %4 = op.add(%3, %1)
// CHECK-NEXT: builtin.shadow_output(%0)
builtin.module {
  %a = op.full {dtype = f32, shape = [2, 2], fill_value = 2.0} : () -> tensor<2x2xf32>
  %b = op.full {dtype = f32, shape = [2, 2], fill_value = 3.0} : () -> tensor<2x2xf32>
  %c = op.multiply(%a, %b) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %d = op.add(%c, %a) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %e = op.scale(%d) {bias = 1.0, bias_after_scale = false, scale = 0.875} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %k = builtin.constant {value = [1.0, 2.0, 3.0, 4.0]} : () -> tensor<2x2xf32>
  %f = op.scale(%k) {bias = 1.0, bias_after_scale = true, scale = 2.0} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %g = op.cast(%e) {dtype = i32} : (tensor<2x2xf32>) -> tensor<2x2xi32>
  %h = op.rsqrt(%g) : (tensor<2x2xi32>) -> tensor<2x2xf32>
  %x = op.data {dtype = f32, name = "x", shape = [2, 2]} : () -> tensor<2x2xf32>
  %y = op.add(%x, %f) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  builtin.shadow_output(%e) {name = "e"} : (tensor<2x2xf32>) -> ()
  builtin.shadow_output(%h) {name = "h"} : (tensor<2x2xf32>) -> ()
  builtin.shadow_output(%y) {name = "y"} : (tensor<2x2xf32>) -> ()
}
