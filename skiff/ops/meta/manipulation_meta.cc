#include "skiff/ops/meta/manipulation_meta.h"

#include <algorithm>

#include "skiff/base/error.h"
#include "skiff/core/shape_math.h"
#include "skiff/core/views.h"

namespace skiff::ops::meta {

namespace {

std::string op_str(std::string_view op) { return std::string(op); }

int axis_of(std::string_view op, int64_t axis, int rank, const char* arg = "axis") {
  return normalize_axis(axis, rank, op_str(op).c_str(), arg);
}

void check_index_dtype(std::string_view op, const char* arg, DType d) {
  SKIFF_ENFORCE(d == DType::kInt32 || d == DType::kInt64, kTypeError, op, arg, "int32 or int64", d);
}

void check_same_dtype(std::string_view op, const char* arg, DType want, DType got) {
  SKIFF_ENFORCE(want == got, kTypeError, op, arg, str(want, " (the dtype of x)"), got);
}

// Marks each axis of a list once; duplicates are an error.
void mark_axes(std::string_view op, const char* arg, const IntList& axes, int rank, bool* seen) {
  for (int64_t a : axes) {
    const int n = axis_of(op, a, rank, arg);
    SKIFF_ENFORCE(!seen[n], kInvalidArgument, op, arg, "each axis at most once", axes);
    seen[n] = true;
  }
}

}  // namespace

void reshape_meta(std::string_view op, const TensorMeta& x, const IntList& shape, TensorMeta* out) {
  *out = {x.dtype, infer_reshape_dims(x.dims, shape, op_str(op).c_str())};
}

void flatten_meta(std::string_view op, const TensorMeta& x, int64_t start_axis, int64_t stop_axis,
                  TensorMeta* out) {
  const int rank = x.dims.size();
  const int s = axis_of(op, start_axis, rank, "start_axis");
  const int e = axis_of(op, stop_axis, rank, "stop_axis");
  SKIFF_ENFORCE(s <= e, kInvalidArgument, op, "stop_axis",
                str("an axis >= start_axis (", start_axis, ")"), stop_axis);
  if (rank == 0) {
    *out = {x.dtype, Dims{1}};
    return;
  }
  Dims d;
  for (int i = 0; i < s; ++i) d.push_back(x.dims[i]);
  int64_t n = 1;
  for (int i = s; i <= e; ++i) n = (n < 0 || x.dims[i] < 0) ? kDynamicDim : n * x.dims[i];
  d.push_back(n);
  for (int i = e + 1; i < rank; ++i) d.push_back(x.dims[i]);
  *out = {x.dtype, d};
}

void transpose_meta(std::string_view op, const TensorMeta& x, const IntList& perm,
                    TensorMeta* out) {
  const int rank = x.dims.size();
  SKIFF_ENFORCE(static_cast<int>(perm.size()) == rank, kInvalidArgument, op, "perm",
                str("a permutation of ", rank, " axes"), perm);
  bool seen[kMaxRank] = {};
  mark_axes(op, "perm", perm, rank, seen);
  Dims d = Dims::filled(rank, 0);
  for (int i = 0; i < rank; ++i) d[i] = x.dims[axis_of(op, perm[i], rank, "perm")];
  *out = {x.dtype, d};
}

void squeeze_meta(std::string_view op, const TensorMeta& x, const IntList& axis, TensorMeta* out) {
  const int rank = x.dims.size();
  bool drop[kMaxRank] = {};
  if (axis.empty()) {
    for (int i = 0; i < rank; ++i) drop[i] = x.dims[i] == 1;
  } else {
    for (int64_t a : axis) {
      const int n = axis_of(op, a, rank);
      drop[n] = rank > 0 && x.dims[n] == 1;  // Paddle ignores axes whose size is not 1
    }
  }
  Dims d;
  for (int i = 0; i < rank; ++i) {
    if (!drop[i]) d.push_back(x.dims[i]);
  }
  *out = {x.dtype, d};
}

void unsqueeze_meta(std::string_view op, const TensorMeta& x, const IntList& axis,
                    TensorMeta* out) {
  Dims d = x.dims;
  SKIFF_ENFORCE(d.size() + static_cast<int>(axis.size()) <= kMaxRank, kInvalidArgument, op, "axis",
                str("at most ", kMaxRank - d.size(), " new axes"), axis);
  for (int64_t a : axis) d.insert(axis_of(op, a, d.size() + 1), 1);
  *out = {x.dtype, d};
}

void expand_meta(std::string_view op, const TensorMeta& x, const IntList& shape, TensorMeta* out) {
  const int rank = static_cast<int>(shape.size()), in_rank = x.dims.size();
  SKIFF_ENFORCE(rank >= in_rank && rank <= kMaxRank, kInvalidArgument, op, "shape",
                str("between ", in_rank, " and ", kMaxRank, " dims (x is ", x.dims, ")"), shape);
  Dims d = Dims::filled(rank, 0);
  const int lead = rank - in_rank;
  for (int i = 0; i < rank; ++i) {
    const int j = i - lead;
    const int64_t in = j >= 0 ? x.dims[j] : 1;
    int64_t want = shape[i];
    SKIFF_ENFORCE(want >= 0 || (want == -1 && j >= 0), kInvalidArgument, op, "shape",
                  "dims >= 0, or -1 to keep an existing dim", shape);
    if (want == -1) want = in;
    SKIFF_ENFORCE(in == want || in == 1, kInvalidArgument, op, "shape",
                  str("dims equal to x's or expanding a size-1 dim (x is ", x.dims, ")"), shape);
    d[i] = want;
  }
  if (!d.has_dynamic()) checked_numel(d, op, "shape");
  *out = {x.dtype, d};
}

std::vector<SliceDim> slice_dims(std::string_view op, const Dims& dims, const IntList& axes,
                                 const IntList& starts, const IntList& ends,
                                 const IntList* strides) {
  const int rank = dims.size();
  SKIFF_ENFORCE(starts.size() == axes.size(), kInvalidArgument, op, "starts",
                str(axes.size(), " values (one per axis)"), starts);
  SKIFF_ENFORCE(ends.size() == axes.size(), kInvalidArgument, op, "ends",
                str(axes.size(), " values (one per axis)"), ends);
  if (strides) {
    SKIFF_ENFORCE(strides->size() == axes.size(), kInvalidArgument, op, "strides",
                  str(axes.size(), " values (one per axis)"), *strides);
  }
  SKIFF_ENFORCE(rank > 0 || axes.empty(), kInvalidArgument, op, "input", "a tensor of rank >= 1",
                "a 0-D tensor");
  std::vector<SliceDim> out(rank);
  for (int i = 0; i < rank; ++i) out[i] = {0, 1, dims[i]};
  bool seen[kMaxRank] = {};
  mark_axes(op, "axes", axes, rank, seen);
  for (size_t k = 0; k < axes.size(); ++k) {
    const int a = axis_of(op, axes[k], rank, "axes");
    const int64_t n = dims[a], step = strides ? (*strides)[k] : 1;
    SKIFF_ENFORCE(step != 0, kInvalidArgument, op, "strides", "non-zero strides", *strides);
    if (n == kDynamicDim) {  // known at run time, where the op infers again with real dims
      out[a] = {starts[k], step, kDynamicDim};
      continue;
    }
    int64_t s = starts[k], e = ends[k];
    if (s < 0) s += n;
    if (e < 0) e += n;
    if (step > 0) {
      s = std::clamp<int64_t>(s, 0, n);
      e = std::clamp<int64_t>(e, 0, n);
      out[a] = {s, step, e > s ? (e - s + step - 1) / step : 0};
    } else {
      s = std::clamp<int64_t>(s, -1, n - 1);
      e = std::clamp<int64_t>(e, -1, n - 1);
      out[a] = {s, step, s > e ? (s - e - step - 1) / -step : 0};
    }
  }
  return out;
}

void slice_meta(std::string_view op, const TensorMeta& input, const IntList& axes,
                const IntList& starts, const IntList& ends, const IntList& decrease_axis,
                TensorMeta* out) {
  const auto sd = slice_dims(op, input.dims, axes, starts, ends, nullptr);
  const int rank = input.dims.size();
  bool drop[kMaxRank] = {};
  mark_axes(op, "decrease_axis", decrease_axis, rank, drop);
  Dims d;
  for (int i = 0; i < rank; ++i) {
    if (drop[i]) {
      SKIFF_ENFORCE(
          sd[i].len == 1 || sd[i].len == kDynamicDim, kInvalidArgument, op, "decrease_axis",
          str("axes whose slice has length 1 (axis ", i, " has ", sd[i].len, ")"), decrease_axis);
      continue;
    }
    d.push_back(sd[i].len);
  }
  *out = {input.dtype, d};
}

void strided_slice_meta(std::string_view op, const TensorMeta& x, const IntList& axes,
                        const IntList& starts, const IntList& ends, const IntList& strides,
                        TensorMeta* out) {
  const auto sd = slice_dims(op, x.dims, axes, starts, ends, &strides);
  Dims d;
  for (const auto& s : sd) d.push_back(s.len);
  *out = {x.dtype, d};
}

void diagonal_meta(std::string_view op, const TensorMeta& x, int64_t offset, int64_t axis1,
                   int64_t axis2, TensorMeta* out) {
  const int rank = x.dims.size();
  SKIFF_ENFORCE(rank >= 2, kInvalidArgument, op, "x", "a tensor of rank >= 2", x.dims);
  const int a1 = axis_of(op, axis1, rank, "axis1"), a2 = axis_of(op, axis2, rank, "axis2");
  SKIFF_ENFORCE(a1 != a2, kInvalidArgument, op, "axis2",
                str("an axis other than axis1 (", axis1, ")"), axis2);
  Dims d;
  for (int i = 0; i < rank; ++i) {
    if (i != a1 && i != a2) d.push_back(x.dims[i]);
  }
  const int64_t len = offset >= 0 ? std::min(x.dims[a1], x.dims[a2] - offset)
                                  : std::min(x.dims[a1] + offset, x.dims[a2]);
  d.push_back(std::max<int64_t>(0, len));
  *out = {x.dtype, d};
}

IntList split_sizes(std::string_view op, int64_t n, const IntList& sections) {
  SKIFF_ENFORCE(!sections.empty(), kInvalidArgument, op, "sections", "at least one section",
                sections);
  IntList out = sections;
  int infer = -1;
  int64_t known = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      SKIFF_ENFORCE(infer < 0, kInvalidArgument, op, "sections", "at most one -1", sections);
      infer = static_cast<int>(i);
      continue;
    }
    SKIFF_ENFORCE(out[i] >= 0, kInvalidArgument, op, "sections", "sizes >= 0 (or one -1)",
                  sections);
    known += out[i];
  }
  if (infer >= 0) {
    SKIFF_ENFORCE(known <= n, kInvalidArgument, op, "sections",
                  str("sizes summing to at most ", n, " besides the -1"), sections);
    out[infer] = n - known;
  } else {
    SKIFF_ENFORCE(known == n, kInvalidArgument, op, "sections",
                  str("sizes summing to ", n, " (the size of the split axis)"), sections);
  }
  return out;
}

