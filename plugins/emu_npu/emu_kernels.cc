// Kernels of the emulated NPU: matmul, add/subtract/multiply/divide, relu/gelu/silu, softmax,
// rms_norm, embedding, sum/mean, cast between float32/float16/bfloat16 and the fused AdamW
// update, for float32, float16 and bfloat16 (AdamW: float32 and bfloat16 parameters, as in
// Skiff's records). No float64 and no integer kernels, on purpose: those run through Skiff's
// CPU fallback. Every kernel accepts strided inputs (SKIFF_LAYOUT_STRIDED).
//
// Each entry checks its call synchronously (so a bad call is an error at once), copies the
// tensor descriptors and attributes, and enqueues the computation on the call's stream; the
// worker thread gathers the inputs to float, computes, and scatters into the outputs. Simple
// loops, not fast ones: the device exists to exercise the ABI, not to compete.
#include "plugins/emu_npu/emu_kernels.h"

#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "plugins/emu_npu/emu_runtime.h"

namespace emu {

namespace {

// ---- 16-bit floats ----------------------------------------------------------------------------
float bits_to_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t float_to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float bf16_to_float(uint16_t h) { return bits_to_float(static_cast<uint32_t>(h) << 16); }
uint16_t float_to_bf16(float f) {
  uint32_t u = float_to_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);  // NaN
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even
  return static_cast<uint16_t>(u >> 16);
}
float fp16_to_float(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1f;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0) {  // zero or subnormal
    const float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31) return bits_to_float(sign | 0x7f800000u | (mant << 13));
  return bits_to_float(sign | ((exp + 112) << 23) | (mant << 13));
}
uint16_t float_to_fp16(float f) {
  const uint32_t u = float_to_bits(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  const float a = std::fabs(f);
  if (std::isnan(f)) return sign | 0x7e00;
  if (a >= 65520.0f) return sign | 0x7c00;  // rounds to infinity
  if (a < 6.103515625e-05f) {               // subnormal: multiples of 2^-24
    return sign | static_cast<uint16_t>(std::nearbyint(a * 16777216.0f));
  }
  const uint32_t au = float_to_bits(a);
  uint32_t exp = (au >> 23) - 112;
  uint32_t mant = au & 0x7fffffu;
  uint32_t h = (exp << 10) | (mant >> 13);
  const uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // nearest even (may carry)
  return sign | static_cast<uint16_t>(h);
}

size_t itemsize(int dtype) {
  switch (dtype) {
    case SKIFF_BOOL:
    case SKIFF_INT8:
    case SKIFF_UINT8:
      return 1;
    case SKIFF_INT16:
    case SKIFF_FLOAT16:
    case SKIFF_BFLOAT16:
      return 2;
    case SKIFF_INT32:
    case SKIFF_FLOAT32:
      return 4;
    default:
      return 8;
  }
}

double load(const char* p, int dtype) {
  switch (dtype) {
    case SKIFF_FLOAT32: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case SKIFF_FLOAT16:
    case SKIFF_BFLOAT16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return dtype == SKIFF_FLOAT16 ? fp16_to_float(h) : bf16_to_float(h);
    }
    case SKIFF_INT32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case SKIFF_INT64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<double>(v);
    }
    default:
      return 0;
  }
}

void store(char* p, int dtype, double v) {
  switch (dtype) {
    case SKIFF_FLOAT32: {
      const float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
      return;
    }
    case SKIFF_FLOAT16:
    case SKIFF_BFLOAT16: {
      const float f = static_cast<float>(v);
      const uint16_t h = dtype == SKIFF_FLOAT16 ? float_to_fp16(f) : float_to_bf16(f);
      std::memcpy(p, &h, 2);
      return;
    }
    default:
      return;
  }
}

