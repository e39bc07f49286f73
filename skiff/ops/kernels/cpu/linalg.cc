// CPU kernels of matmul, bmm, dot, outer, addmm and linear. GEMMs in float32 and bfloat16 run on
// oneDNN with the operands' own strides (transposes and broadcast batches are not copied);
// float16 computes through float32; float64 uses a cache-blocked loop; complex goes to BLAS
// cgemm/zgemm (complex_gemm.h).
#include "skiff/ops/generated/kernels/linalg.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "skiff/core/parallel.h"
#include "skiff/ops/generated/dense/elementwise.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/complex_gemm.h"
#include "skiff/ops/kernels/cpu/loops.h"
#include "skiff/ops/kernels/cpu/onednn.h"

namespace skiff::ops {

namespace {

DenseTensor view_as(const DenseTensor& t, const Dims& dims) {
  return t.as_strided(dims, contiguous_strides(dims), t.offset());
}

// Swaps the last two dims of a view.
DenseTensor transpose_last2(const DenseTensor& t) {
  Dims d = t.dims(), s = t.strides();
  const int r = d.size();
  std::swap(d[r - 1], d[r - 2]);
  std::swap(s[r - 1], s[r - 2]);
  return t.as_strided(d, s, t.offset());
}

// True when a [.., rows, cols] view has a unit stride in its last two dims (or they are
// trivially size 1), so a GEMM can read it in place.
bool gemm_readable(const DenseTensor& t) {
  const int r = t.rank();
  const int64_t rows = t.dim(r - 2), cols = t.dim(r - 1);
  const int64_t rs = t.strides()[r - 2], cs = t.strides()[r - 1];
  if (rows <= 1 && cols <= 1) return true;
  if (rows <= 1) return cs != 0;
  if (cols <= 1) return rs != 0;
  return (cs == 1 && rs >= cols) || (rs == 1 && cs >= rows);
}

// float64 GEMM on one [m, k] x [k, n] slice: packs b row-major, then blocked axpy rows.
void gemm_f64(int64_t m, int64_t n, int64_t k, const double* a, int64_t ars, int64_t acs,
              const double* b, int64_t brs, int64_t bcs, double* c, double alpha, double beta) {
  std::vector<double> bp(static_cast<size_t>(k * n));
  for (int64_t p = 0; p < k; ++p) {
    for (int64_t j = 0; j < n; ++j) bp[p * n + j] = b[p * brs + j * bcs];
  }
  constexpr int64_t kRowBlock = 16, kDepthBlock = 256;
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n * k, 1));
  parallel_for(0, (m + kRowBlock - 1) / kRowBlock, grain, [&](int64_t rb, int64_t re) {
    std::vector<double> acc(static_cast<size_t>(kRowBlock * n));
    cpu::run_best_isa([&] {
      for (int64_t blk = rb; blk < re; ++blk) {
        const int64_t i0 = blk * kRowBlock, i1 = std::min(m, i0 + kRowBlock);
        std::fill(acc.begin(), acc.end(), 0.0);
        for (int64_t p0 = 0; p0 < k; p0 += kDepthBlock) {
          const int64_t p1 = std::min(k, p0 + kDepthBlock);
          for (int64_t i = i0; i < i1; ++i) {
            double* ci = acc.data() + (i - i0) * n;
            for (int64_t p = p0; p < p1; ++p) {
              const double av = a[i * ars + p * acs];
              const double* bpp = bp.data() + p * n;
              for (int64_t j = 0; j < n; ++j) ci[j] += av * bpp[j];
            }
          }
        }
        for (int64_t i = i0; i < i1; ++i) {
          const double* ci = acc.data() + (i - i0) * n;
          double* co = c + i * n;
          for (int64_t j = 0; j < n; ++j) {
            co[j] = beta == 0.0 ? alpha * ci[j] : alpha * ci[j] + beta * co[j];
          }
        }
      }
    });
  });
}

struct Batch {
  Dims dims;     // collapsed batch dims
  Dims a, b, c;  // element strides per batch dim (0: broadcast)
};

// Broadcast batch strides of a [..., rows, cols] operand over `batch` dims.
Dims batch_strides(const DenseTensor& t, const Dims& batch) {
  const int nb = batch.size(), tb = t.rank() - 2;
  Dims s = Dims::filled(nb, 0);
  for (int i = 0; i < tb; ++i) {
    const int o = nb - tb + i;
    s[o] = t.dim(i) == 1 ? 0 : t.strides()[i];
  }
  return s;
}

