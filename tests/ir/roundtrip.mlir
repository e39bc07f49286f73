// Parse -> verify -> print of nested control flow, dynamic shapes, layouts, every attribute kind
// and the kernel dialect; check.py also checks that printing is a fixed point.
// CHECK: builtin.module {
// CHECK: %0 = op.data {dtype = f32, name = "x", shape = [-1, 4]} : () -> tensor<?x4xf32>
// CHECK: loc("model.py":3:7 at "train.py":10:1)
// CHECK: %2, %3 = cf.if(%1) : (tensor<bool>) -> (tensor<?x4xf32>, tensor<i64>) {
// CHECK: cf.yield(%4, %5)
// CHECK: } {
// CHECK: cf.while(%1, %0) : (tensor<bool>, tensor<?x4xf32>) -> tensor<?x4xf32> {
// CHECK-NEXT: ^bb0(%8: tensor<?x4xf32>):
// CHECK: cf.if(%1) : (tensor<bool>) -> tensor<?x4xf32> {
// CHECK: a = [1, -2, 3], b = [], c = [1.5, -0.0, inf, -inf, nan], d = "q\"\n\x01", e = type<vec<tensor<2xf16>, tensor<bf16>>>, f = bf16, g = true, h = 1e-06, i = -9223372036854775807, name = "w"} : () -> tensor<1x3x8x8xf32, NHWC>
// CHECK: !kernel.dense<gpu:0, tensor<2x3xf32>>
// CHECK: kernel_key = #kernel.key<gpu, f32, NCHW>
// CHECK: () -> !dist.tensor<tensor<8x?xf32>, mesh = [2, 4], placements = [S(0), R]>
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [-1, 4]} : () -> tensor<?x4xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool> loc("model.py":3:7 at "train.py":10:1)
  %r0, %r1 = cf.if(%c) : (tensor<bool>) -> (tensor<?x4xf32>, tensor<i64>) {
    %a = op.relu(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %i = op.full {dtype = i64, shape = [], fill_value = 1.0} : () -> tensor<i64>
    cf.yield(%a, %i) : (tensor<?x4xf32>, tensor<i64>) -> ()
  } {
    %j = op.full {dtype = i64, shape = [], fill_value = 2.0} : () -> tensor<i64>
    cf.yield(%x, %j) : (tensor<?x4xf32>, tensor<i64>) -> ()
  }
  %w = cf.while(%c, %x) : (tensor<bool>, tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%s: tensor<?x4xf32>):
    %t = cf.if(%c) : (tensor<bool>) -> tensor<?x4xf32> {
      %e = op.exp(%s) : (tensor<?x4xf32>) -> tensor<?x4xf32>
      cf.yield(%e) : (tensor<?x4xf32>) -> ()
    } {
      cf.yield(%s) : (tensor<?x4xf32>) -> ()
    }
    cf.yield(%c, %t) : (tensor<bool>, tensor<?x4xf32>) -> ()
  }
  %p = builtin.parameter {name = "w", a = [1, -2, 3], b = [], c = [1.5, -0.0, inf, -inf, nan], d = "q\"\n\x01", e = type<vec<tensor<2xf16>, tensor<bf16>>>, f = bf16, g = true, h = 0.000001, i = -9223372036854775807} : () -> tensor<1x3x8x8xf32, NHWC>
  %k = builtin.parameter {name = "k"} : () -> !kernel.dense<gpu:0, tensor<2x3xf32>>
  %kc = kernel.call(%k) {kernel_key = #kernel.key<gpu, f32, NCHW>, kernel_name = "relu", op_name = "op.relu"} : (!kernel.dense<gpu:0, tensor<2x3xf32>>) -> !kernel.dense<gpu:0, tensor<2x3xf32>>
  %h = kernel.transfer(%kc) {dst_place = "cpu"} : (!kernel.dense<gpu:0, tensor<2x3xf32>>) -> !kernel.dense<cpu, tensor<2x3xf32>>
  %dp = builtin.parameter {name = "dw"} : () -> !dist.tensor<tensor<8x?xf32>, mesh = [2, 4], placements = [S(0), R]>
  %v = builtin.combine(%x, %x) : (tensor<?x4xf32>, tensor<?x4xf32>) -> vec<tensor<?x4xf32>, tensor<?x4xf32>>
  %v0, %v1 = builtin.split(%v) : (vec<tensor<?x4xf32>, tensor<?x4xf32>>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
  %w4 = builtin.parameter {name = "w4"} : () -> tensor<4x4xf32>
  %o = op.linear(%x, %w4, null) : (tensor<?x4xf32>, tensor<4x4xf32>, none) -> tensor<?x4xf32>
  builtin.shadow_output(%w) {name = "out"} : (tensor<?x4xf32>) -> ()
}