// Element offsets (in elements) of `t` read as `dims` (rank `nd`, row-major order), with
// numpy broadcasting: t's dims align to the right, a size-1 dim repeats.
std::vector<int64_t> offsets(const SkiffTensor& t, const int64_t* dims, int nd) {
  int64_t n = 1;
  for (int i = 0; i < nd; ++i) n *= dims[i];
  std::vector<int64_t> stride(nd, 0);
  for (int i = 0; i < nd; ++i) {
    const int k = i - (nd - t.ndim);
    if (k >= 0 && t.dims[k] != 1) stride[i] = t.strides[k];
  }
  std::vector<int64_t> out(n);
  std::vector<int64_t> idx(nd, 0);
  int64_t off = 0;
  for (int64_t e = 0; e < n; ++e) {
    out[e] = off;
    for (int i = nd - 1; i >= 0; --i) {
      if (++idx[i] < dims[i]) {
        off += stride[i];
        break;
      }
      off -= stride[i] * (dims[i] - 1);
      idx[i] = 0;
    }
  }
  return out;
}

std::vector<double> gather_as(const SkiffTensor& t, const int64_t* dims, int nd) {
  const std::vector<int64_t> off = offsets(t, dims, nd);
  std::vector<double> v(off.size());
  const char* base = static_cast<const char*>(t.data);
  const size_t sz = itemsize(t.dtype);
  for (size_t i = 0; i < off.size(); ++i) v[i] = load(base + off[i] * sz, t.dtype);
  return v;
}
std::vector<double> gather(const SkiffTensor& t) { return gather_as(t, t.dims, t.ndim); }

void scatter(const SkiffTensor& t, const std::vector<double>& v) {
  const std::vector<int64_t> off = offsets(t, t.dims, t.ndim);
  char* base = static_cast<char*>(t.data);
  const size_t sz = itemsize(t.dtype);
  for (size_t i = 0; i < off.size(); ++i) store(base + off[i] * sz, t.dtype, v[i]);
}

// ---- calls ------------------------------------------------------------------------------------
struct Attr {
  int kind = 0;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<int64_t> ints;
};

/// A kernel call copied out of the SkiffKernelCall (which lives only for the entry call).
struct Job {
  std::vector<SkiffTensor> in, out;
  std::vector<int32_t> begin;
  std::map<std::string, Attr> attrs;
  int dtype = 0;
  std::string op;

  explicit Job(const SkiffKernelCall* c)
      : in(c->inputs, c->inputs + c->num_inputs),
        out(c->outputs, c->outputs + c->num_outputs),
        begin(c->input_begin, c->input_begin + c->num_tensor_args + 1),
        dtype(c->dtype),
        op(c->op) {
    for (int i = 0; i < c->num_attrs; ++i) {
      const SkiffAttr& a = c->attrs[i];
      Attr& x = attrs[a.name];
      x.kind = a.kind;
      x.i = a.i;
      x.f = a.f;
      if (a.s) x.s = a.s;
      if (a.ints) x.ints.assign(a.ints, a.ints + a.count);
    }
  }
  double f(const char* name) const { return attrs.at(name).f; }
  int64_t i(const char* name) const { return attrs.at(name).i; }
  const std::vector<int64_t>& ints(const char* name) const { return attrs.at(name).ints; }
  /// Tensors of tensor argument k (a list argument has several).
  std::vector<SkiffTensor> arg(int k) const {
    return {in.begin() + begin[k], in.begin() + begin[k + 1]};
  }
};

SkiffStatus run(const SkiffKernelCall* c, void (*fn)(const Job&)) {
  if (!valid_device(c->device_id)) return fail("emu_npu kernel: bad device id");
  auto job = std::make_shared<Job>(c);
  stream_of(c->device_id, c->stream)->enqueue([job, fn] { fn(*job); });
  return SKIFF_SUCCESS;
}

int64_t norm_axis(int64_t axis, int nd) { return axis < 0 ? axis + nd : axis; }

// ---- elementwise ------------------------------------------------------------------------------
template <typename F>
void binary(const Job& j, F f) {
  const SkiffTensor& o = j.out[0];
  const std::vector<double> x = gather_as(j.in[0], o.dims, o.ndim);
  const std::vector<double> y = gather_as(j.in[1], o.dims, o.ndim);
  std::vector<double> r(x.size());
  for (size_t i = 0; i < r.size(); ++i) r[i] = f(x[i], y[i]);
  scatter(o, r);
}
// Results are rounded to the dtype like the CPU kernels, which compute 16-bit types in float.
double fl(double v) { return static_cast<float>(v); }
void add(const Job& j) { binary(j, [](double a, double b) { return fl(a) + fl(b); }); }
void subtract(const Job& j) { binary(j, [](double a, double b) { return fl(a) - fl(b); }); }
void multiply(const Job& j) {
  binary(j, [](double a, double b) { return static_cast<float>(a) * static_cast<float>(b); });
}
void divide(const Job& j) {
  binary(j, [](double a, double b) { return static_cast<float>(a) / static_cast<float>(b); });
}

