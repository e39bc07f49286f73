// Constant folding through the ops layer's kernels (skiff-opt loads the op dialect bridge): a
// matmul -> add -> reshape -> cast chain of constants becomes one dense constant; the folded
// values are what the CPU kernels compute.
// RUN: --passes=constant-fold,dce
// CHECK: %0 = builtin.constant {value = dense<tensor<4xi64>, [5, 6, 11, 12]>} : () -> tensor<4xi64>
// CHECK-NEXT: %1 = op.data
// CHECK-NEXT: %2 = op.add(%1, %0)
// CHECK-NEXT: builtin.shadow_output(%0) {name = "c"}
builtin.module {
  %a = builtin.constant {value = dense<tensor<2x3xf32>, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]>} : () -> tensor<2x3xf32>
  %b = builtin.constant {value = [1.0, 0.0, 0.0, 1.0, 1.0, 1.0]} : () -> tensor<3x2xf32>
  %m = op.matmul(%a, %b) {transpose_x = false, transpose_y = false} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %one = op.full {dtype = f32, fill_value = 1.0, shape = [2]} : () -> tensor<2xf32>
  %s = op.add(%m, %one) : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %r = op.reshape(%s) {shape = [4]} : (tensor<2x2xf32>) -> tensor<4xf32>
  %c = op.cast(%r) {dtype = i64} : (tensor<4xf32>) -> tensor<4xi64>
  %x = op.data {dtype = i64, name = "x", shape = [4]} : () -> tensor<4xi64>
  %y = op.add(%x, %c) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  builtin.shadow_output(%c) {name = "c"} : (tensor<4xi64>) -> ()
  builtin.shadow_output(%y) {name = "y"} : (tensor<4xi64>) -> ()
}

// -----
// A result with more than 16 elements prints as a hex blob of its bytes (round-trips exactly);
// a float splat result becomes op.full.
// RUN: --passes=constant-fold,dce
// CHECK: %0 = builtin.constant {value = dense<tensor<5x5xf32>, "0x0000003f0000803f0000c03f00000040000020400000803f0000004000004040000080400000a0400000c03f00004040000090400000c0400000f04000000040000080400000c0400000004100002041000020400000a0400000f0400000204100004841">} : () -> tensor<5x5xf32>
// CHECK-NEXT: %1 = op.full {dtype = f32, fill_value = 0.25, shape = [3, 3]} : () -> tensor<3x3xf32>
builtin.module {
  %a = builtin.constant {value = [1.0, 2.0, 3.0, 4.0, 5.0]} : () -> tensor<5x1xf32>
  %b = builtin.constant {value = dense<tensor<1x5xf32>, [0.5, 1.0, 1.5, 2.0, 2.5]>} : () -> tensor<1x5xf32>
  %m = op.matmul(%a, %b) {transpose_x = false, transpose_y = false} : (tensor<5x1xf32>, tensor<1x5xf32>) -> tensor<5x5xf32>
  %h = builtin.constant {value = dense<tensor<3x3xf32>, 0.5>} : () -> tensor<3x3xf32>
  %q = op.multiply(%h, %h) : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  builtin.shadow_output(%m) {name = "m"} : (tensor<5x5xf32>) -> ()
  builtin.shadow_output(%q) {name = "q"} : (tensor<3x3xf32>) -> ()
}

