// CPU kernels of flash_attn and flash_attn_grad: FlashAttention-2 tiling in float32 (16-bit
// inputs are widened while packing, results rounded once).
//
// Design: k and v of each (batch, key head) are packed once into float32 tiles: K^T and V^T
// as [key block][head_dim][kBc] (the score GEMMs read a row of 16 keys as one vector) and K, V
// as rows [key][head_dim]; head_dim is padded to a multiple of 16 with zeros, keys to a multiple
// of kBc (masked). The forward then walks query blocks of kBr rows (work items over batch x
// heads x query blocks, taken from an atomic counter so causal blocks of different cost balance
// across threads; each item is computed alone, so results do not depend on the split), keeps O, the row maximum and the row sum in float32 and never stores a
// seqlen x seqlen matrix: extra memory is the packed copies, O(seqlen * head_dim).
// softmax_lse (natural log) is what the backward needs: it recomputes P tile by tile. The
// backward's work items are (batch, key head, key block): each owns its dK and dV tile across
// the query heads of its group, and adds dQ into a float32 buffer of its slot (a fixed
// interleaved split of the items), summed in slot order at the end. Tiles run through attention_tiles.inc, compiled for AVX-512 (intrinsics), AVX2 and the
// baseline; cpu_isa() picks one at run time.
#include "skiff/ops/generated/kernels/attention.h"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <vector>

#include "skiff/core/parallel.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/isa.h"

namespace skiff::ops {

namespace {

namespace flash {

constexpr int64_t kBr = 64;  // query rows per block
constexpr int64_t kBc = 64;  // keys per tile
constexpr int64_t kLanes = 16;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kLog2e = 1.4426950408889634f;
constexpr float kLn2 = 0.6931471805599453f;

int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

struct Geometry {
  int64_t b, sq, sk, h, hk, d, dp, group, nqb, nkb, skp, sqp;
  int64_t offset;  // sk - sq: query i sees keys j <= i + offset when causal
  bool causal;
  float scale;

  Geometry(const DenseTensor& q, const DenseTensor& k, bool is_causal)
      : b(q.dim(0)), sq(q.dim(1)), sk(k.dim(1)), h(q.dim(2)), hk(k.dim(2)), d(q.dim(3)),
        dp(round_up(d, kLanes)), group(h / hk), nqb((sq + kBr - 1) / kBr),
        nkb((sk + kBc - 1) / kBc), skp(nkb * kBc), sqp(nqb * kBr), offset(sk - sq),
        causal(is_causal), scale(static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)))) {}

  // Key tiles a block of rows [i0, i0 + rows) visits: all, or up to its last row's diagonal.
  int64_t key_blocks_for(int64_t i0, int64_t rows) const {
    if (!causal) return nkb;
    const int64_t last = i0 + rows - 1 + offset;
    return last < 0 ? 0 : std::min(nkb, last / kBc + 1);
  }
  // First query block that sees a key of the tile starting at j0.
  int64_t first_query_block(int64_t j0) const {
    if (!causal) return 0;
    return std::min(nqb, std::max<int64_t>(0, j0 - offset) / kBr);
  }
  // -inf on the keys of a [rows x kBc] score tile that a row must not see: past the causal
  // diagonal or past seqlen_k (padding). Tiles entirely inside are left alone.
  void mask_tile(float* s, int64_t i0, int64_t rows, int64_t j0) const {
    const bool pad = j0 + kBc > sk;
    const bool diag = causal && j0 + kBc - 1 > i0 + offset;
    if (!pad && !diag) return;
    for (int64_t r = 0; r < rows; ++r) {
      int64_t last = sk - 1;
      if (causal) last = std::min(last, i0 + r + offset);
      for (int64_t j = std::max<int64_t>(0, last + 1 - j0); j < kBc; ++j) s[r * kBc + j] = -kInf;
    }
  }
};

