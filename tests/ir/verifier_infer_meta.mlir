// The verifier reruns each op's infer-meta (Note [Types agree with infer-meta]): operand types
// an op cannot take are rejected naming the op and the operand, result types that disagree with
// the inferred ones naming the result; kernel.call is checked by the rule of the op it lowers.
// CHECK-ERROR: 'op.matmul': matmul: argument 'y'
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2, 3]} : () -> tensor<2x3xf32>
  %y = op.data {dtype = f32, name = "y", shape = [4, 5]} : () -> tensor<4x5xf32>
  %0 = op.matmul(%x, %y) {transpose_x = false, transpose_y = false} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
}
// -----
// CHECK-ERROR: 'op.add': add: argument 'y'
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2, 3]} : () -> tensor<2x3xf32>
  %y = op.data {dtype = f32, name = "y", shape = [4, 5]} : () -> tensor<4x5xf32>
  %0 = op.add(%x, %y) : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x3xf32>
}
// -----
// CHECK-ERROR: 'op.transpose': transpose: argument 'perm'
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2, 3]} : () -> tensor<2x3xf32>
  %0 = op.transpose(%x) {perm = [0, 9]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
}
// -----
// CHECK-ERROR: 'op.reshape': reshape: argument 'shape'
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [6]} : () -> tensor<6xf32>
  %0 = op.reshape(%x) {shape = [7]} : (tensor<6xf32>) -> tensor<7xf32>
}
// -----
// CHECK-ERROR: 'op.sum': sum: argument 'axis'
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2, 3]} : () -> tensor<2x3xf32>
  %0 = op.sum(%x) {axis = [9], dtype = undefined, keepdim = false} : (tensor<2x3xf32>) -> tensor<2xf32>
}
// -----
// CHECK-ERROR: 'op.relu': argument 'result #0' expected tensor<2x3xf32> (infer-meta of tensor<2x3xf32>), got tensor<2x3xi64>
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2, 3]} : () -> tensor<2x3xf32>
  %0 = op.relu(%x) : (tensor<2x3xf32>) -> tensor<2x3xi64>
}
// -----
// After lower-to-kernel: a kernel.call whose types disagree with its op's infer-meta.
// CHECK-ERROR: 'kernel.call' (op.matmul): matmul: argument 'y'
builtin.module {
  %x = builtin.parameter {name = "x"} : () -> !kernel.dense<cpu, tensor<2x3xf32>>
  %y = builtin.parameter {name = "y"} : () -> !kernel.dense<cpu, tensor<4x5xf32>>
  %0 = kernel.call(%x, %y) {kernel_key = #kernel.key<cpu, f32, any>, kernel_name = "matmul", op_name = "op.matmul", transpose_x = false, transpose_y = false} : (!kernel.dense<cpu, tensor<2x3xf32>>, !kernel.dense<cpu, tensor<4x5xf32>>) -> !kernel.dense<cpu, tensor<2x5xf32>>
}
// -----
// CHECK-ERROR: 'kernel.call' (op.relu): argument 'result #0' expected tensor<2xf32>
builtin.module {
  %x = builtin.parameter {name = "x"} : () -> !kernel.dense<cpu, tensor<2xf32>>
  %0 = kernel.call(%x) {kernel_key = #kernel.key<cpu, f32, any>, kernel_name = "relu", op_name = "op.relu"} : (!kernel.dense<cpu, tensor<2xf32>>) -> !kernel.dense<cpu, tensor<2xi64>>
}
// -----
// A valid program still lowers and verifies after lower-to-kernel.
// RUN: --passes=assign-places,lower-to-kernel
// CHECK: kernel.call
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2, 3]} : () -> tensor<2x3xf32>
  %0 = op.relu(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  builtin.shadow_output(%0) {name = "y"} : (tensor<2x3xf32>) -> ()
}
// -----
// RUN: --opt-level=abc
// CHECK-ERROR: skiff-opt: argument '--opt-level' expected an integer in [0, 4], got 'abc'
builtin.module {
}
// -----
// RUN: --opt-level=
// CHECK-ERROR: expected an integer in [0, 4], got ''
builtin.module {
}
// -----
// RUN: --opt-level=99999999999
// CHECK-ERROR: expected an integer in [0, 4], got '99999999999'
builtin.module {
}
// -----
// The ops without a record are checked by the IR's own rules: op.swiglu's y has x's shape.
// CHECK-ERROR: 'op.swiglu': swiglu: argument 'input #1'
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2, 3]} : () -> tensor<2x3xf32>
  %y = op.data {dtype = f32, name = "y", shape = [2, 1]} : () -> tensor<2x1xf32>
  %0 = op.swiglu(%x, %y) : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
}
