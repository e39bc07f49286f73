// RUN: --passes=assign-places,lower-to-kernel
// Ops inside cf.if and cf.while regions are lowered like top-level ones (kernel calls, casts,
// transfers of constants); the cf ops stay, with placed result and block argument types.
// CHECK: %2 = cf.if(%1) : (!kernel.dense<cpu, tensor<bool>>) -> !kernel.dense<cpu, tensor<?x4xf32>> {
// CHECK-NEXT: %3 = kernel.call(%0) {kernel_key = #kernel.key<cpu, f32, any>, kernel_name = "exp", op_name = "op.exp"} : (!kernel.dense<cpu, tensor<2x4xf32>>) -> !kernel.dense<cpu, tensor<2x4xf32>>
// CHECK-NEXT: cf.yield(%3) : (!kernel.dense<cpu, tensor<2x4xf32>>) -> ()
// CHECK-NEXT: } {
// CHECK-NEXT: %4 = builtin.constant {value = 1.5} : () -> tensor<4xf32>
// CHECK-NEXT: %5 = kernel.transfer(%4) {dst_place = "cpu"}
// CHECK-NEXT: %6 = kernel.call(%0, %5) {kernel_key = #kernel.key<cpu, f32, any>, kernel_name = "add", op_name = "op.add"}
// CHECK: %7 = cf.while(%1, %2) : (!kernel.dense<cpu, tensor<bool>>, !kernel.dense<cpu, tensor<?x4xf32>>) -> !kernel.dense<cpu, tensor<?x4xf32>> {
// CHECK-NEXT: ^bb0(%8: !kernel.dense<cpu, tensor<?x4xf32>>):
// CHECK-NEXT: %9 = kernel.call {dtype = i32, fill_value = 2.0, kernel_key = #kernel.key<cpu, i32, any>, kernel_name = "full"
// CHECK-NEXT: %10 = kernel.call(%8) {kernel_key = #kernel.key<cpu, f32, any>, kernel_name = "relu", op_name = "op.relu"}
// CHECK-NEXT: %11 = kernel.call(%9) {dtype = f32, kernel_key = #kernel.key<cpu, i32, any>, kernel_name = "cast", op_name = "op.cast"}
// CHECK-NEXT: %12 = kernel.call(%10, %11) {kernel_key = #kernel.key<cpu, f32, any>, kernel_name = "multiply", op_name = "op.multiply"}
// CHECK-NEXT: cf.yield(%1, %12) : (!kernel.dense<cpu, tensor<bool>>, !kernel.dense<cpu, tensor<?x4xf32>>) -> ()
// CHECK: builtin.shadow_output(%7) {name = "y"} : (!kernel.dense<cpu, tensor<?x4xf32>>) -> ()
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2, 4]} : () -> tensor<2x4xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool>
  %r = cf.if(%c) : (tensor<bool>) -> tensor<?x4xf32> {
    %e = op.exp(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    cf.yield(%e) : (tensor<2x4xf32>) -> ()
  } {
    %k = builtin.constant {value = 1.5} : () -> tensor<4xf32>
    %a = op.add(%x, %k) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    cf.yield(%a) : (tensor<2x4xf32>) -> ()
  }
  %w = cf.while(%c, %r) : (tensor<bool>, tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%s: tensor<?x4xf32>):
    %i = op.full {dtype = i32, shape = [4], fill_value = 2.0} : () -> tensor<4xi32>
    %t = op.relu(%s) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %m = op.multiply(%t, %i) : (tensor<?x4xf32>, tensor<4xi32>) -> tensor<?x4xf32>
    cf.yield(%c, %m) : (tensor<bool>, tensor<?x4xf32>) -> ()
  }
  builtin.shadow_output(%w) {name = "y"} : (tensor<?x4xf32>) -> ()
}
