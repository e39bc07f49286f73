builtin.module {
  %0 = builtin.constant {value = dense<tensor<2x2xf32>, [1.0, 2.5, -inf, 0.1]>} : () -> tensor<2x2xf32>
  %1 = builtin.constant {value = dense<tensor<3xi8>, [-128, 0, 127]>} : () -> tensor<3xi8>
  %2 = builtin.constant {value = dense<tensor<2xbf16>, "0x803f0040">} : () -> tensor<2xbf16>
  %3 = builtin.constant {value = dense<tensor<4x4xbool>, true>} : () -> tensor<4x4xbool>
  %4 = op.add(%0, %0) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
}
