builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [-1, 4]} : () -> tensor<?x4xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool> loc("model.py":3:7 at "train.py":10:1)
  %r0, %r1 = cf.if(%c) : (tensor<bool>) -> (tensor<?x4xf32>, tensor<i64>) {
    %a = op.relu(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %i = op.full {dtype = i64, shape = [], value = 1.0} : () -> tensor<i64>
    cf.yield(%a, %i) : (tensor<?x4xf32>, tensor<i64>) -> ()
  } {
    %j = op.full {dtype = i64, shape = [], value = 2.0} : () -> tensor<i64>
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
  %v = builtin.combine(%x, %x) : (tensor<?x4xf32>, tensor<?x4xf32>) -> vec<tensor<?x4xf32>, tensor<?x4xf32>>
  %v0, %v1 = builtin.split(%v) : (vec<tensor<?x4xf32>, tensor<?x4xf32>>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
  %o = op.linear(%x, %x, null) {transpose_x = false, transpose_y = true} : (tensor<?x4xf32>, tensor<?x4xf32>, none) -> tensor<?x4xf32>
  builtin.shadow_output(%w) {name = "out"} : (tensor<?x4xf32>) -> ()
}
