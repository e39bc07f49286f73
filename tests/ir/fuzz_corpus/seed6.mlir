builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2]} : () -> tensor<2xf32>
  %1 = op.scale(%0) {bias = 0.0, bias_after_scale = 1, scale = 2.0} : (tensor<2xf32>) -> tensor<2xf32>
}