// Drops size-1 batch dims and merges neighbours that are linear in every operand.
Batch collapse(const Dims& dims, const Dims& a, const Dims& b, const Dims& c) {
  Batch out;
  for (int i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) continue;
    const int last = out.dims.size() - 1;
    if (last >= 0 && out.a[last] == a[i] * dims[i] && out.b[last] == b[i] * dims[i] &&
        out.c[last] == c[i] * dims[i]) {
      out.dims[last] *= dims[i];
      out.a[last] = a[i], out.b[last] = b[i], out.c[last] = c[i];
      continue;
    }
    out.dims.push_back(dims[i]);
    out.a.push_back(a[i]);
    out.b.push_back(b[i]);
    out.c.push_back(c[i]);
  }
  return out;
}

// One GEMM call over a single (collapsed) batch dim.
template <typename T>
void gemm_batch(int64_t batch, int64_t m, int64_t n, int64_t k, const T* a, int64_t abs,
                int64_t ars, int64_t acs, const T* b, int64_t bbs, int64_t brs, int64_t bcs, T* c,
                float alpha, float beta) {
  if constexpr (std::is_same_v<T, double>) {
    for (int64_t i = 0; i < batch; ++i) {
      gemm_f64(m, n, k, a + i * abs, ars, acs, b + i * bbs, brs, bcs, c + i * m * n, alpha, beta);
    }
  } else {
    // Broadcast b over a batch whose a rows stack evenly: one taller GEMM.
    if (batch > 1 && bbs == 0 && abs == m * ars) {
      m *= batch;
      batch = 1;
    }
    const bool ok = cpu::onednn::gemm(dtype_v<T>, batch, m, n, k, {a, abs, ars, acs},
                                      {b, bbs, brs, bcs}, c, alpha, beta);
    SKIFF_ENFORCE(ok, kUnimplemented, "matmul", "dtype", "a dtype oneDNN supports here",
                  dtype_v<T>);
  }
}

bool onednn_supports(DType d) {
  static const bool bf16 = [] {
    const bfloat16 one(1.0f);
    bfloat16 out;
    return cpu::onednn::gemm(DType::kBFloat16, 1, 1, 1, 1, {&one, 1, 1, 1}, {&one, 1, 1, 1}, &out,
                             1.0f, 0.0f);
  }();
  return d == DType::kFloat32 || (d == DType::kBFloat16 && bf16);
}

}  // namespace

/// c = alpha * a @ b + beta * c over broadcast batch dims: a [..., m, k], b [..., k, n] (any
/// strides), c contiguous [batch..., m, n].
template <typename T>
void batched_matmul(const DenseTensor& a_in, const DenseTensor& b_in, DenseTensor& c, float alpha,
                    float beta) {
  if (c.numel() == 0) return;
  const int rc = c.rank();
  const int64_t m = c.dim(rc - 2), n = c.dim(rc - 1), k = a_in.dim(a_in.rank() - 1);
  if constexpr (!std::is_same_v<T, float> && !std::is_same_v<T, double>) {
    if (!onednn_supports(dtype_v<T>)) {  // float16 (and bf16 without oneDNN support): via fp32
      DenseTensor cf = beta == 0.0f ? DenseTensor::empty(c.dims(), DType::kFloat32)
                                    : dense::cast(c, DType::kFloat32);
      batched_matmul<float>(dense::cast(a_in, DType::kFloat32), dense::cast(b_in, DType::kFloat32),
                            cf, alpha, beta);
      c.copy_from(dense::cast(cf, dtype_v<T>));
      return;
    }
  }
  if (k == 0) {  // empty contraction: alpha * 0 + beta * c
    T* p = c.data<T>();
    for (int64_t i = 0; i < c.numel(); ++i) {
      using C = compute_t<T>;
      p[i] = static_cast<T>(beta == 0.0f ? C(0) : static_cast<C>(beta) * static_cast<C>(p[i]));
    }
    return;
  }
  const DenseTensor a = gemm_readable(a_in) ? a_in : a_in.contiguous();
  const DenseTensor b = gemm_readable(b_in) ? b_in : b_in.contiguous();
  Dims bd;
  for (int i = 0; i < rc - 2; ++i) bd.push_back(c.dim(i));
  const Batch bt = collapse(bd, batch_strides(a, bd), batch_strides(b, bd), batch_strides(c, bd));
  const int ra = a.rank(), rb = b.rank();
  const int64_t ars = a.strides()[ra - 2], acs = a.strides()[ra - 1];
  const int64_t brs = b.strides()[rb - 2], bcs = b.strides()[rb - 1];
  const T* ap = static_cast<const T*>(a.raw_data());
  const T* bp = static_cast<const T*>(b.raw_data());
  T* cp = static_cast<T*>(c.raw_data());
  const int nb = bt.dims.size();
  if (nb <= 1) {
    const int64_t batch = nb == 0 ? 1 : bt.dims[0];
    gemm_batch<T>(batch, m, n, k, ap, nb ? bt.a[0] : 0, ars, acs, bp, nb ? bt.b[0] : 0, brs, bcs,
                  cp, alpha, beta);
    return;
  }
  // Several batch dims that do not collapse: one GEMM call per outer index.
  Dims outer;
  for (int i = 0; i < nb - 1; ++i) outer.push_back(bt.dims[i]);
  std::vector<int64_t> idx(nb - 1, 0);
  for (int64_t o = 0; o < outer.numel(); ++o) {
    int64_t ao = 0, bo = 0, co = 0;
    for (int i = 0; i < nb - 1; ++i) {
      ao += idx[i] * bt.a[i], bo += idx[i] * bt.b[i], co += idx[i] * bt.c[i];
    }
    gemm_batch<T>(bt.dims[nb - 1], m, n, k, ap + ao, bt.a[nb - 1], ars, acs, bp + bo, bt.b[nb - 1],
                  brs, bcs, cp + co, alpha, beta);
    for (int d = nb - 2; d >= 0 && ++idx[d] == outer[d]; --d) idx[d] = 0;
  }
}

