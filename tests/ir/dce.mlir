// RUN: --passes=dce
// Dead pure ops go, including chains and ops nested in regions; ops with side effects
// (op.data, op.print, builtin.shadow_output) and live values stay; an unused pure cf.if goes.
// CHECK: %0 = op.data
// CHECK-NOT: op.relu
// CHECK: %1 = op.print(%0)
// CHECK: %2 = op.data
// CHECK: %3 = cf.if(%2)
// CHECK-NOT: op.exp
// CHECK: cf.yield(%0)
// CHECK: cf.yield(%0)
// CHECK-NOT: cf.if
// CHECK: builtin.shadow_output(%3)
builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %1 = op.relu(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = op.relu(%1) : (tensor<2xf32>) -> tensor<2xf32>
  %3 = op.print(%0) {message = "x"} : (tensor<2xf32>) -> tensor<2xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool>
  %4 = cf.if(%c) : (tensor<bool>) -> tensor<2xf32> {
    %5 = op.exp(%0) : (tensor<2xf32>) -> tensor<2xf32>
    cf.yield(%0) : (tensor<2xf32>) -> ()
  } {
    cf.yield(%0) : (tensor<2xf32>) -> ()
  }
  %6 = cf.if(%c) : (tensor<bool>) -> tensor<2xf32> {
    cf.yield(%0) : (tensor<2xf32>) -> ()
  } {
    cf.yield(%0) : (tensor<2xf32>) -> ()
  }
  builtin.shadow_output(%4) {name = "out"} : (tensor<2xf32>) -> ()
}
