// Infer-meta of the FFT ops (skiff/ops/yaml/fft.yaml).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {

/// Checks `axes` (non-empty, distinct, each in [0, rank)) and `normalization`.
void check_fft_args(std::string_view op, int rank, const std::vector<int64_t>& axes,
                    const std::string& normalization);
/// fft_c2c: complex x, same meta.
void fft_c2c_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axes,
                  const std::string& normalization, bool forward, TensorMeta* out);
/// fft_r2c: float32/float64 x -> complex; onesided: n/2 + 1 along the last axis.
void fft_r2c_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axes,
                  const std::string& normalization, bool forward, bool onesided, TensorMeta* out);
/// fft_c2r: complex x -> real; last axis last_dim_size (0: 2 * (k - 1)), which must be >= 1.
void fft_c2r_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axes,
                  const std::string& normalization, bool forward, int64_t last_dim_size,
                  TensorMeta* out);
/// The output length of fft_c2r along its last axis for an input length k.
int64_t fft_c2r_length(int64_t k, int64_t last_dim_size);

}  // namespace skiff::ops::meta
