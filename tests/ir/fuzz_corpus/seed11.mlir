builtin.module {
  %1 = op.exp(%0) : (tensor<2xf32>) -> tensor<2xf32>
}