template <typename T>
void matmul_cpu(const KernelContext&, const MatmulArgs& args) {
  DenseTensor x = args.x, y = args.y;
  const bool x1 = x.rank() == 1, y1 = y.rank() == 1;
  if (x1)
    x = x.as_strided(Dims{1, x.dim(0)}, Dims{x.dim(0) * x.strides()[0], x.strides()[0]},
                     x.offset());
  if (y1) y = y.as_strided(Dims{y.dim(0), 1}, Dims{y.strides()[0], 1}, y.offset());
  if (args.transpose_x && !x1) x = transpose_last2(x);
  if (args.transpose_y && !y1) y = transpose_last2(y);
  // The output viewed with both matrix dims (1-D operands dropped one).
  Dims cd = args.out->dims();
  if (x1) cd.insert(cd.size() - (y1 ? 0 : 1), 1);
  if (y1) cd.push_back(1);
  DenseTensor c = view_as(*args.out, cd);
  if constexpr (is_complex_v<T>) {
    cpu::complex_gemm<T>(x, y, c);
  } else {
    batched_matmul<T>(x, y, c, 1.0f, 0.0f);
  }
}
SKIFF_INSTANTIATE_KERNEL(matmul, cpu)

template <typename T>
void bmm_cpu(const KernelContext&, const BmmArgs& args) {
  batched_matmul<T>(args.x, args.y, *args.out, 1.0f, 0.0f);
}
SKIFF_INSTANTIATE_KERNEL(bmm, cpu)

template <typename T>
void addmm_cpu(const KernelContext&, const AddmmArgs& args) {
  DenseTensor& out = *args.out;
  if (out.numel() == 0) return;
  const DenseTensor& in = args.input;
  out.copy_from(in.as_strided(out.dims(), cpu::broadcast_strides(in, out.dims()), in.offset()));
  batched_matmul<T>(args.x, args.y, out, args.alpha, args.beta);
}
SKIFF_INSTANTIATE_KERNEL(addmm, cpu)