template <typename F>
void unary(const Job& j, F f) {
  std::vector<double> x = gather(j.in[0]);
  for (double& v : x) v = f(static_cast<float>(v));
  scatter(j.out[0], x);
}
void relu(const Job& j) {
  unary(j, [](float v) { return v > 0 ? v : 0.0f; });
}
void silu(const Job& j) {
  unary(j, [](float v) { return v / (1.0f + std::exp(-v)); });
}
void gelu(const Job& j) {
  if (j.i("approximate")) {
    unary(j, [](float v) {
      const float u2 = 2 * 0.7978845608028654f * (v + 0.044715f * v * v * v);
      return v / (1.0f + std::exp(-u2));
    });
    return;
  }
  unary(j, [](float v) { return 0.5f * v * std::erfc(-v * 0.70710678118654752f); });
}

// ---- softmax, rms_norm, embedding -------------------------------------------------------------
void softmax(const Job& j) {
  const SkiffTensor& x = j.in[0];
  std::vector<double> v = gather(x);
  const int nd = x.ndim;
  const int64_t axis = nd == 0 ? 0 : norm_axis(j.i("axis"), nd);
  int64_t outer = 1, len = nd == 0 ? 1 : x.dims[axis], inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= x.dims[d];
  for (int64_t d = axis + 1; d < nd; ++d) inner *= x.dims[d];
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      double* p = v.data() + o * len * inner + in;
      double m = -INFINITY, s = 0;
      for (int64_t k = 0; k < len; ++k) m = std::max(m, p[k * inner]);
      for (int64_t k = 0; k < len; ++k) s += (p[k * inner] = std::exp(p[k * inner] - m));
      for (int64_t k = 0; k < len; ++k) p[k * inner] /= s;
    }
  }
  scatter(j.out[0], v);
}

void rms_norm(const Job& j) {
  const SkiffTensor& x = j.in[0];
  const std::vector<SkiffTensor> w = j.arg(1);
  std::vector<double> v = gather(x);
  const int64_t axis = norm_axis(j.i("begin_norm_axis"), x.ndim);
  int64_t left = 1, right = 1;
  for (int64_t d = 0; d < x.ndim; ++d) (d < axis ? left : right) *= x.dims[d];
  std::vector<double> weight = w.empty() ? std::vector<double>(right, 1.0) : gather(w[0]);
  std::vector<double> inv(left);
  const double eps = static_cast<float>(j.f("epsilon"));
  for (int64_t r = 0; r < left; ++r) {
    double* p = v.data() + r * right;
    double ms = 0;
    for (int64_t i = 0; i < right; ++i) ms += static_cast<double>(static_cast<float>(p[i])) * p[i];
    const float iv = static_cast<float>(1.0 / std::sqrt(ms / right + eps));
    for (int64_t i = 0; i < right; ++i) {
      p[i] = static_cast<float>(p[i]) * iv * static_cast<float>(weight[i]);
    }
    inv[r] = iv;
  }
  scatter(j.out[0], v);
  scatter(j.out[1], inv);
}

void embedding(const Job& j) {
  const std::vector<double> ids = gather(j.in[0]);
  const SkiffTensor& w = j.in[1];
  const std::vector<double> wv = gather(w);
  const int64_t dim = w.dims[1];
  const int64_t pad = j.i("padding_idx");
  std::vector<double> out(ids.size() * dim, 0.0);
  for (size_t i = 0; i < ids.size(); ++i) {
    const auto id = static_cast<int64_t>(ids[i]);
    if (id == pad) continue;
    std::copy(wv.begin() + id * dim, wv.begin() + (id + 1) * dim, out.begin() + i * dim);
  }
  scatter(j.out[0], out);
}

