builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %1 = op.add(%0) : (tensor<2xf32>) -> tensor<2xf32>
}