struct Engine {
  void (*forward_block)(const Geometry&, const float*, int64_t, int64_t, const float*,
                        const float*, float*, float*, float*, float*);
  void (*softmax_block)(const Geometry&, const float*, int64_t, int64_t, const float*,
                        const float*, float*, float*, int64_t);
  void (*backward_tile)(const Geometry&, const float*, const float*, const float*, const float*,
                        int64_t, int64_t, int64_t, const float*, const float*, const float*,
                        float*, float*, float*, float*, float*, float*);
};

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma")
namespace avx512 {
struct Vec {
  __m512 v;
};
inline Vec vload(const float* p) { return {_mm512_loadu_ps(p)}; }
inline void vstore(float* p, Vec a) { _mm512_storeu_ps(p, a.v); }
inline Vec vset1(float x) { return {_mm512_set1_ps(x)}; }
inline Vec vzero() { return {_mm512_setzero_ps()}; }
inline Vec vfma(Vec a, Vec b, Vec c) { return {_mm512_fmadd_ps(a.v, b.v, c.v)}; }
inline Vec vadd(Vec a, Vec b) { return {_mm512_add_ps(a.v, b.v)}; }
inline Vec vsub(Vec a, Vec b) { return {_mm512_sub_ps(a.v, b.v)}; }
inline Vec vmul(Vec a, Vec b) { return {_mm512_mul_ps(a.v, b.v)}; }
inline Vec vmax(Vec a, Vec b) { return {_mm512_max_ps(a.v, b.v)}; }
inline float vreduce_max(Vec a) { return _mm512_reduce_max_ps(a.v); }
inline float vreduce_add(Vec a) { return _mm512_reduce_add_ps(a.v); }
// 2^x: 2^round(x) * 2^f with f in [-1/2, 1/2] by the degree-6 Taylor polynomial of e^(f ln 2)
// (relative error below 3e-8); exactly 0 below -126 (and for -inf).
inline Vec vexp2(Vec a) {
  const __m512 x = _mm512_max_ps(a.v, _mm512_set1_ps(-127.0f));
  const __m512 n = _mm512_roundscale_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m512 f = _mm512_sub_ps(x, n);
  __m512 p = _mm512_set1_ps(1.5403530393381608e-4f);
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(1.3333558146428443e-3f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(9.6181291076284772e-3f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(5.5504108664821580e-2f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(2.4022650695910071e-1f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(6.9314718055994531e-1f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(1.0f));
  const __mmask16 keep = _mm512_cmp_ps_mask(a.v, _mm512_set1_ps(-126.0f), _CMP_GE_OQ);
  return {_mm512_maskz_mov_ps(keep, _mm512_scalef_ps(p, n))};
}
#include "skiff/ops/kernels/cpu/attention_tiles.inc"
}  // namespace avx512
#pragma GCC pop_options

// Plain 16-float arrays: the compiler vectorizes the lane loops for the target of the region.
#define SKIFF_ATTENTION_PORTABLE_VEC                                                          \
  struct Vec {                                                                                \
    float v[kLanes];                                                                          \
  };                                                                                          \
  inline Vec vload(const float* p) {                                                          \
    Vec r;                                                                                    \
    for (int i = 0; i < kLanes; ++i) r.v[i] = p[i];                                           \
    return r;                                                                                 \
  }                                                                                           \
  inline void vstore(float* p, const Vec& a) {                                                \
    for (int i = 0; i < kLanes; ++i) p[i] = a.v[i];                                           \
  }                                                                                           \
  inline Vec vset1(float x) {                                                                 \
    Vec r;                                                                                    \
    for (int i = 0; i < kLanes; ++i) r.v[i] = x;                                              \
    return r;                                                                                 \
  }                                                                                           \
  inline Vec vzero() { return vset1(0.0f); }                                                  \
  inline Vec vfma(const Vec& a, const Vec& b, const Vec& c) {                                 \
    Vec r;                                                                                    \
    for (int i = 0; i < kLanes; ++i) r.v[i] = a.v[i] * b.v[i] + c.v[i];                      \
    return r;                                                                                 \
  }                                                                                           \
  inline Vec vadd(const Vec& a, const Vec& b) {                                               \
    Vec r;                                                                                    \
    for (int i = 0; i < kLanes; ++i) r.v[i] = a.v[i] + b.v[i];                                \
    return r;                                                                                 \
  }                                                                                           \
  inline Vec vsub(const Vec& a, const Vec& b) {                                               \
    Vec r;                                                                                    \
    for (int i = 0; i < kLanes; ++i) r.v[i] = a.v[i] - b.v[i];                                \
    return r;                                                                                 \
  }                                                                                           \
  inline Vec vmul(const Vec& a, const Vec& b) {                                               \
    Vec r;                                                                                    \
    for (int i = 0; i < kLanes; ++i) r.v[i] = a.v[i] * b.v[i];                                \
    return r;                                                                                 \
  }                                                                                           \
  inline Vec vmax(const Vec& a, const Vec& b) {                                               \
    Vec r;                                                                                    \
    for (int i = 0; i < kLanes; ++i) r.v[i] = std::max(a.v[i], b.v[i]);                       \
    return r;                                                                                 \
  }                                                                                           \
  inline float vreduce_max(const Vec& a) {                                                    \
    float m = a.v[0];                                                                         \
    for (int i = 1; i < kLanes; ++i) m = std::max(m, a.v[i]);                                 \
    return m;                                                                                 \
  }                                                                                           \
  inline float vreduce_add(const Vec& a) {                                                    \
    float s = 0;                                                                              \
    for (int i = 0; i < kLanes; ++i) s += a.v[i];                                             \
    return s;                                                                                 \
  }                                                                                           \
  inline Vec vexp2(const Vec& a) {                                                            \
    Vec r;                                                                                    \
    for (int i = 0; i < kLanes; ++i) r.v[i] = a.v[i] < -126.0f ? 0.0f : std::exp2(a.v[i]);    \
    return r;                                                                                 \
  }

#pragma GCC push_options
#pragma GCC target("avx2,fma")
namespace avx2 {
SKIFF_ATTENTION_PORTABLE_VEC
#include "skiff/ops/kernels/cpu/attention_tiles.inc"
}  // namespace avx2
#pragma GCC pop_options

namespace portable {
SKIFF_ATTENTION_PORTABLE_VEC
#include "skiff/ops/kernels/cpu/attention_tiles.inc"
}  // namespace portable
#undef SKIFF_ATTENTION_PORTABLE_VEC

Engine engine_for_cpu() {
  switch (cpu::cpu_isa()) {
    case cpu::CpuIsa::kAvx512:
      return avx512::engine();
    case cpu::CpuIsa::kAvx2:
      return avx2::engine();
    case cpu::CpuIsa::kDefault:
      break;
  }
  return portable::engine();
}

DenseTensor scratch(int64_t n) { return DenseTensor::empty(Dims{n}, DType::kFloat32); }

// Packs k of every (batch, key head) as K^T tiles [nkb][dp][kBc] (transposed) and/or rows
// [skp][dp] (either pointer may be null); padding is zero.
template <typename T>
void pack_keys(const Geometry& g, const T* src, float* tiles, float* rows) {
  const int64_t heads = g.b * g.hk;
  parallel_for(0, heads * g.nkb, 1, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t bh = t / g.nkb, kb = t % g.nkb, bi = bh / g.hk, hki = bh % g.hk;
      float* tile = tiles ? tiles + (bh * g.nkb + kb) * g.dp * kBc : nullptr;
      float* row0 = rows ? rows + (bh * g.skp + kb * kBc) * g.dp : nullptr;
      if (tile) std::fill(tile, tile + g.dp * kBc, 0.0f);
      if (row0) std::fill(row0, row0 + kBc * g.dp, 0.0f);
      for (int64_t jj = 0; jj < kBc && kb * kBc + jj < g.sk; ++jj) {
        const T* s = src + ((bi * g.sk + kb * kBc + jj) * g.hk + hki) * g.d;
        for (int64_t c = 0; c < g.d; ++c) {
          const float x = static_cast<float>(s[c]);
          if (tile) tile[c * kBc + jj] = x;
          if (row0) row0[jj * g.dp + c] = x;
        }
      }
    }
  });
}

// Rows [i0, i0 + rows) of head (bi, hi) of a [B, S, H, D] tensor as float32 [rows][dp] times
// `mul` (zero padding).
template <typename T>
void pack_rows(const Geometry& g, const T* src, int64_t bi, int64_t hi, int64_t i0, int64_t rows,
               float mul, float* dst) {
  std::fill(dst, dst + kBr * g.dp, 0.0f);
  for (int64_t r = 0; r < rows; ++r) {
    const T* s = src + ((bi * g.sq + i0 + r) * g.h + hi) * g.d;
    for (int64_t c = 0; c < g.d; ++c) dst[r * g.dp + c] = static_cast<float>(s[c]) * mul;
  }
}

int64_t work_threads(int64_t items) { return std::max<int64_t>(1, std::min<int64_t>(num_threads(), items)); }

}  // namespace flash

void refuse_training_dropout(const char* op, float dropout, bool is_test) {
  SKIFF_ENFORCE(dropout == 0.0f || is_test, kUnimplemented, op, "dropout",
                "0 or is_test (dropout in training is composed in Python, not fused)", dropout);
}

}  // namespace