// Embedding checks its ids before queueing: an id out of range is an error of the call. The
// ids are device memory written by earlier work, so the stream is drained first.
SkiffStatus embedding_entry(const SkiffKernelCall* c) {
  if (!valid_device(c->device_id)) return fail("embedding: bad device id");
  stream_of(c->device_id, c->stream)->synchronize();
  const SkiffTensor& x = c->inputs[0];
  const SkiffTensor& w = c->inputs[1];
  if (x.dtype != SKIFF_INT32 && x.dtype != SKIFF_INT64) return SKIFF_UNSUPPORTED;
  if (w.ndim != 2) return SKIFF_UNSUPPORTED;
  for (double id : gather(x)) {
    if (id < 0 || id >= static_cast<double>(w.dims[0])) {
      return fail("embedding: argument 'x' expected ids in [0, " + std::to_string(w.dims[0]) +
                  "), got " + std::to_string(static_cast<int64_t>(id)));
    }
  }
  return run(c, embedding);
}

// ---- reductions -------------------------------------------------------------------------------
void reduce(const Job& j, bool mean) {
  const SkiffTensor& x = j.in[0];
  const std::vector<double> v = gather(x);
  std::vector<bool> reduced(x.ndim, j.ints("axis").empty());
  for (int64_t a : j.ints("axis")) reduced[norm_axis(a, x.ndim)] = true;
  std::vector<int64_t> ostride(x.ndim, 0);
  int64_t n_out = 1, count = 1;
  for (int d = x.ndim - 1; d >= 0; --d) {
    if (reduced[d]) {
      count *= x.dims[d];
      continue;
    }
    ostride[d] = n_out;
    n_out *= x.dims[d];
  }
  std::vector<double> out(n_out, 0.0);
  std::vector<int64_t> idx(x.ndim, 0);
  int64_t o = 0;
  for (size_t e = 0; e < v.size(); ++e) {
    out[o] += v[e];
    for (int d = x.ndim - 1; d >= 0; --d) {
      if (++idx[d] < x.dims[d]) {
        o += ostride[d];
        break;
      }
      o -= ostride[d] * (x.dims[d] - 1);
      idx[d] = 0;
    }
  }
  if (mean) {
    for (double& r : out) r /= static_cast<double>(count);
  }
  scatter(j.out[0], out);
}
void sum(const Job& j) { reduce(j, false); }
void mean(const Job& j) { reduce(j, true); }

bool is_float(int dtype) {
  return dtype == SKIFF_FLOAT32 || dtype == SKIFF_FLOAT16 || dtype == SKIFF_BFLOAT16;
}

SkiffStatus sum_entry(const SkiffKernelCall* c) {
  if (!is_float(c->outputs[0].dtype)) return SKIFF_UNSUPPORTED;  // sum to an integer dtype
  return run(c, sum);
}

// ---- cast ---------------------------------------------------------------------------------------
void cast(const Job& j) { scatter(j.out[0], gather(j.in[0])); }
SkiffStatus cast_entry(const SkiffKernelCall* c) {
  if (!is_float(c->outputs[0].dtype)) return SKIFF_UNSUPPORTED;  // to int/bool/float64: CPU
  return run(c, cast);
}

// ---- matmul -------------------------------------------------------------------------------------
struct Mat {
  int64_t rows, cols, rs, cs;  // shape and element strides of one matrix
};

// The matrix view of an operand: a 1-D x is a row vector, a 1-D y a column vector.
Mat as_matrix(const SkiffTensor& t, bool is_x, bool trans) {
  if (t.ndim == 1) {
    return is_x ? Mat{1, t.dims[0], 0, t.strides[0]} : Mat{t.dims[0], 1, t.strides[0], 0};
  }
  const int r = t.ndim - 2, c = t.ndim - 1;
  if (trans) return {t.dims[c], t.dims[r], t.strides[c], t.strides[r]};
  return {t.dims[r], t.dims[c], t.strides[r], t.strides[c]};
}