void split_meta(std::string_view op, const TensorMeta& x, const IntList& sections, int64_t axis,
                std::vector<TensorMeta>* out) {
  const int a = axis_of(op, axis, x.dims.size());
  SKIFF_ENFORCE(x.dims.size() > 0, kInvalidArgument, op, "x", "a tensor of rank >= 1", x.dims);
  out->clear();
  for (int64_t s : split_sizes(op, x.dims[a], sections)) {
    Dims d = x.dims;
    d[a] = s;
    out->push_back({x.dtype, d});
  }
}

void split_with_num_meta(std::string_view op, const TensorMeta& x, int64_t num, int64_t axis,
                         std::vector<TensorMeta>* out) {
  const char* arg = op == "chunk" ? "chunks" : "num";
  SKIFF_ENFORCE(x.dims.size() > 0, kInvalidArgument, op, "x", "a tensor of rank >= 1", x.dims);
  const int a = axis_of(op, axis, x.dims.size());
  SKIFF_ENFORCE(num > 0 && x.dims[a] % num == 0, kInvalidArgument, op, arg,
                str("a positive divisor of ", x.dims[a], " (the size of axis ", a, ")"), num);
  out->assign(num, {x.dtype, x.dims});
  for (auto& m : *out) m.dims[a] = x.dims[a] / num;
}

