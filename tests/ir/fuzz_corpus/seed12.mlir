builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %0 = op.data {dtype = f32, name = "y", shape = [2]} : () -> tensor<2xf32>
}
