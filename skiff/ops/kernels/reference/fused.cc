// Reference kernels of the fused LLM ops: plain float64 loops over multi-indices, any strides.
#include "skiff/ops/generated/kernels/fused.h"

#include <cmath>
#include <vector>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/reference/ref_loops.h"

namespace skiff::ops {

namespace {

using reference::for_each_index;
using reference::offset_of;
using reference::set;

double value_at(const DenseTensor& t, const std::vector<int64_t>& idx) {
  const int64_t off = offset_of(t, idx.data());
  return visit_dtype(t.dtype(), [&](auto tag) {
    using P = decltype(tag);
    return static_cast<double>(static_cast<compute_t<P>>(static_cast<const P*>(t.raw_data())[off]));
  });
}

// Element j of the sin or cos table at position p ([seq', D] or [1, seq', 1, D]).
double table_at(const DenseTensor& t, int64_t p, int64_t j) {
  return value_at(t, t.rank() == 2 ? std::vector<int64_t>{p, j} : std::vector<int64_t>{0, p, 0, j});
}

}  // namespace

// Each output element j from itself and its pair partner k (the first of a pair is a).
template <typename T>
void fused_rope_reference(const KernelContext& ctx, const FusedRopeArgs& a) {
  const Dims& d = a.x.dims();
  const int64_t dim = d[3], half = dim / 2;
  for_each_index(d, [&](const int64_t* idx0) {
    std::vector<int64_t> idx(idx0, idx0 + 4);
    const int64_t bi = a.time_major ? idx[1] : idx[0], si = a.time_major ? idx[0] : idx[1];
    int64_t p = si;
    if (a.position_ids) {
      const int64_t off = offset_of(*a.position_ids, std::vector<int64_t>{bi, si}.data());
      p = a.position_ids->dtype() == DType::kInt32
              ? static_cast<const int32_t*>(a.position_ids->raw_data())[off]
              : static_cast<const int64_t*>(a.position_ids->raw_data())[off];
      const int64_t rows = a.sin ? a.sin->dim(a.sin->rank() == 2 ? 0 : 1) : -1;
      SKIFF_ENFORCE(p >= 0 && (rows < 0 || p < rows), kOutOfRange, ctx.op, "position_ids",
                    str("values in [0, ", rows, ")"), p);
    }
    auto sin_cos = [&](int64_t j, double* s, double* c) {
      if (a.sin) {
        *s = table_at(*a.sin, p, j);
        *c = table_at(*a.cos, p, j);
        return;
      }
      const int64_t pair = a.use_neox_rotary_style ? j / 2 : j % half;
      const double theta = p * std::pow(static_cast<double>(a.rotary_emb_base),
                                        -2.0 * pair / static_cast<double>(dim));
      *s = std::sin(theta);
      *c = std::cos(theta);
    };
    const int64_t j = idx[3];
    const bool first = a.use_neox_rotary_style ? j % 2 == 0 : j < half;
    const int64_t step = a.use_neox_rotary_style ? 1 : half;
    const int64_t k = first ? j + step : j - step;
    double sj, cj, sk, ck;
    sin_cos(j, &sj, &cj);
    sin_cos(k, &sk, &ck);
    const double xj = value_at(a.x, idx);
    idx[3] = k;
    const double xk = value_at(a.x, idx);
    // forward: out_a = x_a c_a - x_b s_a, out_b = x_b c_b + x_a s_b; transpose: its J^T.
    const double sign = first ? -1.0 : 1.0;
    const double v = a.transpose ? xj * cj - sign * xk * sk : xj * cj + sign * xk * sj;
    idx[3] = j;
    set<T>(*a.out, offset_of(*a.out, idx.data()), static_cast<T>(v));
  });
}
SKIFF_INSTANTIATE_KERNEL(fused_rope, reference)

}  // namespace skiff::ops
