builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  cf.if(%0) : (tensor<2xf32>) -> () {
    cf.yield : () -> ()
  } {
    cf.yield : () -> ()
  }
}