template <typename T>
void linear_cpu(const KernelContext&, const LinearArgs& args) {
  DenseTensor& out = *args.out;
  if (out.numel() == 0) return;
  const int64_t k = args.weight.dim(0), n = args.weight.dim(1);
  const int64_t rows = out.numel() / n;
  // x as [rows, k]: a view when its leading dims merge, else a copy.
  const DenseTensor& x = args.x;
  bool mergeable = true;
  for (int i = 0; i + 2 < x.rank(); ++i) {
    if (x.dim(i) != 1 && x.strides()[i] != x.strides()[i + 1] * x.dim(i + 1)) mergeable = false;
  }
  const int r = x.rank();
  const int64_t rs = r >= 2 ? x.strides()[r - 2] : k * x.strides()[0];
  const DenseTensor x2 = mergeable
                             ? x.as_strided(Dims{rows, k}, Dims{rs, x.strides()[r - 1]}, x.offset())
                             : view_as(x.contiguous(), Dims{rows, k});
  DenseTensor c = view_as(out, Dims{rows, n});
  float beta = 0.0f;
  if (args.bias) {
    const DenseTensor& b = *args.bias;
    c.copy_from(b.as_strided(Dims{rows, n}, Dims{0, b.strides()[0]}, b.offset()));
    beta = 1.0f;
  }
  batched_matmul<T>(x2, args.weight, c, 1.0f, beta);
}
SKIFF_INSTANTIATE_KERNEL(linear, cpu)

namespace {
// Sum of x[i] * y[i]: integers in int64 (wrapping like T), floats in double.
template <typename T>
T dot_run(int64_t n, const T* x, int64_t xs, const T* y, int64_t ys) {
  if constexpr (std::is_integral_v<T>) {
    int64_t s = 0;
    for (int64_t i = 0; i < n; ++i) {
      s += static_cast<int64_t>(x[i * xs]) * static_cast<int64_t>(y[i * ys]);
    }
    return static_cast<T>(s);
  } else {
    constexpr int kLanes = 8;
    double acc[kLanes] = {};
    int64_t i = 0;
    if (xs == 1 && ys == 1) {
      for (; i + kLanes <= n; i += kLanes) {
        for (int l = 0; l < kLanes; ++l) {
          acc[l] += static_cast<double>(static_cast<compute_t<T>>(x[i + l])) *
                    static_cast<double>(static_cast<compute_t<T>>(y[i + l]));
        }
      }
    }
    for (; i < n; ++i) {
      acc[0] += static_cast<double>(static_cast<compute_t<T>>(x[i * xs])) *
                static_cast<double>(static_cast<compute_t<T>>(y[i * ys]));
    }
    double s = 0;
    for (double v : acc) s += v;
    return static_cast<T>(static_cast<compute_t<T>>(s));
  }
}
}  // namespace

template <typename T>
void dot_cpu(const KernelContext&, const DotArgs& args) {
  const DenseTensor &x = args.x, &y = args.y;
  T* out = args.out->data<T>();
  const T* xp = static_cast<const T*>(x.raw_data());
  const T* yp = static_cast<const T*>(y.raw_data());
  const int r = x.rank();
  const int64_t n = x.dim(r - 1), xs = x.strides()[r - 1], ys = y.strides()[r - 1];
  if (r == 1) {
    out[0] = dot_run<T>(n, xp, xs, yp, ys);
    return;
  }
  const int64_t xr = x.strides()[0], yr = y.strides()[0];
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1));
  parallel_for(0, x.dim(0), grain, [&](int64_t b, int64_t e) {
    cpu::run_best_isa([&] {
      for (int64_t i = b; i < e; ++i) out[i] = dot_run<T>(n, xp + i * xr, xs, yp + i * yr, ys);
    });
  });
}
SKIFF_INSTANTIATE_KERNEL(dot, cpu)

template <typename T>
void outer_cpu(const KernelContext&, const OuterArgs& args) {
  const DenseTensor x = args.x.contiguous(), y = args.y.contiguous();
  const int64_t m = x.numel(), n = y.numel();
  const T* xp = static_cast<const T*>(x.raw_data());
  const T* yp = static_cast<const T*>(y.raw_data());
  T* out = args.out->data<T>();
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1));
  parallel_for(0, m, grain, [&](int64_t b, int64_t e) {
    cpu::run_best_isa([&] {
      for (int64_t i = b; i < e; ++i) {
        if constexpr (std::is_integral_v<T>) {
          const int64_t xv = xp[i];
          for (int64_t j = 0; j < n; ++j) out[i * n + j] = static_cast<T>(xv * yp[j]);
        } else {
          const compute_t<T> xv = xp[i];
          for (int64_t j = 0; j < n; ++j) {
            out[i * n + j] = static_cast<T>(xv * static_cast<compute_t<T>>(yp[j]));
          }
        }
      }
    });
  });
}
SKIFF_INSTANTIATE_KERNEL(outer, cpu)

}  // namespace skiff::ops
