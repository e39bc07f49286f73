builtin.module {
  %0 = builtin.parameter {name = "dw"} : () -> !dist.tensor<tensor<8x?xf32>, mesh = [2, 4], placements = [S(0), R]>
  %1 = builtin.parameter {name = "p"} : () -> !dist.tensor<tensor<8xf32>, mesh = [2], placements = [P]>
}