template <typename T>
void flash_attn_cpu(const KernelContext& ctx, const FlashAttnArgs& a) {
  using namespace flash;
  refuse_training_dropout(ctx.op, a.dropout, a.is_test);
  int64_t* so = a.seed_offset->data<int64_t>();
  so[0] = so[1] = 0;
  if (a.fixed_seed_offset) {
    const DenseTensor fso = a.fixed_seed_offset->contiguous();
    so[0] = fso.data<int64_t>()[0], so[1] = fso.data<int64_t>()[1];
  }
  const DenseTensor q = a.q.contiguous(), k = a.k.contiguous(), v = a.v.contiguous();
  const Geometry g(q, k, a.causal);
  if (g.b * g.h * g.sq == 0) return;
  DenseTensor kt = scratch(g.b * g.hk * g.nkb * g.dp * kBc), vr = scratch(g.b * g.hk * g.skp * g.dp);
  pack_keys<T>(g, k.data<T>(), kt.data<float>(), nullptr);
  pack_keys<T>(g, v.data<T>(), nullptr, vr.data<float>());
  const Engine e = engine_for_cpu();
  const T* pq = q.data<T>();
  T* po = a.out->data<T>();
  float* lse = a.softmax_lse->data<float>();
  T* psm = a.return_softmax ? a.softmax->data<T>() : nullptr;
  const int64_t heads = g.b * g.h, items = heads * g.nqb;
  const int64_t threads = work_threads(items);
  std::atomic<int64_t> next{0};
  parallel_for(0, threads, 1, [&](int64_t, int64_t) {
    std::vector<float> qs(kBr * g.dp), s(kBr * kBc), o(kBr * g.dp), m(kBr), l(kBr), lse2(kBr);
    std::vector<float> probs(psm ? kBr * g.skp : 0);
    for (int64_t t; (t = next.fetch_add(1)) < items;) {
      // Heaviest (last, under causal) query blocks first.
      const int64_t qb = g.nqb - 1 - t / heads, bh = t % heads;
      const int64_t bi = bh / g.h, hi = bh % g.h, hki = hi / g.group;
      const int64_t i0 = qb * kBr, rows = std::min(kBr, g.sq - i0);
      pack_rows<T>(g, pq, bi, hi, i0, rows, g.scale * kLog2e, qs.data());
      const float* ktile = kt.data<float>() + (bi * g.hk + hki) * g.nkb * g.dp * kBc;
      e.forward_block(g, qs.data(), i0, rows, ktile,
                      vr.data<float>() + (bi * g.hk + hki) * g.skp * g.dp, s.data(), o.data(),
                      m.data(), l.data());
      for (int64_t r = 0; r < rows; ++r) {
        const float inv = l[r] > 0 ? 1.0f / l[r] : 0.0f;
        T* out_row = po + ((bi * g.sq + i0 + r) * g.h + hi) * g.d;
        for (int64_t c = 0; c < g.d; ++c) out_row[c] = static_cast<T>(o[r * g.dp + c] * inv);
        lse2[r] = l[r] > 0 ? m[r] + std::log2(l[r]) : kInf;
        lse[bh * g.sq + i0 + r] = l[r] > 0 ? lse2[r] * kLn2 : -kInf;
      }
      if (psm) {
        e.softmax_block(g, qs.data(), i0, rows, ktile, lse2.data(), s.data(), probs.data(), g.skp);
        for (int64_t r = 0; r < rows; ++r) {
          T* dst = psm + (bh * g.sq + i0 + r) * g.sk;
          for (int64_t j = 0; j < g.sk; ++j) dst[j] = static_cast<T>(probs[r * g.skp + j]);
        }
      }
    }
  });
}

