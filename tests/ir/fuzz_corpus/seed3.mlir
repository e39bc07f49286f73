builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %y = op.data {dtype = f32, name = "y", shape = [3]} : () -> tensor<3xf32>
  %c = op.data {dtype = bool, name = "c", shape = []} : () -> tensor<bool>
  %1 = cf.while(%c, %0) : (tensor<bool>, tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    cf.yield(%c, %y) : (tensor<bool>, tensor<3xf32>) -> ()
  }
}