// -----
// Not folded: results above the size limit (SKIFF_IR_FOLD_MAX_ELEMENTS, default 65536; here
// 300x300), random ops (dropout draws from the generator) and ops without a CPU kernel for the
// operand dtype (maximum of bool).
// RUN: --passes=constant-fold,dce
// CHECK: op.matmul
// CHECK: op.dropout
// CHECK: op.maximum
builtin.module {
  %a = op.full {dtype = f32, fill_value = 1.0, shape = [300, 1]} : () -> tensor<300x1xf32>
  %b = op.full {dtype = f32, fill_value = 2.0, shape = [1, 300]} : () -> tensor<1x300xf32>
  %m = op.matmul(%a, %b) {transpose_x = false, transpose_y = false} : (tensor<300x1xf32>, tensor<1x300xf32>) -> tensor<300x300xf32>
  %d, %mask = op.dropout(%b) {is_test = false, mode = "upscale_in_train", p = 0.5, seed = 0} : (tensor<1x300xf32>) -> (tensor<1x300xf32>, tensor<1x300xu8>)
  %i = builtin.constant {value = dense<tensor<2x2xbool>, [true, false, false, true]>} : () -> tensor<2x2xbool>
  %r = op.maximum(%i, %i) : (tensor<2x2xbool>, tensor<2x2xbool>) -> tensor<2x2xbool>
  builtin.shadow_output(%m) {name = "m"} : (tensor<300x300xf32>) -> ()
  builtin.shadow_output(%d) {name = "d"} : (tensor<1x300xf32>) -> ()
  builtin.shadow_output(%r) {name = "r"} : (tensor<2x2xbool>) -> ()
}

// -----
// Dense constants of every element kind round-trip: inline lists, splats, hex for f16/bf16.
// CHECK: dense<tensor<3xbool>, [true, false, true]>
// CHECK: dense<tensor<2xi8>, [-128, 127]>
// CHECK: dense<tensor<2xu8>, [0, 255]>
// CHECK: dense<tensor<2xi64>, [-9223372036854775808, 9223372036854775807]>
// CHECK: dense<tensor<2xf64>, [0.1, -1e+300]>
// CHECK: dense<tensor<2xf32>, [0.1, inf]>
// CHECK: dense<tensor<2x2xf16>, "0x003c">
// CHECK: dense<tensor<2xbf16>, "0x803f0040">
// CHECK: dense<tensor<0xf32>, []>
builtin.module {
  %0 = builtin.constant {value = dense<tensor<3xbool>, [true, false, true]>} : () -> tensor<3xbool>
  %1 = builtin.constant {value = dense<tensor<2xi8>, [-128, 127]>} : () -> tensor<2xi8>
  %2 = builtin.constant {value = dense<tensor<2xu8>, [0, 255]>} : () -> tensor<2xu8>
  %3 = builtin.constant {value = dense<tensor<2xi64>, [-9223372036854775808, 9223372036854775807]>} : () -> tensor<2xi64>
  %4 = builtin.constant {value = dense<tensor<2xf64>, [0.1, -1e300]>} : () -> tensor<2xf64>
  %5 = builtin.constant {value = dense<tensor<2xf32>, [0.1, inf]>} : () -> tensor<2xf32>
  %6 = builtin.constant {value = dense<tensor<2x2xf16>, "0x003c003c003c003c">} : () -> tensor<2x2xf16>
  %7 = builtin.constant {value = dense<tensor<2xbf16>, "0x803f0040">} : () -> tensor<2xbf16>
  %8 = builtin.constant {value = dense<tensor<0xf32>, []>} : () -> tensor<0xf32>
}

// -----
// CHECK-ERROR: 5 elements (got 2)
builtin.module {
  %0 = builtin.constant {value = dense<tensor<5xf32>, [1.0, 2.0]>} : () -> tensor<5xf32>
}

// -----
// CHECK-ERROR: an integer in [-128, 127]
builtin.module {
  %0 = builtin.constant {value = dense<tensor<1xi8>, [128]>} : () -> tensor<1xi8>
}

// -----
// CHECK-ERROR: a hex blob of one element or 2 elements of 4 bytes
builtin.module {
  %0 = builtin.constant {value = dense<tensor<2xf32>, "0x0000">} : () -> tensor<2xf32>
}

// -----
// CHECK-ERROR: a static tensor type of dense elements
builtin.module {
  %0 = builtin.constant {value = dense<tensor<?xf32>, 1.0>} : () -> tensor<?xf32>
}

// -----
// CHECK-ERROR: dense data of the result type tensor<2xf32>
builtin.module {
  %0 = builtin.constant {value = dense<tensor<2xi32>, [1, 2]>} : () -> tensor<2xf32>
}