template <typename T>
void flash_attn_grad_cpu(const KernelContext& ctx, const FlashAttnGradArgs& a) {
  using namespace flash;
  refuse_training_dropout(ctx.op, a.dropout, false);
  const DenseTensor q = a.q.contiguous(), k = a.k.contiguous(), v = a.v.contiguous();
  const DenseTensor out = a.out.contiguous(), dout = a.out_grad.contiguous();
  const DenseTensor lse = a.softmax_lse.contiguous();
  const Geometry g(q, k, a.causal);
  const int64_t heads = g.b * g.h, kheads = g.b * g.hk;
  // Per query row: q pre-scaled, dO, lse in log2 units (+inf: no visible key, or padding, so
  // P = 0), delta = rowsum(dO * O).
  DenseTensor qs = scratch(heads * g.sqp * g.dp), dos = scratch(heads * g.sqp * g.dp);
  DenseTensor lse2 = scratch(heads * g.sqp), delta = scratch(heads * g.sqp);
  const T* pq = q.data<T>();
  const T* pout = out.data<T>();
  const T* pdo = dout.data<T>();
  const float* plse = lse.data<float>();
  parallel_for(0, heads * g.nqb, 1, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t bh = t / g.nqb, qb = t % g.nqb, bi = bh / g.h, hi = bh % g.h;
      const int64_t i0 = qb * kBr, rows = std::min(kBr, g.sq - i0), at = bh * g.sqp + i0;
      pack_rows<T>(g, pq, bi, hi, i0, rows, g.scale * kLog2e, qs.data<float>() + at * g.dp);
      pack_rows<T>(g, pdo, bi, hi, i0, rows, 1.0f, dos.data<float>() + at * g.dp);
      for (int64_t r = 0; r < kBr; ++r) {
        float l2 = kInf, dl = 0;
        if (r < rows) {
          const float x = plse[bh * g.sq + i0 + r];
          if (x != -kInf) l2 = x * kLog2e;
          const T* orow = pout + ((bi * g.sq + i0 + r) * g.h + hi) * g.d;
          const float* drow = dos.data<float>() + (at + r) * g.dp;
          for (int64_t c = 0; c < g.d; ++c) dl += drow[c] * static_cast<float>(orow[c]);
        }
        lse2.data<float>()[at + r] = l2;
        delta.data<float>()[at + r] = dl;
      }
    }
  });
  const int64_t tile = g.dp * kBc;
  DenseTensor kt = scratch(kheads * g.nkb * tile), vt = scratch(kheads * g.nkb * tile);
  DenseTensor kr = scratch(kheads * g.skp * g.dp);
  pack_keys<T>(g, k.data<T>(), kt.data<float>(), kr.data<float>());
  pack_keys<T>(g, v.data<T>(), vt.data<float>(), nullptr);
  const int64_t items = kheads * g.nkb;
  const int64_t threads = work_threads(items);
  const int64_t qsize = heads * g.sqp * g.dp;
  DenseTensor dq_parts = scratch(threads * qsize);
  const Engine e = engine_for_cpu();
  T* pdk = a.k_grad->data<T>();
  T* pdv = a.v_grad->data<T>();
  // Slot w takes items w, w + threads, ... (a fixed split, so dQ's sums are the same in every
  // run: captured programs and eager agree bit for bit); a thread may run several slots.
  parallel_for(0, threads, 1, [&](int64_t w0, int64_t w1) {
    std::vector<float> p(kBr * kBc), dp(kBr * kBc), pt(kBc * kBr), dk(kBc * g.dp), dv(kBc * g.dp);
    for (int64_t w = w0; w < w1; ++w) {
    float* dq = dq_parts.data<float>() + w * qsize;
    std::fill(dq, dq + qsize, 0.0f);
    for (int64_t t = w; t < items; t += threads) {
      // Under causal the first key tiles see the most query blocks: those first.
      const int64_t kb = t / kheads, bhk = t % kheads, bi = bhk / g.hk, hki = bhk % g.hk;
      const int64_t j0 = kb * kBc;
      std::fill(dk.begin(), dk.end(), 0.0f);
      std::fill(dv.begin(), dv.end(), 0.0f);
      const float* ktile = kt.data<float>() + (bhk * g.nkb + kb) * tile;
      const float* vtile = vt.data<float>() + (bhk * g.nkb + kb) * tile;
      const float* krows = kr.data<float>() + (bhk * g.skp + j0) * g.dp;
      for (int64_t hi = hki * g.group; hi < (hki + 1) * g.group; ++hi) {
        const int64_t bh = bi * g.h + hi;
        for (int64_t qb = g.first_query_block(j0); qb < g.nqb; ++qb) {
          const int64_t i0 = qb * kBr, rows = std::min(kBr, g.sq - i0), at = bh * g.sqp + i0;
          e.backward_tile(g, qs.data<float>() + at * g.dp, dos.data<float>() + at * g.dp,
                          lse2.data<float>() + at, delta.data<float>() + at, i0, rows, j0, ktile,
                          vtile, krows, p.data(), dp.data(), pt.data(), dq + at * g.dp, dk.data(),
                          dv.data());
        }
      }
      // dK = scale * dS^T Q = dS^T (q * scale * log2e) / log2e.
      for (int64_t jj = 0; jj < kBc && j0 + jj < g.sk; ++jj) {
        const int64_t at = ((bi * g.sk + j0 + jj) * g.hk + hki) * g.d;
        for (int64_t c = 0; c < g.d; ++c) {
          pdk[at + c] = static_cast<T>(dk[jj * g.dp + c] * (1.0f / kLog2e));
          pdv[at + c] = static_cast<T>(dv[jj * g.dp + c]);
        }
      }
    }
    }
  });
  T* pdq = a.q_grad->data<T>();
  parallel_for(0, heads * g.sq, 256, [&](int64_t r0, int64_t r1) {
    for (int64_t rr = r0; rr < r1; ++rr) {
      const int64_t bh = rr / g.sq, i = rr % g.sq, bi = bh / g.h, hi = bh % g.h;
      T* dst = pdq + ((bi * g.sq + i) * g.h + hi) * g.d;
      for (int64_t c = 0; c < g.d; ++c) {
        float sum = 0;
        for (int64_t w = 0; w < threads; ++w) {
          sum += dq_parts.data<float>()[w * qsize + (bh * g.sqp + i) * g.dp + c];
        }
        dst[c] = static_cast<T>(sum * g.scale);
      }
    }
  });
}

SKIFF_INSTANTIATE_KERNEL(flash_attn, cpu)
SKIFF_INSTANTIATE_KERNEL(flash_attn_grad, cpu)

}  // namespace skiff::ops
