builtin.module {
  %0 = op.nonexistent : () -> tensor<2xf32>
}
