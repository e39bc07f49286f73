// RUN: --passes=canonicalize,constant-fold,cse,fusion,dce,inplace --opt-level=2
// A small transformer block: the standard pipeline cleans up, folds the epsilon, dedups, then
// the DRR rules fuse RMSNorm, linear and SwiGLU. The epsilon is folded by the f32 scale kernel:
// 1e-05 rounded to float32.
// CHECK: %2, %3 = op.rms_norm(%0, %1) {begin_norm_axis = -1, epsilon = 9.999999747378752e-06}
// CHECK: %8 = op.linear(%2, %4, %5) : (tensor<?x64xf32>, tensor<64x128xf32>, tensor<128xf32>)
// CHECK-NEXT: %9 = op.linear(%2, %6, %7)
// CHECK-NEXT: %10 = op.swiglu(%8, %9)
// CHECK-NOT: op.multiply
// CHECK: builtin.shadow_output
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [-1, 64]} : () -> tensor<?x64xf32>
  %g = builtin.parameter {name = "g"} : () -> tensor<64xf32>
  %xt = op.transpose(%x) {perm = [1, 0]} : (tensor<?x64xf32>) -> tensor<64x?xf32>
  %xx = op.transpose(%xt) {perm = [1, 0]} : (tensor<64x?xf32>) -> tensor<?x64xf32>
  %sq = op.multiply(%xx, %xx) : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  %ms = op.mean(%sq) {axis = [-1], keepdim = true} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %e0 = op.full {dtype = f32, shape = [1], fill_value = 1.0} : () -> tensor<1xf32>
  %eps = op.scale(%e0) {bias = 0.0, bias_after_scale = true, scale = 1e-05} : (tensor<1xf32>) -> tensor<1xf32>
  %a = op.add(%ms, %eps) : (tensor<?x1xf32>, tensor<1xf32>) -> tensor<?x1xf32>
  %r = op.rsqrt(%a) : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %n = op.multiply(%xx, %r) : (tensor<?x64xf32>, tensor<?x1xf32>) -> tensor<?x64xf32>
  %h = op.multiply(%n, %g) : (tensor<?x64xf32>, tensor<64xf32>) -> tensor<?x64xf32>
  %w1 = builtin.parameter {name = "w1"} : () -> tensor<64x128xf32>
  %b1 = builtin.parameter {name = "b1"} : () -> tensor<128xf32>
  %w2 = builtin.parameter {name = "w2"} : () -> tensor<64x128xf32>
  %b2 = builtin.parameter {name = "b2"} : () -> tensor<128xf32>
  %m1 = op.matmul(%h, %w1) {transpose_x = false, transpose_y = false} : (tensor<?x64xf32>, tensor<64x128xf32>) -> tensor<?x128xf32>
  %l1 = op.add(%m1, %b1) : (tensor<?x128xf32>, tensor<128xf32>) -> tensor<?x128xf32>
  %m2 = op.matmul(%h, %w2) {transpose_x = false, transpose_y = false} : (tensor<?x64xf32>, tensor<64x128xf32>) -> tensor<?x128xf32>
  %l2 = op.add(%m2, %b2) : (tensor<?x128xf32>, tensor<128xf32>) -> tensor<?x128xf32>
  %s = op.silu(%l1) : (tensor<?x128xf32>) -> tensor<?x128xf32>
  %y = op.multiply(%s, %l2) : (tensor<?x128xf32>, tensor<?x128xf32>) -> tensor<?x128xf32>
  builtin.shadow_output(%y) {name = "y"} : (tensor<?x128xf32>) -> ()
}
// -----
// RUN: --passes=cse,fusion,dce --opt-level=1
// Fusion (opt level 2) is skipped at level 1.
// CHECK: op.silu
// CHECK-NOT: op.swiglu
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [4]} : () -> tensor<4xf32>
  %s = op.silu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %y = op.multiply(%s, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  builtin.shadow_output(%y) {name = "y"} : (tensor<4xf32>) -> ()
}
