#include "skiff/ops/meta/attention_meta.h"

#include "skiff/base/error.h"

namespace skiff::ops::meta {

namespace {

// Equal or dynamic (captured programs).
bool dims_match(int64_t a, int64_t b) { return a == b || a == kDynamicDim || b == kDynamicDim; }

bool is_attention_dtype(DType d) {
  return d == DType::kFloat32 || d == DType::kBFloat16 || d == DType::kFloat16 ||
         d == DType::kFloat64;
}

void check_same_shape(std::string_view op, const char* arg, const TensorMeta& t, const Dims& want,
                      const char* what) {
  bool same = t.dims.size() == want.size();
  for (int i = 0; same && i < want.size(); ++i) same = dims_match(t.dims[i], want[i]);
  SKIFF_ENFORCE(same, kInvalidArgument, op, arg, str(what, " ", want), t.dims);
}

// The q/k/v checks shared by the forward and the backward.
void check_qkv(std::string_view op, const TensorMeta& q, const TensorMeta& k,
               const TensorMeta& v) {
  SKIFF_ENFORCE(is_attention_dtype(q.dtype), kInvalidArgument, op, "q",
                "a floating dtype (float32, bfloat16, float16; float64 on the reference backend)",
                q.dtype);
  SKIFF_ENFORCE(k.dtype == q.dtype, kInvalidArgument, op, "k", str("dtype ", q.dtype, " (as q)"),
                k.dtype);
  SKIFF_ENFORCE(v.dtype == q.dtype, kInvalidArgument, op, "v", str("dtype ", q.dtype, " (as q)"),
                v.dtype);
  const char* layout = "a 4-D tensor [batch, seqlen, num_heads, head_dim]";
  SKIFF_ENFORCE(q.dims.size() == 4, kInvalidArgument, op, "q", layout, q.dims);
  SKIFF_ENFORCE(k.dims.size() == 4, kInvalidArgument, op, "k", layout, k.dims);
  SKIFF_ENFORCE(v.dims.size() == 4, kInvalidArgument, op, "v", layout, v.dims);
  SKIFF_ENFORCE(dims_match(k.dims[0], q.dims[0]), kInvalidArgument, op, "k",
                str("batch ", q.dims[0], " (as q)"), k.dims);
  SKIFF_ENFORCE(dims_match(k.dims[3], q.dims[3]), kInvalidArgument, op, "k",
                str("head_dim ", q.dims[3], " (as q)"), k.dims);
  SKIFF_ENFORCE(q.dims[3] == kDynamicDim || q.dims[3] > 0, kInvalidArgument, op, "q",
                "a positive head_dim", q.dims);
  const int64_t h = q.dims[2], hk = k.dims[2];
  SKIFF_ENFORCE(hk == kDynamicDim || hk > 0, kInvalidArgument, op, "k",
                "at least one key head", k.dims);
  SKIFF_ENFORCE(h == kDynamicDim || hk == kDynamicDim || h % hk == 0, kInvalidArgument, op, "k",
                str("num_heads_k dividing q's num_heads ", h), k.dims);
  check_same_shape(op, "v", v, k.dims, "k's shape");
}

}  // namespace

void flash_attn_meta(std::string_view op, const TensorMeta& q, const TensorMeta& k,
                     const TensorMeta& v, const TensorMeta* fixed_seed_offset, float dropout,
                     bool causal, bool return_softmax, bool is_test, const std::string& rng_name,
                     TensorMeta* out, TensorMeta* softmax, TensorMeta* softmax_lse,
                     TensorMeta* seed_offset) {
  (void)causal, (void)is_test, (void)rng_name;
  check_qkv(op, q, k, v);
  SKIFF_ENFORCE(dropout >= 0.0f && dropout < 1.0f, kInvalidArgument, op, "dropout",
                "a probability in [0, 1)", dropout);
  if (fixed_seed_offset) {
    SKIFF_ENFORCE(fixed_seed_offset->dtype == DType::kInt64, kInvalidArgument, op,
                  "fixed_seed_offset", "dtype int64", fixed_seed_offset->dtype);
    check_same_shape(op, "fixed_seed_offset", *fixed_seed_offset, Dims{2}, "shape");
  }
  *out = q;
  const int64_t b = q.dims[0], sq = q.dims[1], h = q.dims[2], sk = k.dims[1];
  *softmax = {q.dtype, return_softmax ? Dims{b, h, sq, sk} : Dims{0}};
  *softmax_lse = {DType::kFloat32, Dims{b, h, sq}};
  *seed_offset = {DType::kInt64, Dims{2}};
}

void flash_attn_grad_meta(std::string_view op, const TensorMeta& q, const TensorMeta& k,
                          const TensorMeta& v, const TensorMeta& out,
                          const TensorMeta& softmax_lse, const TensorMeta& seed_offset,
                          const TensorMeta& out_grad, float dropout, bool causal,
                          TensorMeta* q_grad, TensorMeta* k_grad, TensorMeta* v_grad) {
  (void)seed_offset, (void)causal;
  check_qkv(op, q, k, v);
  SKIFF_ENFORCE(dropout >= 0.0f && dropout < 1.0f, kInvalidArgument, op, "dropout",
                "a probability in [0, 1)", dropout);
  SKIFF_ENFORCE(out.dtype == q.dtype, kInvalidArgument, op, "out", str("dtype ", q.dtype),
                out.dtype);
  SKIFF_ENFORCE(out_grad.dtype == q.dtype, kInvalidArgument, op, "out_grad",
                str("dtype ", q.dtype), out_grad.dtype);
  check_same_shape(op, "out", out, q.dims, "q's shape");
  check_same_shape(op, "out_grad", out_grad, q.dims, "q's shape");
  // float64 reaches only the reference backend (its float64 oracle runs).
  SKIFF_ENFORCE(softmax_lse.dtype == DType::kFloat32 || softmax_lse.dtype == DType::kFloat64,
                kInvalidArgument, op, "softmax_lse", "dtype float32", softmax_lse.dtype);
  check_same_shape(op, "softmax_lse", softmax_lse, Dims{q.dims[0], q.dims[2], q.dims[1]},
                   "[batch, num_heads, seqlen_q]");
  *q_grad = q;
  *k_grad = k;
  *v_grad = v;
}

}  // namespace skiff::ops::meta
