#include "skiff/core/views.h"

#include <algorithm>

#include "skiff/core/shape_math.h"

namespace skiff {

Dims infer_reshape_dims(const Dims& in, std::span<const int64_t> shape, const char* op) {
  Dims out;
  int infer_at = -1;
  int64_t known = 1;
  // A captured (symbolic) input may have sizes known only at run time (-1): then the inferred
  // dim is unknown too, and the element count is checked when the program runs.
  bool dynamic_in = false;
  for (int i = 0; i < in.size(); ++i) dynamic_in = dynamic_in || in[i] < 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t d = shape[i];
    if (d == -1) {
      SKIFF_ENFORCE(infer_at < 0, kInvalidArgument, op, "shape", "at most one -1",
                    std::vector<int64_t>(shape.begin(), shape.end()));
      infer_at = static_cast<int>(i);
      out.push_back(1);
      continue;
    }
    if (d == 0) {
      SKIFF_ENFORCE(static_cast<int>(i) < in.size(), kInvalidArgument, op, "shape",
                    "0 only at positions that exist in the input", str("0 at ", i));
      d = in[static_cast<int>(i)];
      if (d < 0) {  // copies a dynamic input dim
        out.push_back(-1);
        continue;
      }
    }
    SKIFF_ENFORCE(d >= 0, kInvalidArgument, op, "shape", "dims >= -1",
                  std::vector<int64_t>(shape.begin(), shape.end()));
    if (d == 0) {
      known = 0;
    } else if (known != 0) {
      SKIFF_ENFORCE(!mul_overflows(known, d, &known), kInvalidArgument, op, "shape",
                    "a shape whose element count fits in int64",
                    std::vector<int64_t>(shape.begin(), shape.end()));
    }
    out.push_back(d);
  }
  if (dynamic_in) {
    if (infer_at >= 0) out[infer_at] = -1;
    return out;
  }
  const int64_t numel = in.numel();
  if (infer_at >= 0) {
    SKIFF_ENFORCE(known != 0 && numel % known == 0, kInvalidArgument, op, "shape",
                  str("a shape whose known dims divide ", numel, " (input ", in, ")"),
                  std::vector<int64_t>(shape.begin(), shape.end()));
    out[infer_at] = numel / known;
  } else {
    SKIFF_ENFORCE(known == numel, kInvalidArgument, op, "shape",
                  str("a shape with ", numel, " elements (input ", in, ")"),
                  std::vector<int64_t>(shape.begin(), shape.end()));
  }
  return out;
}

std::optional<DenseTensor> try_view_reshape(const DenseTensor& x, const Dims& shape) {
  SKIFF_ENFORCE(shape.numel() == x.numel(), kInvalidArgument, "reshape", "shape",
                str("a shape with ", x.numel(), " elements (input ", x.dims(), ")"), shape);
  if (x.is_contiguous() || x.numel() == 0) {
    return x.as_strided(shape, contiguous_strides(shape), x.offset());
  }
  // Size-1 input dims carry no layout; drop them. Then match chunks of input and output dims
  // with equal element counts: a chunk can be re-split only if it is contiguous in itself.
  int64_t in_size[kMaxRank], in_stride[kMaxRank];
  int n = 0;
  for (int i = 0; i < x.rank(); ++i) {
    if (x.dim(i) == 1) continue;
    in_size[n] = x.dim(i);
    in_stride[n++] = x.strides()[i];
  }
  Dims out_strides = Dims::filled(shape.size(), 1);
  int i = 0, o = 0;
  while (o < shape.size()) {
    if (shape[o] == 1) {
      ++o;
      continue;
    }
    if (i >= n) return std::nullopt;
    int i_end = i + 1, o_end = o + 1;
    int64_t in_count = in_size[i], out_count = shape[o];
    while (in_count != out_count) {
      if (in_count < out_count) {
        if (i_end >= n) return std::nullopt;
        in_count *= in_size[i_end++];
      } else {
        if (o_end >= shape.size()) return std::nullopt;
        out_count *= shape[o_end++];
      }
    }
    for (int k = i; k + 1 < i_end; ++k) {
      if (in_stride[k] != in_stride[k + 1] * in_size[k + 1]) return std::nullopt;
    }
    int64_t stride = in_stride[i_end - 1];
    for (int k = o_end - 1; k >= o; --k) {
      out_strides[k] = stride;
      stride *= shape[k];
    }
    i = i_end;
    o = o_end;
  }
  return x.as_strided(shape, out_strides, x.offset());
}

DenseTensor view_permute(const DenseTensor& x, std::span<const int64_t> perm) {
  const int rank = x.rank();
  SKIFF_ENFORCE(static_cast<int>(perm.size()) == rank, kInvalidArgument, "transpose", "perm",
                str("a permutation of ", rank, " axes"),
                std::vector<int64_t>(perm.begin(), perm.end()));
  Dims dims = Dims::filled(rank, 0), strides = Dims::filled(rank, 0);
  bool seen[kMaxRank] = {};
  for (int i = 0; i < rank; ++i) {
    const int a = normalize_axis(perm[i], rank, "transpose", "perm");
    SKIFF_ENFORCE(!seen[a], kInvalidArgument, "transpose", "perm", "each axis exactly once",
                  std::vector<int64_t>(perm.begin(), perm.end()));
    seen[a] = true;
    dims[i] = x.dim(a);
    strides[i] = x.strides()[a];
  }
  return x.as_strided(dims, strides, x.offset());
}