void unbind_meta(std::string_view op, const TensorMeta& input, int64_t axis,
                 std::vector<TensorMeta>* out) {
  SKIFF_ENFORCE(input.dims.size() > 0, kInvalidArgument, op, "input", "a tensor of rank >= 1",
                input.dims);
  const int a = axis_of(op, axis, input.dims.size());
  Dims d = input.dims;
  d.erase(a);
  out->assign(input.dims[a], {input.dtype, d});
}

void concat_meta(std::string_view op, std::span<const TensorMeta> x, int64_t axis,
                 TensorMeta* out) {
  SKIFF_ENFORCE(!x.empty(), kInvalidArgument, op, "x", "at least one tensor", "an empty list");
  const TensorMeta& f = x[0];
  SKIFF_ENFORCE(f.dims.size() > 0, kInvalidArgument, op, "x", "tensors of rank >= 1",
                "a 0-D tensor");
  const int a = axis_of(op, axis, f.dims.size());
  Dims d = f.dims;
  d[a] = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    SKIFF_ENFORCE(x[i].dtype == f.dtype, kTypeError, op, str("x[", i, "]"),
                  str(f.dtype, " (the dtype of x[0])"), x[i].dtype);
    bool ok = x[i].dims.size() == f.dims.size();
    for (int k = 0; ok && k < f.dims.size(); ++k) {
      // A dynamic dim (-1, while capturing) matches any size.
      ok = k == a || x[i].dims[k] == f.dims[k] || x[i].dims[k] < 0 || f.dims[k] < 0;
    }
    SKIFF_ENFORCE(ok, kInvalidArgument, op, str("x[", i, "]"),
                  str("dims equal to x[0]'s ", f.dims, " except on axis ", a), x[i].dims);
    d[a] = d[a] < 0 || x[i].dims[a] < 0 ? -1 : d[a] + x[i].dims[a];
  }
  *out = {f.dtype, d};
}

