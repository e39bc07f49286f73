// RUN: --passes=fuse-rotary
// x * cos + concat([-x2, x1], -1) * sin with x1, x2 = split(x, [d/2, d/2], -1)
// -> op.rotary_embedding(x, cos, sin)
// CHECK: %3 = op.rotary_embedding(%0, %1, %2) : (tensor<2x?x8x64xf32>, tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<2x?x8x64xf32>
// CHECK-NEXT: builtin.shadow_output(%3)
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2, -1, 8, 64]} : () -> tensor<2x?x8x64xf32>
  %cos = op.data {dtype = f32, name = "cos", shape = [-1, 64]} : () -> tensor<?x64xf32>
  %sin = op.data {dtype = f32, name = "sin", shape = [-1, 64]} : () -> tensor<?x64xf32>
  %h = op.split(%x) {axis = -1, sections = [32, 32]} : (tensor<2x?x8x64xf32>) -> vec<tensor<2x?x8x32xf32>, tensor<2x?x8x32xf32>>
  %x1, %x2 = builtin.split(%h) : (vec<tensor<2x?x8x32xf32>, tensor<2x?x8x32xf32>>) -> (tensor<2x?x8x32xf32>, tensor<2x?x8x32xf32>)
  %n = op.scale(%x2) {bias = 0.0, bias_after_scale = true, scale = -1.0} : (tensor<2x?x8x32xf32>) -> tensor<2x?x8x32xf32>
  %parts = builtin.combine(%n, %x1) : (tensor<2x?x8x32xf32>, tensor<2x?x8x32xf32>) -> vec<tensor<2x?x8x32xf32>, tensor<2x?x8x32xf32>>
  %rot = op.concat(%parts) {axis = 3} : (vec<tensor<2x?x8x32xf32>, tensor<2x?x8x32xf32>>) -> tensor<2x?x8x64xf32>
  %a = op.multiply(%x, %cos) : (tensor<2x?x8x64xf32>, tensor<?x64xf32>) -> tensor<2x?x8x64xf32>
  %b = op.multiply(%rot, %sin) : (tensor<2x?x8x64xf32>, tensor<?x64xf32>) -> tensor<2x?x8x64xf32>
  %y = op.add(%a, %b) : (tensor<2x?x8x64xf32>, tensor<2x?x8x64xf32>) -> tensor<2x?x8x64xf32>
  builtin.shadow_output(%y) {name = "y"} : (tensor<2x?x8x64xf32>) -> ()
}
