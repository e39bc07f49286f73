// RUN: --passes=assign-places
// assign-places puts the place (here the default one, cpu) into every tensor type: op results,
// data, parameters, vec values element by element, cf results and block arguments. The ops
// stay in the op dialect. A constant stays host data and gets a kernel.transfer that its users
// read instead; a value already placed keeps its place.
// CHECK: %0 = op.data {dtype = f32, name = "x", shape = [-1, 4]} : () -> !kernel.dense<cpu, tensor<?x4xf32>>
// CHECK-NEXT: %1 = builtin.parameter {name = "w"} : () -> !kernel.dense<cpu, tensor<4x4xf32>>
// CHECK-NEXT: %2 = builtin.constant {value = 1.5} : () -> tensor<4xf32>
// CHECK-NEXT: %3 = kernel.transfer(%2) {dst_place = "cpu"} : (tensor<4xf32>) -> !kernel.dense<cpu, tensor<4xf32>>
// CHECK-NEXT: %4 = op.add(%0, %3) : (!kernel.dense<cpu, tensor<?x4xf32>>, !kernel.dense<cpu, tensor<4xf32>>) -> !kernel.dense<cpu, tensor<?x4xf32>>
// CHECK-NEXT: %5 = op.matmul(%4, %1) {transpose_x = false, transpose_y = false} : (!kernel.dense<cpu, tensor<?x4xf32>>, !kernel.dense<cpu, tensor<4x4xf32>>) -> !kernel.dense<cpu, tensor<?x4xf32>>
// CHECK-NEXT: %6 = builtin.combine(%5, %4) : (!kernel.dense<cpu, tensor<?x4xf32>>, !kernel.dense<cpu, tensor<?x4xf32>>) -> vec<!kernel.dense<cpu, tensor<?x4xf32>>, !kernel.dense<cpu, tensor<?x4xf32>>>
// CHECK-NEXT: %7 = op.concat(%6) {axis = 0} : (vec<!kernel.dense<cpu, tensor<?x4xf32>>, !kernel.dense<cpu, tensor<?x4xf32>>>) -> !kernel.dense<cpu, tensor<?x4xf32>>
// CHECK-NEXT: %8 = op.data {dtype = bool, name = "c", shape = []} : () -> !kernel.dense<cpu, tensor<bool>>
// CHECK-NEXT: %9 = cf.while(%8, %7) : (!kernel.dense<cpu, tensor<bool>>, !kernel.dense<cpu, tensor<?x4xf32>>) -> !kernel.dense<cpu, tensor<?x4xf32>> {
// CHECK-NEXT: ^bb0(%10: !kernel.dense<cpu, tensor<?x4xf32>>):
// CHECK-NEXT: %11 = op.relu(%10) : (!kernel.dense<cpu, tensor<?x4xf32>>) -> !kernel.dense<cpu, tensor<?x4xf32>>
// CHECK-NEXT: cf.yield(%8, %11) : (!kernel.dense<cpu, tensor<bool>>, !kernel.dense<cpu, tensor<?x4xf32>>) -> ()
// CHECK: %12 = kernel.transfer(%9) {dst_place = "gpu:1"} : (!kernel.dense<cpu, tensor<?x4xf32>>) -> !kernel.dense<gpu:1, tensor<?x4xf32>>
// CHECK-NEXT: builtin.shadow_output(%12) {name = "y"} : (!kernel.dense<gpu:1, tensor<?x4xf32>>) -> ()
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [-1, 4]} : () -> tensor<?x4xf32>
  %w = builtin.parameter {name = "w"} : () -> tensor<4x4xf32>
  %k = builtin.constant {value = 1.5} : () -> tensor<4xf32>
  %a = op.add(%x, %k) : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %m = op.matmul(%a, %w) {transpose_x = false, transpose_y = false} : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
  %v = builtin.combine(%m, %a) : (tensor<?x4xf32>, tensor<?x4xf32>) -> vec<tensor<?x4xf32>, tensor<?x4xf32>>
  %y = op.concat(%v) {axis = 0} : (vec<tensor<?x4xf32>, tensor<?x4xf32>>) -> tensor<?x4xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool>
  %l = cf.while(%c, %y) : (tensor<bool>, tensor<?x4xf32>) -> tensor<?x4xf32> {
  ^bb0(%s: tensor<?x4xf32>):
    %r = op.relu(%s) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    cf.yield(%c, %r) : (tensor<bool>, tensor<?x4xf32>) -> ()
  }
  %g = kernel.transfer(%l) {dst_place = "gpu:1"} : (tensor<?x4xf32>) -> !kernel.dense<gpu:1, tensor<?x4xf32>>
  builtin.shadow_output(%g) {name = "y"} : (!kernel.dense<gpu:1, tensor<?x4xf32>>) -> ()
}