DenseTensor view_transpose(const DenseTensor& x, int64_t dim0, int64_t dim1) {
  const int a0 = normalize_axis(dim0, x.rank(), "transpose", "dim0");
  const int a1 = normalize_axis(dim1, x.rank(), "transpose", "dim1");
  if (x.rank() == 0) return x;  // axes 0 and -1 of a 0-D tensor: nothing to swap
  std::vector<int64_t> perm(x.rank());
  for (int i = 0; i < x.rank(); ++i) perm[i] = i;
  std::swap(perm[a0], perm[a1]);
  return view_permute(x, perm);
}

DenseTensor view_slice(const DenseTensor& x, int64_t axis, int64_t start, int64_t end,
                       int64_t step) {
  SKIFF_ENFORCE(x.rank() > 0, kInvalidArgument, "slice", "x", "a tensor with at least 1 dim",
                "a 0-D tensor");
  const int a = normalize_axis(axis, x.rank(), "slice", "axis");
  SKIFF_ENFORCE(step > 0, kInvalidArgument, "slice", "step", "a positive step", step);
  const int64_t n = x.dim(a);
  auto clamp = [n](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + n : v, 0, n); };
  start = clamp(start);
  end = clamp(end);
  const int64_t len = end > start ? (end - start + step - 1) / step : 0;
  Dims dims = x.dims(), strides = x.strides();
  dims[a] = len;
  strides[a] *= step;
  return x.as_strided(dims, strides, x.offset() + start * x.strides()[a]);
}

DenseTensor view_squeeze(const DenseTensor& x, std::span<const int64_t> axes) {
  bool drop[kMaxRank] = {};
  if (axes.empty()) {
    for (int i = 0; i < x.rank(); ++i) drop[i] = x.dim(i) == 1;
  } else {
    for (int64_t axis : axes) {
      const int a = normalize_axis(axis, x.rank(), "squeeze", "axis");
      drop[a] = x.dim(a) == 1;  // Paddle ignores axes whose size is not 1
    }
  }
  Dims dims, strides;
  for (int i = 0; i < x.rank(); ++i) {
    if (drop[i]) continue;
    dims.push_back(x.dim(i));
    strides.push_back(x.strides()[i]);
  }
  return x.as_strided(dims, strides, x.offset());
}

DenseTensor view_unsqueeze(const DenseTensor& x, std::span<const int64_t> axes) {
  Dims dims = x.dims(), strides = x.strides();
  for (int64_t axis : axes) {
    const int rank = dims.size() + 1;
    const int a = normalize_axis(axis, rank, "unsqueeze", "axis");
    const int64_t stride = a < dims.size() ? strides[a] * dims[a] : 1;
    dims.insert(a, 1);
    strides.insert(a, stride);
  }
  return x.as_strided(dims, strides, x.offset());
}

DenseTensor view_expand(const DenseTensor& x, const Dims& shape) {
  const int rank = shape.size();
  SKIFF_ENFORCE(rank >= x.rank(), kInvalidArgument, "expand", "shape",
                str("at least ", x.rank(), " dims (input ", x.dims(), ")"), shape);
  Dims dims = Dims::filled(rank, 0), strides = Dims::filled(rank, 0);
  const int lead = rank - x.rank();
  for (int i = 0; i < rank; ++i) {
    const int j = i - lead;
    const int64_t in = j >= 0 ? x.dim(j) : 1;
    int64_t want = shape[i];
    if (want == -1) {
      SKIFF_ENFORCE(j >= 0, kInvalidArgument, "expand", "shape", "-1 only for existing dims",
                    shape);
      want = in;
    }
    SKIFF_ENFORCE(want >= 0, kInvalidArgument, "expand", "shape", "dims >= 0 or -1", shape);
    SKIFF_ENFORCE(in == want || in == 1, kInvalidArgument, "expand", "shape",
                  str("dims equal to the input's or expanding a size-1 dim (input ", x.dims(), ")"),
                  shape);
    dims[i] = want;
    strides[i] = (j >= 0 && in == want) ? x.strides()[j] : 0;
  }
  checked_numel(dims, "expand", "shape");
  return x.as_strided(dims, strides, x.offset());
}

DenseTensor view_diagonal(const DenseTensor& x, int64_t offset, int64_t axis1, int64_t axis2) {
  const int a1 = normalize_axis(axis1, x.rank(), "diagonal", "axis1");
  const int a2 = normalize_axis(axis2, x.rank(), "diagonal", "axis2");
  SKIFF_ENFORCE(a1 != a2, kInvalidArgument, "diagonal", "axis2", "an axis other than axis1", axis2);
  int64_t len, start;
  if (offset >= 0) {
    len = std::max<int64_t>(0, std::min(x.dim(a1), x.dim(a2) - offset));
    start = offset * x.strides()[a2];
  } else {
    len = std::max<int64_t>(0, std::min(x.dim(a1) + offset, x.dim(a2)));
    start = -offset * x.strides()[a1];
  }
  Dims dims, strides;
  for (int i = 0; i < x.rank(); ++i) {
    if (i == a1 || i == a2) continue;
    dims.push_back(x.dim(i));
    strides.push_back(x.strides()[i]);
  }
  dims.push_back(len);
  strides.push_back(x.strides()[a1] + x.strides()[a2]);
  return x.as_strided(dims, strides, x.offset() + (len > 0 ? start : 0));
}

}  // namespace skiff