void stack_meta(std::string_view op, std::span<const TensorMeta> x, int64_t axis, TensorMeta* out) {
  SKIFF_ENFORCE(!x.empty(), kInvalidArgument, op, "x", "at least one tensor", "an empty list");
  const TensorMeta& f = x[0];
  const int a = axis_of(op, axis, f.dims.size() + 1);
  for (size_t i = 0; i < x.size(); ++i) {
    SKIFF_ENFORCE(x[i].dtype == f.dtype, kTypeError, op, str("x[", i, "]"),
                  str(f.dtype, " (the dtype of x[0])"), x[i].dtype);
    SKIFF_ENFORCE(x[i].dims == f.dims, kInvalidArgument, op, str("x[", i, "]"),
                  str("dims ", f.dims, " (those of x[0])"), x[i].dims);
  }
  Dims d = f.dims;
  d.insert(a, static_cast<int64_t>(x.size()));
  *out = {f.dtype, d};
}

void tile_meta(std::string_view op, const TensorMeta& x, const IntList& repeat_times,
               TensorMeta* out) {
  const int rank = std::max<int>(x.dims.size(), repeat_times.size());
  SKIFF_ENFORCE(rank <= kMaxRank, kInvalidArgument, op, "repeat_times",
                str("at most ", kMaxRank, " values"), repeat_times);
  Dims d = Dims::filled(rank, 1);
  for (int i = 0; i < rank; ++i) {
    const int xi = i - (rank - x.dims.size());
    const int ri = i - (rank - static_cast<int>(repeat_times.size()));
    const int64_t r = ri >= 0 ? repeat_times[ri] : 1;
    SKIFF_ENFORCE(r >= 0, kInvalidArgument, op, "repeat_times", "values >= 0", repeat_times);
    d[i] = (xi >= 0 ? x.dims[xi] : 1) * r;
  }
  *out = {x.dtype, d};
}

