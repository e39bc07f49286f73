// Skiff's CPU layout of weight-only quantized weights (quant.yaml), shared by the CPU and the
// reference kernels so that both read and write exactly the same bits. A weight w [k, n] is
// stored as rows q [n, row_bytes]: row j holds output channel j's k values, one int8 each, or
// for int4 two per byte (value 2i in the low nibble of byte i, 2i + 1 in the high one, both
// two's complement). Scales are [n] (per channel) or [groups, n] with groups = ceil(k / g).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "skiff/base/error.h"
#include "skiff/base/str.h"

namespace skiff::ops::quant {

struct Format {
  int bits = 8;                // 8 or 4
  int64_t group = -1;          // values per scale along k; -1: the whole channel
  bool float32_scale = false;  // llm.int8 keeps float32 scales whatever the weight's dtype
  /// The largest magnitude of a quantized value.
  float bound() const { return bits == 8 ? 127.0f : 7.0f; }
  /// Bytes of one stored row of k values.
  int64_t row_bytes(int64_t k) const { return bits == 8 ? k : (k + 1) / 2; }
  /// Values of one stored row of `bytes` bytes (int4: two per byte).
  int64_t row_values(int64_t bytes) const { return bits == 8 ? bytes : 2 * bytes; }
  /// Scale rows: 1 per channel, else one per group of k.
  int64_t scale_rows(int64_t k) const { return group < 0 ? 1 : (k + group - 1) / group; }
};

/// The format of weight_quantize/weight_dequantize's algo; InvalidArgument naming the valid
/// ones and the group sizes (-1, 64, 128) otherwise.
inline Format format_of_algo(std::string_view op, const std::string& algo, int64_t group_size) {
  SKIFF_ENFORCE(algo == "weight_only_int8" || algo == "weight_only_int4" || algo == "llm.int8",
                kInvalidArgument, op, "algo",
                "one of 'weight_only_int8', 'weight_only_int4', 'llm.int8'", str("'", algo, "'"));
  SKIFF_ENFORCE(group_size == -1 || group_size == 64 || group_size == 128, kInvalidArgument, op,
                "group_size", "-1 (per channel), 64 or 128", group_size);
  return Format{algo == "weight_only_int4" ? 4 : 8, group_size, algo == "llm.int8"};
}

/// The format of weight_only_linear's weight_dtype ('int8' or 'int4').
inline Format format_of_weight_dtype(std::string_view op, const std::string& weight_dtype,
                                     int64_t group_size) {
  SKIFF_ENFORCE(weight_dtype == "int8" || weight_dtype == "int4", kInvalidArgument, op,
                "weight_dtype", "'int8' or 'int4'", str("'", weight_dtype, "'"));
  SKIFF_ENFORCE(group_size == -1 || group_size == 64 || group_size == 128, kInvalidArgument, op,
                "group_size", "-1 (per channel), 64 or 128", group_size);
  return Format{weight_dtype == "int4" ? 4 : 8, group_size, false};
}

/// Value i of a stored row.
inline int value_at(const int8_t* row, int64_t i, int bits) {
  if (bits == 8) return row[i];
  const int byte = static_cast<uint8_t>(row[i >> 1]);
  const int nibble = (i & 1) ? (byte >> 4) : (byte & 0xF);
  return nibble >= 8 ? nibble - 16 : nibble;
}

/// Writes value i (already in [-bound, bound]) of a stored row; int4 rows must start zeroed.
inline void set_value(int8_t* row, int64_t i, int v, int bits) {
  if (bits == 8) {
    row[i] = static_cast<int8_t>(v);
    return;
  }
  uint8_t& byte = reinterpret_cast<uint8_t&>(row[i >> 1]);
  const uint8_t nibble = static_cast<uint8_t>(v) & 0xF;
  byte = (i & 1) ? static_cast<uint8_t>((byte & 0x0F) | (nibble << 4))
                 : static_cast<uint8_t>((byte & 0xF0) | nibble);
}

/// round(w / scale) clamped to the bound (round half away from zero, as Paddle's kernel); a
/// zero scale (all-zero channel) gives 0. Weights are finite (weight_quantize checks).
template <typename F>
inline int quantize_value(F w, F scale, float bound) {
  if (scale == F(0)) return 0;
  const F r = std::round(w / scale);
  const F b = static_cast<F>(bound);
  return static_cast<int>(r > b ? b : (r < -b ? -b : r));
}

/// LLM.int8 (llm_int8_linear): whether value v makes its column of x an outlier (|v| above the
/// threshold, or not finite: those stay in floating point, so they propagate).
inline bool llm_int8_outlier(float v, float threshold) {
  return !(std::fabs(v) <= std::min(threshold, std::numeric_limits<float>::max()));
}

/// The int8 level of value v of a row of x whose non-outlier values have maximum magnitude
/// `range` (|v| <= range): v * 127 / range rounded half away from zero, in float arithmetic
/// with inv = llm_int8_inverse_step(range), so every kernel picks the same levels.
inline float llm_int8_inverse_step(float range) { return range > 0.0f ? 127.0f / range : 0.0f; }
inline int8_t llm_int8_level(float v, float inv) {
  const float r = v * inv;
  const float t = std::min(127.0f, std::max(-127.0f, r + (r >= 0.0f ? 0.5f : -0.5f)));
  return static_cast<int8_t>(t);  // truncation: t + 0.5 truncated is round half away
}
/// The value one level of such a row stands for.
inline float llm_int8_step(float range) { return range / 127.0f; }

}  // namespace skiff::ops::quant
