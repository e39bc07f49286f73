// OpDb entries of weight-only quantization (quant.yaml). Quantized weights are random int8
// bytes (for int4 every byte is a valid pair). weight_quantize's weights are multiples of 1/16
// with magnitudes up to 7/16 and a +-7/16 in row 0, 64, 128, ... of every column, so each
// channel and group has the maximum 7/16: then w / scale = 127 q / 7 (int8) or q (int4) is
// never near a rounding tie, and float and float64 kernels pick the same levels.
#include "op_db.h"

namespace skiff::testing {

namespace {

using ops::AttrValue;
using Attrs = std::map<std::string, AttrValue>;

InputMaker quantized_bytes() {
  return [](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    std::uniform_int_distribution<int> pick(-127, 127);
    std::vector<double> v(dims.numel());
    for (auto& x : v) x = pick(rng);
    return make_tensor(dims, dtype, v);
  };
}

InputMaker sixteenths() {
  return [](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    std::uniform_int_distribution<int> pick(-7, 7), sign(0, 1);
    const int64_t n = dims.size() == 2 ? dims[1] : 1;
    std::vector<double> v(dims.numel());
    for (int64_t i = 0; i < static_cast<int64_t>(v.size()); ++i) {
      const bool peak = (i / n) % 64 == 0;
      v[i] = (peak ? (sign(rng) ? 7 : -7) : pick(rng)) / 16.0;
    }
    return make_tensor(dims, dtype, v);
  };
}

// Scales as weight_quantize makes them (max|w| / 127 for weights of magnitude ~1), so that
// dequantized weights and the sums over k stay of order one.
InputMaker positive_scales() {
  return [](int, const Dims& d, DType t, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> pick(0.2 / 127, 1.5 / 127);
    std::vector<double> v(d.numel());
    for (auto& x : v) x = pick(rng);
    return make_tensor(d, t, v);
  };
}

// Activations of llm_int8_linear: sixteenths up to 7/16 with a +-7/16 in column 0 of every row
// (so int8 levels are 127 q / 7, never near a rounding tie), and in columns 3, 8, 13, ... values
// of magnitude 2 to 2 7/16, the outliers of thresholds between 7/16 and 2.
InputMaker llm_int8_activations() {
  return [](int, const Dims& dims, DType dtype, std::mt19937_64& rng) {
    std::uniform_int_distribution<int> pick(-7, 7), big(0, 7), sign(0, 1);
    const int64_t k = dims.empty() ? 1 : dims.back();
    std::vector<double> v(dims.numel());
    for (int64_t e = 0; e < static_cast<int64_t>(v.size()); ++e) {
      const int64_t i = e % k;
      const double s = sign(rng) ? 1.0 : -1.0;
      v[e] = i == 0 ? s * 7 / 16.0 : (i % 5 == 3 ? s * (2 + big(rng) / 16.0) : pick(rng) / 16.0);
    }
    return make_tensor(dims, dtype, v);
  };
}

OpSample llm_int8(Dims x, int64_t n, bool with_bias, double threshold) {
  OpSample s;
  s.shapes = {{x}, {Dims{n, x.back()}}, {}, {Dims{n}}};
  if (with_bias) s.shapes[2].push_back(Dims{n});
  s.attrs = {{"threshold", threshold}};
  return s;
}

Attrs algo(const char* name, int64_t group = -1) {
  return {{"algo", std::string(name)}, {"group_size", group}};
}
Attrs wdtype(const char* name, int64_t group = -1) {
  return {{"weight_dtype", std::string(name)}, {"group_size", group}};
}

// weight_only_linear (with_bias: bias present or absent) or its gradient (grad: out_grad
// after the scale): x [..., k], weight [n, bytes], scale [n] or [groups, n].
OpSample linear(Dims x, int64_t n, int bits, int64_t group, bool with_bias, bool grad) {
  const int64_t k = x.back();
  const int64_t bytes = bits == 8 ? k : (k + 1) / 2;
  const Dims scale = group < 0 ? Dims{n} : Dims{(k + group - 1) / group, n};
  Dims out = x;
  out[out.size() - 1] = n;
  OpSample s;
  if (grad) {
    s.shapes = {{x}, {Dims{n, bytes}}, {scale}, {out}};
  } else {
    s.shapes = {{x}, {Dims{n, bytes}}, {}, {scale}};
    if (with_bias) s.shapes[2].push_back(Dims{n});
  }
  s.attrs = wdtype(bits == 8 ? "int8" : "int4", group);
  return s;
}

std::vector<OpSample> linear_samples(bool grad) {
  return {linear(Dims{1, 32}, 24, 8, -1, true, grad),     // decode: one row
          linear(Dims{2, 3, 16}, 5, 8, -1, false, grad),  // batch dims
          linear(Dims{20, 64}, 150, 8, -1, true, grad),   // GEMM panels, n past one block
          linear(Dims{3, 7}, 6, 4, -1, true, grad),       // int4, odd k
          linear(Dims{12, 130}, 9, 8, 64, true, grad),    // groups of 64, a short last one
          linear(Dims{2, 128}, 4, 4, 128, false, grad),   // int4 groups of 128
          linear(Dims{0, 8}, 3, 8, -1, true, grad),       // no rows
          linear(Dims{4, 0}, 3, 8, -1, true, grad)};      // empty contraction
}

}  // namespace

void add_quant_op_infos(OpDb& db) {
  db.add(
      {.name = "weight_quantize",
       .samples = {sample({{64, 8}}), sample({{7, 5}}), sample({{7, 5}}, algo("weight_only_int4")),
                   sample({{6, 4}}, algo("llm.int8")),
                   sample({{130, 6}}, algo("weight_only_int8", 64)),
                   sample({{128, 3}}, algo("weight_only_int4", 128)), sample({{0, 4}}),
                   sample({{5, 0}}), sample({{0, 3}}, algo("weight_only_int8", 64))},
       .input_makers = {{0, sixteenths()}}});
  db.add({.name = "weight_dequantize",
          .samples = {sample({{8, 6}, {8}}), sample({{5, 3}, {5}}, algo("weight_only_int4")),
                      sample({{4, 130}, {3, 4}}, algo("weight_only_int8", 64)),
                      sample({{3, 64}, {1, 3}}, algo("weight_only_int4", 128)),
                      sample({{2, 5}, {2}}, algo("llm.int8")), sample({{0, 5}, {0}})},
          .input_makers = {{0, quantized_bytes()}, {1, positive_scales()}},
          .fixed_dtypes = {{0, DType::kInt8}}});
  // weight_scale (argument 3 of the forward, 2 of the gradient) is not differentiated.
  db.add({.name = "weight_only_linear",
          .samples = linear_samples(false),
          .input_makers = {{1, quantized_bytes()}, {3, positive_scales()}},
          // Sums of up to 130 products: float rounding grows with k.
          .tolerance_scale = 4.0,
          .fixed_dtypes = {{1, DType::kInt8}}});
  db.add({.name = "llm_int8_linear",
          .samples = {llm_int8(Dims{1, 32}, 24, true, 1.0),     // decode: one row, outliers
                      llm_int8(Dims{2, 3, 16}, 5, false, 6.0),  // batch dims, no outliers
                      llm_int8(Dims{20, 64}, 150, true, 1.0),   // oneDNN's int8 GEMM
                      llm_int8(Dims{12, 130}, 9, true, 0.4),    // many outlier columns
                      llm_int8(Dims{3, 7}, 6, true, -1.0),      // every column an outlier
                      llm_int8(Dims{0, 8}, 3, true, 6.0),       // no rows
                      llm_int8(Dims{4, 0}, 3, true, 6.0)},      // empty contraction
          .input_makers = {{0, llm_int8_activations()},
                           {1, quantized_bytes()},
                           {3, positive_scales()}},
          .tolerance_scale = 4.0,
          .fixed_dtypes = {{1, DType::kInt8}}});
  db.add({.name = "weight_only_linear_grad",
          .samples = linear_samples(true),
          .input_makers = {{1, quantized_bytes()}, {2, positive_scales()}},
          .tolerance_scale = 4.0,
          .fixed_dtypes = {{1, DType::kInt8}}});
}

}  // namespace skiff::testing