void flip_meta(std::string_view op, const TensorMeta& x, const IntList& axis, TensorMeta* out) {
  bool seen[kMaxRank] = {};
  mark_axes(op, "axis", axis, x.dims.size(), seen);
  *out = x;
}

void roll_meta(std::string_view op, const TensorMeta& x, const IntList& shifts, const IntList& axis,
               TensorMeta* out) {
  if (axis.empty()) {
    SKIFF_ENFORCE(shifts.size() == 1, kInvalidArgument, op, "shifts",
                  "one shift when axis is empty (the flattened tensor rolls)", shifts);
  } else {
    SKIFF_ENFORCE(shifts.size() == axis.size(), kInvalidArgument, op, "shifts",
                  str(axis.size(), " values (one per axis)"), shifts);
    for (int64_t a : axis) axis_of(op, a, x.dims.size());
  }
  *out = x;
}

std::vector<std::pair<int64_t, int64_t>> pad_pairs(std::string_view op, int rank,
                                                   const IntList& paddings) {
  const int n = static_cast<int>(paddings.size());
  SKIFF_ENFORCE(n % 2 == 0 && n <= 2 * rank, kInvalidArgument, op, "paddings",
                str("an even number of values, at most ", 2 * rank, " (2 * rank)"), paddings);
  std::vector<std::pair<int64_t, int64_t>> p(rank, {0, 0});
  if (n == 2 * rank) {
    for (int i = 0; i < rank; ++i) p[i] = {paddings[2 * i], paddings[2 * i + 1]};
  } else {
    for (int k = 0; k < n / 2; ++k) p[rank - 1 - k] = {paddings[2 * k], paddings[2 * k + 1]};
  }
  for (int64_t v : paddings) {
    SKIFF_ENFORCE(v >= 0, kInvalidArgument, op, "paddings", "values >= 0", paddings);
  }
  return p;
}

void pad_meta(std::string_view op, const TensorMeta& x, const IntList& paddings,
              const std::string& mode, float, TensorMeta* out) {
  SKIFF_ENFORCE(
      mode == "constant" || mode == "reflect" || mode == "replicate" || mode == "circular",
      kInvalidArgument, op, "mode", "one of constant, reflect, replicate, circular", mode);
  const auto p = pad_pairs(op, x.dims.size(), paddings);
  Dims d = x.dims;
  for (int i = 0; i < d.size(); ++i) {
    const int64_t n = x.dims[i], m = std::max(p[i].first, p[i].second);
    if (mode == "reflect") {
      SKIFF_ENFORCE(m < n || m == 0, kInvalidArgument, op, "paddings",
                    str("reflect paddings < the dim size (", n, " on axis ", i, ")"), paddings);
    } else if (mode == "replicate") {
      SKIFF_ENFORCE(n > 0 || m == 0, kInvalidArgument, op, "paddings",
                    str("no replicate padding of an empty axis (axis ", i, ")"), paddings);
    } else if (mode == "circular") {
      SKIFF_ENFORCE(m <= n, kInvalidArgument, op, "paddings",
                    str("circular paddings <= the dim size (", n, " on axis ", i, ")"), paddings);
    }
    d[i] = n + p[i].first + p[i].second;
  }
  *out = {x.dtype, d};
}