// Offset of batch `b` (row-major over `batch`) in `t`, whose batch dims broadcast to it.
int64_t batch_offset(const SkiffTensor& t, const std::vector<int64_t>& batch, int64_t b) {
  const int tb = t.ndim > 2 ? t.ndim - 2 : 0;
  int64_t off = 0;
  for (int i = static_cast<int>(batch.size()) - 1; i >= 0; --i) {
    const int64_t idx = b % batch[i];
    b /= batch[i];
    const int k = i - (static_cast<int>(batch.size()) - tb);
    if (k >= 0 && t.dims[k] != 1) off += idx * t.strides[k];
  }
  return off;
}

void matmul(const Job& j) {
  const SkiffTensor &x = j.in[0], &y = j.in[1], &o = j.out[0];
  const Mat a = as_matrix(x, true, j.i("transpose_x") && x.ndim > 1);
  const Mat b = as_matrix(y, false, j.i("transpose_y") && y.ndim > 1);
  std::vector<int64_t> batch;
  const int xb = x.ndim > 2 ? x.ndim - 2 : 0, yb = y.ndim > 2 ? y.ndim - 2 : 0;
  const int nb = std::max(xb, yb);
  for (int i = 0; i < nb; ++i) {
    const int kx = i - (nb - xb), ky = i - (nb - yb);
    const int64_t dx = kx >= 0 ? x.dims[kx] : 1, dy = ky >= 0 ? y.dims[ky] : 1;
    batch.push_back(dx == 1 ? dy : dx);
  }
  int64_t nbatch = 1;
  for (int64_t d : batch) nbatch *= d;
  const size_t sx = itemsize(x.dtype), sy = itemsize(y.dtype), so = itemsize(o.dtype);
  const char* px = static_cast<const char*>(x.data);
  const char* py = static_cast<const char*>(y.data);
  char* po = static_cast<char*>(o.data);  // contiguous (checked by the entry)
  std::vector<double> row(a.cols);
  for (int64_t bi = 0; bi < nbatch; ++bi) {
    const int64_t ox = batch_offset(x, batch, bi), oy = batch_offset(y, batch, bi);
    for (int64_t m = 0; m < a.rows; ++m) {
      for (int64_t k = 0; k < a.cols; ++k) row[k] = load(px + (ox + m * a.rs + k * a.cs) * sx, x.dtype);
      for (int64_t n = 0; n < b.cols; ++n) {
        float acc = 0;
        for (int64_t k = 0; k < a.cols; ++k) {
          acc += static_cast<float>(row[k]) *
                 static_cast<float>(load(py + (oy + k * b.rs + n * b.cs) * sy, y.dtype));
        }
        store(po + ((bi * a.rows + m) * b.cols + n) * so, o.dtype, acc);
      }
    }
  }
}

bool contiguous(const SkiffTensor& t) {
  int64_t expect = 1;
  for (int i = t.ndim - 1; i >= 0; --i) {
    if (t.dims[i] != 1 && t.strides[i] != expect) return false;
    expect *= t.dims[i];
  }
  return true;
}

SkiffStatus matmul_entry(const SkiffKernelCall* c) {
  if (c->inputs[0].ndim == 0 || c->inputs[1].ndim == 0) return SKIFF_UNSUPPORTED;
  if (!contiguous(c->outputs[0])) return SKIFF_UNSUPPORTED;
  return run(c, matmul);
}

