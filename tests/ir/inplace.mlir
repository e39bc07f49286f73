// RUN: --passes=inplace
// An op whose record declares `inplace : (x -> out)` is marked when x dies there, has the
// output's type and is not a program input, weight or constant.
// CHECK: %1 = op.relu(%0) : (tensor<4xf32>)
// CHECK-NEXT: %2 = op.relu(%1) : (tensor<4xf32>)
// CHECK-NEXT: %3 = op.scale(%2) {bias = 0.0, bias_after_scale = true, inplace = ["x->out"], scale = 2.0}
// CHECK-NEXT: %4 = op.add(%3, %1) {inplace = ["x->out"]}
// CHECK-NEXT: %5 = op.exp(%4) {inplace = ["x->out"]}
// CHECK-NEXT: %6 = op.add(%5, %0) {inplace = ["x->out"]}
builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [4]} : () -> tensor<4xf32>
  %1 = op.relu(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = op.relu(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = op.scale(%2) {bias = 0.0, bias_after_scale = true, scale = 2.0} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = op.add(%3, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %5 = op.exp(%4) : (tensor<4xf32>) -> tensor<4xf32>
  %6 = op.add(%5, %0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  builtin.shadow_output(%6) {name = "y"} : (tensor<4xf32>) -> ()
}