void tril_triu_meta(std::string_view op, const TensorMeta& x, int64_t, TensorMeta* out) {
  SKIFF_ENFORCE(x.dims.size() >= 2, kInvalidArgument, op, "x", "a tensor of rank >= 2", x.dims);
  *out = x;
}

void repeat_interleave_meta(std::string_view op, const TensorMeta& x, int64_t repeats, int64_t axis,
                            TensorMeta* out) {
  SKIFF_ENFORCE(repeats >= 0, kInvalidArgument, op, "repeats", "a value >= 0", repeats);
  const int a = axis_of(op, axis, x.dims.size());
  Dims d = x.dims.empty() ? Dims{1} : x.dims;
  d[a] *= repeats;
  *out = {x.dtype, d};
}

void repeat_interleave_with_tensor_index_meta(std::string_view op, const TensorMeta& x,
                                              const TensorMeta& repeats, int64_t axis,
                                              TensorMeta* out) {
  check_index_dtype(op, "repeats", repeats.dtype);
  const int a = axis_of(op, axis, x.dims.size());
  Dims d = x.dims.empty() ? Dims{1} : x.dims;
  SKIFF_ENFORCE(
      repeats.dims.size() <= 1 && (repeats.dims.numel() == d[a] || repeats.dims.numel() == 1),
      kInvalidArgument, op, "repeats",
      str("a 1-D tensor of ", d[a], " values (the size of axis ", a, ") or one value"),
      repeats.dims);
  d[a] = kDynamicDim;
  *out = {x.dtype, d};
}

void gather_meta(std::string_view op, const TensorMeta& x, const TensorMeta& index, int64_t axis,
                 TensorMeta* out) {
  check_index_dtype(op, "index", index.dtype);
  SKIFF_ENFORCE(index.dims.size() <= 1, kInvalidArgument, op, "index", "a 0-D or 1-D tensor",
                index.dims);
  SKIFF_ENFORCE(x.dims.size() > 0, kInvalidArgument, op, "x", "a tensor of rank >= 1", x.dims);
  const int a = axis_of(op, axis, x.dims.size());
  Dims d = x.dims;
  if (index.dims.empty()) {
    d.erase(a);
  } else {
    d[a] = index.dims[0];
  }
  *out = {x.dtype, d};
}

void gather_nd_meta(std::string_view op, const TensorMeta& x, const TensorMeta& index,
                    TensorMeta* out) {
  check_index_dtype(op, "index", index.dtype);
  SKIFF_ENFORCE(
      index.dims.size() >= 1 && index.dims.back() <= x.dims.size(), kInvalidArgument, op, "index",
      str("a tensor of rank >= 1 whose last dim is <= ", x.dims.size(), " (the rank of x)"),
      index.dims);
  Dims d;
  for (int i = 0; i + 1 < index.dims.size(); ++i) d.push_back(index.dims[i]);
  for (int i = static_cast<int>(index.dims.back()); i < x.dims.size(); ++i) d.push_back(x.dims[i]);
  *out = {x.dtype, d};
}

void index_select_meta(std::string_view op, const TensorMeta& x, const TensorMeta& index,
                       int64_t axis, TensorMeta* out) {
  check_index_dtype(op, "index", index.dtype);
  SKIFF_ENFORCE(index.dims.size() == 1, kInvalidArgument, op, "index", "a 1-D tensor", index.dims);
  SKIFF_ENFORCE(x.dims.size() > 0, kInvalidArgument, op, "x", "a tensor of rank >= 1", x.dims);
  const int a = axis_of(op, axis, x.dims.size());
  Dims d = x.dims;
  d[a] = index.dims[0];
  *out = {x.dtype, d};
}

