// RUN: --passes=fuse-rms-norm
// x * rsqrt(mean(x * x, -1, keepdim) + eps) * w -> op.rms_norm(x, w) {epsilon = eps} (its
// second result, inv_rms, is unused)
// CHECK: %0 = op.data
// CHECK-NEXT: %1 = builtin.parameter {name = "w"}
// CHECK-NEXT: %2, %3 = op.rms_norm(%0, %1) {begin_norm_axis = -1, epsilon = 1e-06} : (tensor<2x?x64xf32>, tensor<64xf32>) -> (tensor<2x?x64xf32>, tensor<2x?xf32>)
// CHECK-NEXT: builtin.shadow_output(%2)
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2, -1, 64]} : () -> tensor<2x?x64xf32>
  %w = builtin.parameter {name = "w"} : () -> tensor<64xf32>
  %sq = op.multiply(%x, %x) : (tensor<2x?x64xf32>, tensor<2x?x64xf32>) -> tensor<2x?x64xf32>
  %ms = op.mean(%sq) {axis = [-1], keepdim = true} : (tensor<2x?x64xf32>) -> tensor<2x?x1xf32>
  %eps = op.full {dtype = f32, shape = [1], fill_value = 1e-06} : () -> tensor<1xf32>
  %a = op.add(%ms, %eps) : (tensor<2x?x1xf32>, tensor<1xf32>) -> tensor<2x?x1xf32>
  %r = op.rsqrt(%a) : (tensor<2x?x1xf32>) -> tensor<2x?x1xf32>
  %n = op.multiply(%x, %r) : (tensor<2x?x64xf32>, tensor<2x?x1xf32>) -> tensor<2x?x64xf32>
  %y = op.multiply(%n, %w) : (tensor<2x?x64xf32>, tensor<64xf32>) -> tensor<2x?x64xf32>
  builtin.shadow_output(%y) {name = "y"} : (tensor<2x?x64xf32>) -> ()
}
// -----
// RUN: --passes=fuse-rms-norm
// Not over a middle axis.
// CHECK: op.mean
// CHECK-NOT: op.rms_norm
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2, 8, 64]} : () -> tensor<2x8x64xf32>
  %w = builtin.parameter {name = "w"} : () -> tensor<64xf32>
  %sq = op.multiply(%x, %x) : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %ms = op.mean(%sq) {axis = [1], keepdim = true} : (tensor<2x8x64xf32>) -> tensor<2x1x64xf32>
  %eps = op.full {dtype = f32, shape = [1], fill_value = 1e-06} : () -> tensor<1xf32>
  %a = op.add(%ms, %eps) : (tensor<2x1x64xf32>, tensor<1xf32>) -> tensor<2x1x64xf32>
  %r = op.rsqrt(%a) : (tensor<2x1x64xf32>) -> tensor<2x1x64xf32>
  %n = op.multiply(%x, %r) : (tensor<2x8x64xf32>, tensor<2x1x64xf32>) -> tensor<2x8x64xf32>
  %y = op.multiply(%n, %w) : (tensor<2x8x64xf32>, tensor<64xf32>) -> tensor<2x8x64xf32>
  builtin.shadow_output(%y) {name = "y"} : (tensor<2x8x64xf32>) -> ()
}
