#include "skiff/ops/meta/fused_meta.h"

#include <utility>

#include "skiff/base/error.h"

namespace skiff::ops::meta {

namespace {
// Dims may be -1 (known at run time only) in captured programs: those match anything.
bool same_dim(int64_t a, int64_t b) { return a < 0 || b < 0 || a == b; }
}  // namespace

void fused_rope_meta(std::string_view op, const TensorMeta& x, const TensorMeta* sin,
                     const TensorMeta* cos, const TensorMeta* position_ids,
                     bool /*use_neox_rotary_style*/, bool time_major, float rotary_emb_base,
                     bool /*transpose*/, TensorMeta* out) {
  SKIFF_ENFORCE(is_floating(x.dtype), kTypeError, op, "x", "a floating-point tensor", x.dtype);
  SKIFF_ENFORCE(x.dims.size() == 4, kInvalidArgument, op, "x",
                "a 4-D tensor [batch, seq, heads, head_dim]", str("shape ", x.dims));
  const int64_t head_dim = x.dims[3];
  SKIFF_ENFORCE(head_dim < 0 || head_dim % 2 == 0, kInvalidArgument, op, "x",
                "an even head_dim (last dim)", head_dim);
  SKIFF_ENFORCE(rotary_emb_base > 0, kInvalidArgument, op, "rotary_emb_base", "> 0",
                rotary_emb_base);
  SKIFF_ENFORCE((sin == nullptr) == (cos == nullptr), kInvalidArgument, op, sin ? "cos" : "sin",
                "given together with the other of sin and cos", "None");
  const int64_t batch = time_major ? x.dims[1] : x.dims[0];
  const int64_t seq = time_major ? x.dims[0] : x.dims[1];
  if (sin) {
    for (auto [arg, t] : {std::pair{"sin", sin}, std::pair{"cos", cos}}) {
      SKIFF_ENFORCE(t->dtype == x.dtype, kTypeError, op, arg, str("dtype ", x.dtype, " (x's)"),
                    t->dtype);
      const Dims& d = t->dims;
      const bool shape_ok =
          (d.size() == 2 && same_dim(d[1], head_dim)) ||
          (d.size() == 4 && same_dim(d[0], 1) && same_dim(d[2], 1) && same_dim(d[3], head_dim));
      SKIFF_ENFORCE(shape_ok, kInvalidArgument, op, arg,
                    str("shape [seq, ", head_dim, "] or [1, seq, 1, ", head_dim, "]"), d);
    }
    const int64_t rows_sin = sin->dims[sin->dims.size() == 2 ? 0 : 1];
    const int64_t rows_cos = cos->dims[cos->dims.size() == 2 ? 0 : 1];
    SKIFF_ENFORCE(same_dim(rows_sin, rows_cos), kInvalidArgument, op, "cos",
                  str("the sequence length of sin (", rows_sin, ")"), rows_cos);
    SKIFF_ENFORCE(position_ids || same_dim(rows_sin, seq), kInvalidArgument, op, "sin",
                  str("sequence length ", seq, " (x's, without position_ids)"), rows_sin);
  }
  if (position_ids) {
    SKIFF_ENFORCE(position_ids->dtype == DType::kInt64 || position_ids->dtype == DType::kInt32,
                  kTypeError, op, "position_ids", "an int64 or int32 tensor", position_ids->dtype);
    const Dims& p = position_ids->dims;
    SKIFF_ENFORCE(p.size() == 2 && same_dim(p[0], batch) && same_dim(p[1], seq), kInvalidArgument,
                  op, "position_ids", str("shape [", batch, ", ", seq, "] ([batch, seq] of x)"), p);
  }
  *out = x;
}

}  // namespace skiff::ops::meta
