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
