// Verifier and parser errors: each message names the op, its location and what was expected.
// CHECK-ERROR: 'op.relu' at a.py:2:1: argument 'operand #0' expected a value that dominates its use
builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool>
  %1 = cf.if(%c) : (tensor<bool>) -> tensor<2xf32> {
    %2 = op.exp(%0) : (tensor<2xf32>) -> tensor<2xf32>
    cf.yield(%2) : (tensor<2xf32>) -> ()
  } {
    cf.yield(%0) : (tensor<2xf32>) -> ()
  }
  %3 = op.relu(%2) : (tensor<2xf32>) -> tensor<2xf32> loc("a.py":2:1)
}
// -----
// CHECK-ERROR: 'cf.if': argument 'else' expected a block ending with cf.yield
builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool>
  %1 = cf.if(%c) : (tensor<bool>) -> tensor<2xf32> {
    cf.yield(%0) : (tensor<2xf32>) -> ()
  } {
    %2 = op.exp(%0) : (tensor<2xf32>) -> tensor<2xf32>
  }
}
// -----
// CHECK-ERROR: 'cf.while': argument 'body yield #1' expected tensor<2xf32>, got tensor<3xf32>
builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %y = op.data {dtype = f32, name = "y", shape = [3]} : () -> tensor<3xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool>
  %1 = cf.while(%c, %0) : (tensor<bool>, tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    cf.yield(%c, %y) : (tensor<bool>, tensor<3xf32>) -> ()
  }
}
// -----
// CHECK-ERROR: 'cf.if': argument 'cond' expected a bool tensor with one element, got tensor<2xf32>
builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  cf.if(%0) : (tensor<2xf32>) -> () {
    cf.yield : () -> ()
  } {
    cf.yield : () -> ()
  }
}
// -----
// CHECK-ERROR: 'op.matmul': argument 'transpose_y' expected the attribute to be set
builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2, 2]} : () -> tensor<2x2xf32>
  %1 = op.matmul(%0, %0) {transpose_x = false} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
}
// -----
// CHECK-ERROR: 'op.scale': argument 'bias_after_scale' expected an attribute of kind bool, got 1
builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %1 = op.scale(%0) {bias = 0.0, bias_after_scale = 1, scale = 2.0} : (tensor<2xf32>) -> tensor<2xf32>
}
// -----
// CHECK-ERROR: 'op.add': argument 'operands' expected 2 operands, got 1
builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %1 = op.add(%0) : (tensor<2xf32>) -> tensor<2xf32>
}
// -----
// CHECK-ERROR: 'cf.yield': argument 'position' expected a terminator at the end of its block
builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool>
  %1 = cf.if(%c) : (tensor<bool>) -> tensor<2xf32> {
    cf.yield(%0) : (tensor<2xf32>) -> ()
    %2 = op.exp(%0) : (tensor<2xf32>) -> tensor<2xf32>
  } {
    cf.yield(%0) : (tensor<2xf32>) -> ()
  }
}
// -----
// CHECK-ERROR: parser: argument '5:19' expected operand 0 of type tensor<2xf32>, got ': (tensor<3xf32>'
builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %1 = op.exp(%0) : (tensor<3xf32>) -> tensor<3xf32>
}
// -----
// CHECK-ERROR: expected a registered op name, got 'op.nonexistent'
builtin.module {
  %0 = op.nonexistent : () -> tensor<2xf32>
}
// -----
// CHECK-ERROR: expected a value defined before its use
builtin.module {
  %1 = op.exp(%0) : (tensor<2xf32>) -> tensor<2xf32>
}
// -----
// CHECK-ERROR: expected a fresh value name, '%0' is redefined
builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %0 = op.data {dtype = f32, name = "y", shape = [2]} : () -> tensor<2xf32>
}
