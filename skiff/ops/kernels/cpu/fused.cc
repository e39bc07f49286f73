// CPU kernels of the fused LLM ops (skiff/ops/yaml/fused.yaml).
//
// fused_rope: one pass over x. Rows are the (batch, seq) positions; each row's cos/sin
// (head_dim values, from the table row its position id picks, or computed from
// rotary_emb_base) are widened once into the compute type, then every head of the row turns
// with them, so x is read once and out written once. Compute is float for float32 and 16-bit
// inputs, double for float64.
#include "skiff/ops/generated/kernels/fused.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"

namespace skiff::ops {

namespace {

using cpu::load;
using cpu::store;

// The position ids as int64, each checked against the table's rows.
std::vector<int64_t> rope_positions(const char* op, const DenseTensor& ids, int64_t rows) {
  const DenseTensor c = ids.contiguous();
  std::vector<int64_t> pos(c.numel());
  for (size_t i = 0; i < pos.size(); ++i) {
    pos[i] = c.dtype() == DType::kInt32 ? c.data<int32_t>()[i] : c.data<int64_t>()[i];
    SKIFF_ENFORCE(pos[i] >= 0 && (rows < 0 || pos[i] < rows), kOutOfRange, op, "position_ids",
                  str("values in [0, ", rows, ")"), pos[i]);
  }
  return pos;
}

// Turns the pairs of one head: (a, b) = (2i, 2i + 1) interleaved, else (i, i + half).
template <typename T, typename C>
void rope_head(const T* x, T* y, const C* cs, const C* sn, int64_t half, bool interleaved,
               bool transpose) {
  const int64_t step = interleaved ? 2 : 1, off = interleaved ? 1 : half;
  for (int64_t i = 0; i < half; ++i) {
    const int64_t a = i * step, b = a + off;
    const C xa = load(x[a]), xb = load(x[b]);
    if (transpose) {
      y[a] = store<T>(xa * cs[a] + xb * sn[b]);
      y[b] = store<T>(xb * cs[b] - xa * sn[a]);
    } else {
      y[a] = store<T>(xa * cs[a] - xb * sn[a]);
      y[b] = store<T>(xb * cs[b] + xa * sn[b]);
    }
  }
}

}  // namespace

template <typename T>
void fused_rope_cpu(const KernelContext& ctx, const FusedRopeArgs& a) {
  using C = compute_t<T>;
  const DenseTensor x = a.x.contiguous();
  const Dims& d = x.dims();
  const int64_t d0 = d[0], d1 = d[1], heads = d[2], dim = d[3], half = dim / 2;
  if (x.numel() == 0) return;
  const int64_t seq = a.time_major ? d0 : d1;
  DenseTensor sin_t, cos_t;
  int64_t table_rows = -1;
  if (a.sin) {
    sin_t = a.sin->contiguous();
    cos_t = a.cos->contiguous();
    table_rows = sin_t.numel() / dim;
  }
  const std::vector<int64_t> pos =
      a.position_ids ? rope_positions(ctx.op, *a.position_ids, a.sin ? table_rows : -1)
                     : std::vector<int64_t>();
  // Angles in double: position * frequency reaches thousands of radians at long sequences,
  // where float would lose the phase; each row's head_dim angles serve all its heads.
  std::vector<double> inv_freq(half);
  for (int64_t p = 0; p < half; ++p) {
    inv_freq[p] = std::pow(static_cast<double>(a.rotary_emb_base), -2.0 * p / dim);
  }
  const T* px = x.data<T>();
  T* py = a.out->data<T>();
  const T* ps = a.sin ? sin_t.data<T>() : nullptr;
  const T* pc = a.sin ? cos_t.data<T>() : nullptr;
  const int64_t row_len = heads * dim;
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / row_len);
  parallel_for(0, d0 * d1, grain, [&](int64_t b, int64_t e) {
    std::vector<C> cs(dim), sn(dim);
    for (int64_t r = b; r < e; ++r) {
      const int64_t bi = a.time_major ? r % d1 : r / d1, si = a.time_major ? r / d1 : r % d1;
      const int64_t p = a.position_ids ? pos[bi * seq + si] : si;
      for (int64_t j = 0; j < dim; ++j) {
        if (ps) {
          sn[j] = load(ps[p * dim + j]);
          cs[j] = load(pc[p * dim + j]);
          continue;
        }
        const double theta = p * inv_freq[a.use_neox_rotary_style ? j / 2 : j % half];
        sn[j] = static_cast<C>(std::sin(theta));
        cs[j] = static_cast<C>(std::cos(theta));
      }
      for (int64_t h = 0; h < heads; ++h) {
        const int64_t off = r * row_len + h * dim;
        rope_head<T, C>(px + off, py + off, cs.data(), sn.data(), half, a.use_neox_rotary_style,
                        a.transpose);
      }
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(fused_rope, cpu)

}  // namespace skiff::ops
