// Reference kernels of flash_attn and flash_attn_grad: float64, serial, the textbook formulas
// with a full row of scores per query (no tiling, no online softmax), so they check the CPU
// kernels' tiling, masking and recomputation independently. The backward takes out and
// softmax_lse as given (P = exp(scale q.k - lse), delta = rowsum(out_grad * out)), as the fused
// kernel's definition, so the consistency check holds for any inputs.
#include "skiff/ops/generated/kernels/attention.h"

#include <cmath>
#include <limits>
#include <vector>

#include "skiff/ops/kernel.h"

namespace skiff::ops {

namespace {

struct Shape {
  int64_t b, sq, sk, h, hk, d;
};

Shape shape_of(const DenseTensor& q, const DenseTensor& k) {
  return {q.dim(0), q.dim(1), k.dim(1), q.dim(2), k.dim(2), q.dim(3)};
}

// Offset of element (b, s, h, 0) of a contiguous [B, S, H, D] tensor.
int64_t row(int64_t b, int64_t s, int64_t h, int64_t seq, int64_t heads, int64_t d) {
  return ((b * seq + s) * heads + h) * d;
}

void refuse_training_dropout(const char* op, float dropout, bool is_test) {
  SKIFF_ENFORCE(dropout == 0.0f || is_test, kUnimplemented, op, "dropout",
                "0 or is_test (dropout in training is composed in Python, not fused)", dropout);
}

// Probabilities of one query row: p[j] = softmax_j(scale * q.k_j) over the unmasked keys;
// returns the log-sum-exp (-inf when no key is visible, p all zero).
double probs_row(const double* q, const double* k, const Shape& s, int64_t bi, int64_t hki,
                 int64_t i, bool causal, double scale, std::vector<double>& p) {
  const double inf = std::numeric_limits<double>::infinity();
  const int64_t last = causal ? i + s.sk - s.sq : s.sk - 1;  // last visible key
  double m = -inf;
  for (int64_t j = 0; j < s.sk; ++j) {
    p[j] = -inf;
    if (j > last) continue;
    const double* kj = k + row(bi, j, hki, s.sk, s.hk, s.d);
    double dot = 0;
    for (int64_t c = 0; c < s.d; ++c) dot += q[c] * kj[c];
    p[j] = dot * scale;
    m = std::max(m, p[j]);
  }
  if (m == -inf) {
    for (auto& x : p) x = 0;
    return -inf;
  }
  double l = 0;
  for (int64_t j = 0; j < s.sk; ++j) l += (p[j] = std::exp(p[j] - m));
  for (auto& x : p) x /= l;
  return m + std::log(l);
}

}  // namespace

template <typename T>
void flash_attn_reference(const KernelContext& ctx, const FlashAttnArgs& a) {
  refuse_training_dropout(ctx.op, a.dropout, a.is_test);
  const DenseTensor q = a.q.contiguous(), k = a.k.contiguous(), v = a.v.contiguous();
  const Shape s = shape_of(q, k);
  const double scale = 1.0 / std::sqrt(static_cast<double>(s.d));
  const T* pq = q.data<T>();
  const T* pk = k.data<T>();
  const T* pv = v.data<T>();
  T* po = a.out->data<T>();
  float* lse = a.softmax_lse->data<float>();
  T* psm = a.return_softmax ? a.softmax->data<T>() : nullptr;
  std::vector<double> p(s.sk);
  for (int64_t bi = 0; bi < s.b; ++bi) {
    for (int64_t hi = 0; hi < s.h; ++hi) {
      const int64_t hki = hi / (s.h / s.hk);
      for (int64_t i = 0; i < s.sq; ++i) {
        const double* qi = pq + row(bi, i, hi, s.sq, s.h, s.d);
        lse[(bi * s.h + hi) * s.sq + i] =
            static_cast<float>(probs_row(qi, pk, s, bi, hki, i, a.causal, scale, p));
        T* oi = po + row(bi, i, hi, s.sq, s.h, s.d);
        for (int64_t c = 0; c < s.d; ++c) oi[c] = 0;
        for (int64_t j = 0; j < s.sk; ++j) {
          const T* vj = pv + row(bi, j, hki, s.sk, s.hk, s.d);
          for (int64_t c = 0; c < s.d; ++c) oi[c] += p[j] * vj[c];
        }
        if (psm) {
          for (int64_t j = 0; j < s.sk; ++j) psm[((bi * s.h + hi) * s.sq + i) * s.sk + j] = p[j];
        }
      }
    }
  }
  int64_t* so = a.seed_offset->data<int64_t>();
  so[0] = so[1] = 0;
}

template <typename T>
void flash_attn_grad_reference(const KernelContext& ctx, const FlashAttnGradArgs& a) {
  refuse_training_dropout(ctx.op, a.dropout, false);
  const DenseTensor q = a.q.contiguous(), k = a.k.contiguous(), v = a.v.contiguous();
  const DenseTensor go = a.out_grad.contiguous(), out = a.out.contiguous();
  const DenseTensor lse_t = a.softmax_lse.contiguous();
  const bool lse64 = lse_t.dtype() == DType::kFloat64;
  const Shape s = shape_of(q, k);
  const double scale = 1.0 / std::sqrt(static_cast<double>(s.d));
  const T* pq = q.data<T>();
  const T* pk = k.data<T>();
  const T* pv = v.data<T>();
  const T* pg = go.data<T>();
  const T* po = out.data<T>();
  T* dq = a.q_grad->data<T>();
  T* dk = a.k_grad->data<T>();
  T* dv = a.v_grad->data<T>();
  for (int64_t n = 0; n < a.q_grad->numel(); ++n) dq[n] = 0;
  for (int64_t n = 0; n < a.k_grad->numel(); ++n) dk[n] = dv[n] = 0;
  std::vector<double> p(s.sk), dp(s.sk);
  for (int64_t bi = 0; bi < s.b; ++bi) {
    for (int64_t hi = 0; hi < s.h; ++hi) {
      const int64_t hki = hi / (s.h / s.hk);
      for (int64_t i = 0; i < s.sq; ++i) {
        const int64_t qrow = row(bi, i, hi, s.sq, s.h, s.d);
        const int64_t li = (bi * s.h + hi) * s.sq + i;
        const double lse = lse64 ? lse_t.data<double>()[li] : lse_t.data<float>()[li];
        const int64_t last = a.causal ? i + s.sk - s.sq : s.sk - 1;
        const T* gi = pg + qrow;
        double delta = 0;  // rowsum(out_grad * out)
        for (int64_t c = 0; c < s.d; ++c) delta += gi[c] * po[qrow + c];
        for (int64_t j = 0; j < s.sk; ++j) {
          const int64_t krow = row(bi, j, hki, s.sk, s.hk, s.d);
          double dot = 0;
          for (int64_t c = 0; c < s.d; ++c) dot += pq[qrow + c] * pk[krow + c];
          p[j] = (j > last || std::isinf(lse)) ? 0.0 : std::exp(dot * scale - lse);
          dot = 0;
          for (int64_t c = 0; c < s.d; ++c) {
            dot += gi[c] * pv[krow + c];
            dv[krow + c] += p[j] * gi[c];
          }
          dp[j] = dot;
        }
        for (int64_t j = 0; j < s.sk; ++j) {
          const double ds = p[j] * (dp[j] - delta) * scale;
          if (ds == 0) continue;
          const int64_t krow = row(bi, j, hki, s.sk, s.hk, s.d);
          for (int64_t c = 0; c < s.d; ++c) {
            dq[qrow + c] += ds * pk[krow + c];
            dk[krow + c] += ds * pq[qrow + c];
          }
        }
      }
    }
  }
}

SKIFF_INSTANTIATE_KERNEL(flash_attn, reference)
SKIFF_INSTANTIATE_KERNEL(flash_attn_grad, reference)

}  // namespace skiff::ops
