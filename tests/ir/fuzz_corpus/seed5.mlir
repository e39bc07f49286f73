builtin.module {
  %0 = op.data {dtype = f32, name = "x", shape = [2, 2]} : () -> tensor<2x2xf32>
  %1 = op.matmul(%0, %0) {transpose_x = false} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
}