namespace {
// Shape of the index space of take/put_along_axis: arr's dims, the axis dim from indices;
// indices broadcast into it.
Dims along_axis_dims(std::string_view op, const TensorMeta& arr, const TensorMeta& indices,
                     int64_t axis) {
  check_index_dtype(op, "indices", indices.dtype);
  SKIFF_ENFORCE(arr.dims.size() > 0, kInvalidArgument, op, "arr", "a tensor of rank >= 1",
                arr.dims);
  SKIFF_ENFORCE(indices.dims.size() == arr.dims.size(), kInvalidArgument, op, "indices",
                str("a tensor of rank ", arr.dims.size(), " (the rank of arr)"), indices.dims);
  const int a = axis_of(op, axis, arr.dims.size());
  Dims d = arr.dims;
  d[a] = indices.dims[a];
  for (int i = 0; i < d.size(); ++i) {
    SKIFF_ENFORCE(i == a || indices.dims[i] == d[i] || indices.dims[i] == 1, kInvalidArgument, op,
                  "indices", str("dims broadcastable to arr's ", arr.dims, " except on axis ", a),
                  indices.dims);
  }
  return d;
}
}  // namespace

void take_along_axis_meta(std::string_view op, const TensorMeta& arr, const TensorMeta& indices,
                          int64_t axis, TensorMeta* out) {
  *out = {arr.dtype, along_axis_dims(op, arr, indices, axis)};
}

void put_along_axis_meta(std::string_view op, const TensorMeta& arr, const TensorMeta& indices,
                         const TensorMeta& values, int64_t axis, const std::string& reduce, bool,
                         TensorMeta* out) {
  SKIFF_ENFORCE(reduce == "assign" || reduce == "add" || reduce == "mul" || reduce == "multiply" ||
                    reduce == "mean" || reduce == "amax" || reduce == "amin",
                kInvalidArgument, op, "reduce",
                "one of assign, add, mul, multiply, mean, amax, amin", reduce);
  check_same_dtype(op, "values", arr.dtype, values.dtype);
  const Dims d = along_axis_dims(op, arr, indices, axis);
  bool ok = values.dims.size() <= d.size();
  for (int i = 0; ok && i < values.dims.size(); ++i) {
    const int64_t v = values.dims[values.dims.size() - 1 - i], w = d[d.size() - 1 - i];
    ok = v == w || v == 1;
  }
  SKIFF_ENFORCE(ok, kInvalidArgument, op, "values", str("a shape broadcastable to ", d),
                values.dims);
  *out = arr;
}

void scatter_meta(std::string_view op, const TensorMeta& x, const TensorMeta& index,
                  const TensorMeta& updates, bool, TensorMeta* out) {
  check_index_dtype(op, "index", index.dtype);
  check_same_dtype(op, "updates", x.dtype, updates.dtype);
  SKIFF_ENFORCE(x.dims.size() > 0, kInvalidArgument, op, "x", "a tensor of rank >= 1", x.dims);
  SKIFF_ENFORCE(index.dims.size() <= 1, kInvalidArgument, op, "index", "a 0-D or 1-D tensor",
                index.dims);
  Dims want = x.dims;
  want[0] = index.dims.numel();
  if (index.dims.empty()) want.erase(0);
  SKIFF_ENFORCE(updates.dims == want, kInvalidArgument, op, "updates",
                str("dims ", want, " (index length, then x's trailing dims)"), updates.dims);
  *out = x;
}

void scatter_nd_add_meta(std::string_view op, const TensorMeta& x, const TensorMeta& index,
                         const TensorMeta& updates, TensorMeta* out) {
  TensorMeta want;
  gather_nd_meta(op, x, index, &want);
  check_same_dtype(op, "updates", x.dtype, updates.dtype);
  SKIFF_ENFORCE(updates.dims == want.dims, kInvalidArgument, op, "updates",
                str("dims ", want.dims, " (index.shape[:-1] + x.shape[index.shape[-1]:])"),
                updates.dims);
  *out = x;
}

void index_add_meta(std::string_view op, const TensorMeta& x, const TensorMeta& index, int64_t axis,
                    const TensorMeta& value, TensorMeta* out) {
  TensorMeta want;
  index_select_meta(op, x, index, axis, &want);
  check_same_dtype(op, "value", x.dtype, value.dtype);
  SKIFF_ENFORCE(value.dims == want.dims, kInvalidArgument, op, "value",
                str("dims ", want.dims, " (x's with the axis dim = len(index))"), value.dims);
  *out = x;
}

