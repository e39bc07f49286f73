// cf.if / cf.while results and block arguments may leave dims dynamic: yields and inits of a
// more static type of the same dtype and rank flow into them (ir::flows_into), never the reverse.
// CHECK: %2 = cf.if(%1) : (tensor<bool>) -> tensor<?xf32> {
// CHECK: cf.yield(%0) : (tensor<2xf32>) -> ()
// CHECK: %5 = cf.while(%1, %0) : (tensor<bool>, tensor<2xf32>) -> tensor<?xf32> {
// CHECK-NEXT: ^bb0(%6: tensor<?xf32>):
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool>
  %r = cf.if(%c) : (tensor<bool>) -> tensor<?xf32> {
    cf.yield(%x) : (tensor<2xf32>) -> ()
  } {
    %v = builtin.combine(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> vec<tensor<2xf32>, tensor<2xf32>>
    %y = op.concat(%v) {axis = 0} : (vec<tensor<2xf32>, tensor<2xf32>>) -> tensor<4xf32>
    cf.yield(%y) : (tensor<4xf32>) -> ()
  }
  %w = cf.while(%c, %x) : (tensor<bool>, tensor<2xf32>) -> tensor<?xf32> {
  ^bb0(%s: tensor<?xf32>):
    %u = builtin.combine(%s, %s) : (tensor<?xf32>, tensor<?xf32>) -> vec<tensor<?xf32>, tensor<?xf32>>
    %t = op.concat(%u) {axis = 0} : (vec<tensor<?xf32>, tensor<?xf32>>) -> tensor<?xf32>
    cf.yield(%c, %t) : (tensor<bool>, tensor<?xf32>) -> ()
  }
}

// -----
// A dynamic yield does not flow into a static result.
// CHECK-ERROR: 'cf.if': argument 'then yield #0' expected tensor<2xf32>, got tensor<?xf32>
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [-1]} : () -> tensor<?xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool>
  %r = cf.if(%c) : (tensor<bool>) -> tensor<2xf32> {
    cf.yield(%x) : (tensor<?xf32>) -> ()
  } {
    cf.yield(%x) : (tensor<?xf32>) -> ()
  }
}

// -----
// Nor does another rank or dtype, into a dynamic slot.
// CHECK-ERROR: 'cf.while': argument 'results' expected the types of the loop-carried inits (or those with dynamic dims), got different types
builtin.module {
  %x = op.data {dtype = f32, name = "x", shape = [2, 2]} : () -> tensor<2x2xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool>
  %w = cf.while(%c, %x) : (tensor<bool>, tensor<2x2xf32>) -> tensor<?xf32> {
  ^bb0(%s: tensor<?xf32>):
    cf.yield(%c, %s) : (tensor<bool>, tensor<?xf32>) -> ()
  }
}
