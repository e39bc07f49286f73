// RUN: --passes=assign-places,lower-to-kernel
// After assign-places (the default place, cpu): every op.* op becomes a kernel.call keyed by
// (the backend of its results' place, kernel dtype); the promoted int32 input of add gets an
// explicit cast call on the same place; the placed types stay as assign-places made them.
// CHECK: %0 = op.data {dtype = i32, name = "i", shape = [-1, 4]} : () -> !kernel.dense<cpu, tensor<?x4xi32>>
// CHECK-NEXT: %1 = builtin.parameter {name = "w"} : () -> !kernel.dense<cpu, tensor<4x4xf32>>
// CHECK-NEXT: %2 = builtin.constant {value = 1.5} : () -> tensor<4xf32>
// CHECK-NEXT: %3 = kernel.transfer(%2) {dst_place = "cpu"} : (tensor<4xf32>) -> !kernel.dense<cpu, tensor<4xf32>>
// CHECK-NEXT: %4 = kernel.call(%0) {dtype = f32, kernel_key = #kernel.key<cpu, i32, any>, kernel_name = "cast", op_name = "op.cast"} : (!kernel.dense<cpu, tensor<?x4xi32>>) -> !kernel.dense<cpu, tensor<?x4xf32>>
// CHECK-NEXT: %5 = kernel.call(%4, %3) {kernel_key = #kernel.key<cpu, f32, any>, kernel_name = "add", op_name = "op.add"}
// CHECK-NEXT: %6 = kernel.call(%5, %1) {kernel_key = #kernel.key<cpu, f32, any>, kernel_name = "matmul", op_name = "op.matmul", transpose_x = false, transpose_y = false}
// CHECK-NEXT: %7 = builtin.combine(%6, %5) : (!kernel.dense<cpu, tensor<?x4xf32>>, !kernel.dense<cpu, tensor<?x4xf32>>) -> vec<!kernel.dense<cpu, tensor<?x4xf32>>, !kernel.dense<cpu, tensor<?x4xf32>>>
// CHECK-NEXT: %8 = kernel.call(%7) {axis = 0, kernel_key = #kernel.key<cpu, f32, any>, kernel_name = "concat", op_name = "op.concat"}
// CHECK-NEXT: builtin.shadow_output(%8) {name = "y"} : (!kernel.dense<cpu, tensor<?x4xf32>>) -> ()
builtin.module {
  %i = op.data {dtype = i32, name = "i", shape = [-1, 4]} : () -> tensor<?x4xi32>
  %w = builtin.parameter {name = "w"} : () -> tensor<4x4xf32>
  %c = builtin.constant {value = 1.5} : () -> tensor<4xf32>
  %a = op.add(%i, %c) : (tensor<?x4xi32>, tensor<4xf32>) -> tensor<?x4xf32>
  %m = op.matmul(%a, %w) {transpose_x = false, transpose_y = false} : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
  %v = builtin.combine(%m, %a) : (tensor<?x4xf32>, tensor<?x4xf32>) -> vec<tensor<?x4xf32>, tensor<?x4xf32>>
  %y = op.concat(%v) {axis = 0} : (vec<tensor<?x4xf32>, tensor<?x4xf32>>) -> tensor<?x4xf32>
  builtin.shadow_output(%y) {name = "y"} : (tensor<?x4xf32>) -> ()
}

// -----
// RUN: --passes=assign-places,lower-to-kernel
// An op without a CPU kernel for its dtype fails at lowering time, before anything runs.
// CHECK-ERROR: op.maximum
// CHECK-ERROR: kernel' expected a cpu kernel for bool on cpu, got cpu kernels for:
builtin.module {
  %i = op.data {dtype = bool, name = "i", shape = [2, 2]} : () -> tensor<2x2xbool>
  %m = op.maximum(%i, %i) : (tensor<2x2xbool>, tensor<2x2xbool>) -> tensor<2x2xbool>
  builtin.shadow_output(%m) {name = "m"} : (tensor<2x2xbool>) -> ()
}

// -----
// RUN: --passes=lower-to-kernel
// Lowering reads places and never assumes one: an unplaced program is refused.
// CHECK-ERROR: (PreconditionNotMet) lower-to-kernel: argument 'result' expected a placed tensor (run assign-places first), got 'op.data'
builtin.module {
  %i = op.data {dtype = f32, name = "i", shape = [2]} : () -> tensor<2xf32>
  %r = op.relu(%i) : (tensor<2xf32>) -> tensor<2xf32>
  builtin.shadow_output(%r) {name = "r"} : (tensor<2xf32>) -> ()
}