namespace {
Dims broadcast2(std::string_view op, const Dims& a, const Dims& b) {
  const int rank = std::max(a.size(), b.size());
  Dims out = Dims::filled(rank, 1);
  for (int i = 0; i < rank; ++i) {
    const int ia = i - (rank - a.size()), ib = i - (rank - b.size());
    const int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    SKIFF_ENFORCE(da == db || da == 1 || db == 1, kInvalidArgument, op, "mask",
                  str("a shape broadcastable with x ", a), b);
    out[i] = da == 1 ? db : da;
  }
  return out;
}
}  // namespace

void masked_fill_meta(std::string_view op, const TensorMeta& x, const TensorMeta& mask,
                      const Scalar&, TensorMeta* out) {
  SKIFF_ENFORCE(mask.dtype == DType::kBool, kTypeError, op, "mask", "bool", mask.dtype);
  *out = {x.dtype, broadcast2(op, x.dims, mask.dims)};
}

void masked_select_meta(std::string_view op, const TensorMeta& x, const TensorMeta& mask,
                        TensorMeta* out) {
  SKIFF_ENFORCE(mask.dtype == DType::kBool, kTypeError, op, "mask", "bool", mask.dtype);
  broadcast2(op, x.dims, mask.dims);
  *out = {x.dtype, Dims{kDynamicDim}};
}

void nonzero_meta(std::string_view, const TensorMeta& x, TensorMeta* out) {
  *out = {DType::kInt64, Dims{kDynamicDim, x.dims.size()}};
}

void topk_meta(std::string_view op, const TensorMeta& x, int64_t k, int64_t axis, bool, bool,
               TensorMeta* out, TensorMeta* indices) {
  const int a = axis_of(op, axis, x.dims.size());
  const int64_t n = x.dims.empty() ? 1 : x.dims[a];
  SKIFF_ENFORCE(k >= 0 && k <= n, kInvalidArgument, op, "k",
                str("a value in [0, ", n, "] (the size of axis ", a, ")"), k);
  Dims d = x.dims;
  if (!d.empty()) d[a] = k;
  *out = {x.dtype, d};
  *indices = {DType::kInt64, d};
}

void sort_meta(std::string_view op, const TensorMeta& x, int64_t axis, bool, bool,
               TensorMeta* out) {
  axis_of(op, axis, x.dims.size());
  *out = x;
}

void argsort_meta(std::string_view op, const TensorMeta& x, int64_t axis, bool descending,
                  bool stable, TensorMeta* out, TensorMeta* indices) {
  sort_meta(op, x, axis, descending, stable, out);
  *indices = {DType::kInt64, x.dims};
}

void unique_meta(std::string_view op, const TensorMeta& x, bool, bool, bool, const IntList& axis,
                 DType dtype, TensorMeta* out, TensorMeta* indices, TensorMeta* inverse,
                 TensorMeta* counts) {
  check_index_dtype(op, "dtype", dtype);
  SKIFF_ENFORCE(axis.size() <= 1, kInvalidArgument, op, "axis", "at most one axis", axis);
  if (axis.empty()) {
    *out = {x.dtype, Dims{kDynamicDim}};
    *inverse = {dtype, Dims{x.dims.numel()}};
  } else {
    SKIFF_ENFORCE(x.dims.size() > 0, kInvalidArgument, op, "x",
                  "a tensor of rank >= 1 when axis is given", x.dims);
    const int a = axis_of(op, axis[0], x.dims.size());
    Dims d = x.dims;
    d[a] = kDynamicDim;
    *out = {x.dtype, d};
    *inverse = {dtype, Dims{x.dims[a]}};
  }
  *indices = {dtype, Dims{kDynamicDim}};
  *counts = {dtype, Dims{kDynamicDim}};
}

}  // namespace skiff::ops::meta