// ---- fused AdamW --------------------------------------------------------------------------------
// Skiff's fused_adamw_ record: lists of params, grads, moment1, moment2, moment2_max (amsgrad),
// a learning-rate and a step tensor; outputs alias the inputs (an in-place update). The math
// and its rounding follow Skiff's CPU kernel: float arithmetic, bias corrections in double.
void fused_adamw(const Job& j) {
  const std::vector<SkiffTensor> params = j.arg(0), grads = j.arg(1), m1 = j.arg(2),
                                 m2 = j.arg(3), m2max = j.arg(4);
  const double lr = gather(j.arg(5)[0])[0];
  const double step = gather(j.arg(6)[0])[0];
  const double beta1 = static_cast<float>(j.f("beta1")), beta2 = static_cast<float>(j.f("beta2"));
  const float eps = static_cast<float>(j.f("epsilon"));
  const double wd = static_cast<float>(j.f("weight_decay"));
  const bool amsgrad = j.i("amsgrad");
  const float b1 = static_cast<float>(beta1), b2 = static_cast<float>(beta2);
  const float step_size = static_cast<float>(lr / (1.0 - std::pow(beta1, step)));
  const float inv_sqrt_bc2 = static_cast<float>(1.0 / std::sqrt(1.0 - std::pow(beta2, step)));
  const float decay = static_cast<float>(1.0 - lr * wd);
  const size_t n_params = params.size();
  for (size_t t = 0; t < n_params; ++t) {
    std::vector<double> p = gather(params[t]), g = gather(grads[t]), v1 = gather(m1[t]),
                        v2 = gather(m2[t]);
    std::vector<double> vmax = amsgrad ? gather(m2max[t]) : std::vector<double>();
    for (size_t i = 0; i < p.size(); ++i) {
      const float pv = static_cast<float>(p[i]), gv = static_cast<float>(g[i]);
      const float m = b1 * static_cast<float>(v1[i]) + (1.0f - b1) * gv;
      float v = b2 * static_cast<float>(v2[i]) + (1.0f - b2) * gv * gv;
      v1[i] = m;
      v2[i] = v;
      if (amsgrad) {
        v = std::max(v, static_cast<float>(vmax[i]));
        vmax[i] = v;
      }
      p[i] = pv * decay - step_size * m / (std::sqrt(v) * inv_sqrt_bc2 + eps);
    }
    scatter(j.out[t], p);
    scatter(j.out[n_params + t], v1);
    scatter(j.out[2 * n_params + t], v2);
    if (amsgrad) scatter(j.out[3 * n_params + t], vmax);
  }
}

SkiffStatus fused_adamw_entry(const SkiffKernelCall* c) {
  // The step and learning rate are read on the device when the update runs; a step < 1 is
  // an error of the call, which needs them now: drain the stream and read them.
  const SkiffTensor& step = c->inputs[c->input_begin[6]];
  stream_of(c->device_id, c->stream)->synchronize();
  if (gather(step)[0] < 1) return fail("fused_adamw_: argument 'step' expected a step number >= 1");
  return run(c, fused_adamw);
}

// ---- the table ------------------------------------------------------------------------------------
#define EMU_ENTRY(name) \
  SkiffStatus name##_entry(const SkiffKernelCall* c) { return run(c, name); }
EMU_ENTRY(add)
EMU_ENTRY(subtract)
EMU_ENTRY(multiply)
EMU_ENTRY(divide)
EMU_ENTRY(relu)
EMU_ENTRY(silu)
EMU_ENTRY(gelu)
EMU_ENTRY(softmax)
EMU_ENTRY(rms_norm)
EMU_ENTRY(mean)
#undef EMU_ENTRY

std::vector<SkiffKernelDef> make_defs() {
  std::vector<SkiffKernelDef> defs;
  const int floats[] = {SKIFF_FLOAT32, SKIFF_FLOAT16, SKIFF_BFLOAT16};
  const std::pair<const char*, SkiffKernelFn> all_floats[] = {
      {"matmul", matmul_entry},     {"add", add_entry},       {"subtract", subtract_entry},
      {"multiply", multiply_entry}, {"divide", divide_entry}, {"relu", relu_entry},
      {"gelu", gelu_entry},         {"silu", silu_entry},     {"softmax", softmax_entry},
      {"rms_norm", rms_norm_entry}, {"embedding", embedding_entry},
      {"sum", sum_entry},           {"mean", mean_entry},     {"cast", cast_entry},
  };
  for (const auto& [op, fn] : all_floats) {
    for (int d : floats) defs.push_back({op, d, SKIFF_LAYOUT_STRIDED, fn});
  }
  for (int d : {SKIFF_FLOAT32, SKIFF_BFLOAT16}) {
    defs.push_back({"fused_adamw_", d, SKIFF_LAYOUT_STRIDED, fused_adamw_entry});
  }
  return defs;
}

}  // namespace

const SkiffKernelDef* kernel_defs(uint32_t* count) {
  static const std::vector<SkiffKernelDef> defs = make_defs();
  *count = static_cast<uint32_t>(defs.size());
  return defs.data();
}

}  // namespace emu
