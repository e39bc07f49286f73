// RUN: --passes=canonicalize
// Identity scale/cast/reshape/transpose disappear; transpose(transpose(x)) composes
// (to nothing when the composition is the identity); reshape(reshape(x)) becomes one reshape.
// CHECK: %0 = op.data {dtype = f32, name = "x", shape = [2, 3, 4]}
// CHECK-NEXT: %1 = op.transpose(%0) {perm = [2, 1, 0]} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
// CHECK-NEXT: %2 = op.reshape(%0) {shape = [4, 6]} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: builtin.shadow_output(%0) {name = "a"}
// CHECK-NEXT: builtin.shadow_output(%1) {name = "b"}
// CHECK-NEXT: builtin.shadow_output(%2) {name = "c"}
// CHECK-NEXT: }
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2, 3, 4]} : () -> tensor<2x3x4xf32>
  %s = op.scale(%x) {bias = 0.0, bias_after_scale = true, scale = 1.0} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %c = op.cast(%s) {dtype = f32} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %t1 = op.transpose(%c) {perm = [1, 0, 2]} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %t2 = op.transpose(%t1) {perm = [1, 0, 2]} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %t3 = op.transpose(%x) {perm = [1, 0, 2]} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %t4 = op.transpose(%t3) {perm = [2, 0, 1]} : (tensor<3x2x4xf32>) -> tensor<4x3x2xf32>
  %r1 = op.reshape(%x) {shape = [6, 4]} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %r2 = op.reshape(%r1) {shape = [24]} : (tensor<6x4xf32>) -> tensor<24xf32>
  %r3 = op.reshape(%r2) {shape = [4, 6]} : (tensor<24xf32>) -> tensor<4x6xf32>
  %r4 = op.reshape(%r3) {shape = [4, 6]} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %i = op.transpose(%x) {perm = [0, 1, 2]} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %j = op.add(%i, %t2) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  builtin.shadow_output(%t2) {name = "a"} : (tensor<2x3x4xf32>) -> ()
  builtin.shadow_output(%t4) {name = "b"} : (tensor<4x3x2xf32>) -> ()
  builtin.shadow_output(%r4) {name = "c"} : (tensor<4x6xf32>) -> ()
}
