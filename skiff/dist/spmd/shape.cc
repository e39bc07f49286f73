// Shape rules: transpose_spmd, reshape_spmd, expand_spmd, concat_spmd, split_spmd, slice_spmd,
// pad_spmd, roll_spmd.
#include <algorithm>

#include "skiff/base/error.h"
#include "skiff/dist/spmd/einsum.h"
#include "skiff/dist/spmd/rule_util.h"
#include "skiff/dist/spmd/rules.h"

namespace skiff::dist::spmd {

using detail::attr_on;

namespace {
// x's mapping with the dims in `dims` replicated.
std::vector<int64_t> replicate_dims(std::vector<int64_t> m, const std::vector<int64_t>& dims) {
  for (int64_t d : dims) m[static_cast<size_t>(d)] = kReplicated;
  return m;
}
}  // namespace

SpmdInfo transpose_spmd(const DistTensorSpec& x, const std::vector<int64_t>& perm) {
  constexpr std::string_view kRule = "transpose_spmd";
  detail::check_inputs(kRule, {{"x", &x}});
  const int64_t n = x.ndim();
  SKIFF_ENFORCE(static_cast<int64_t>(perm.size()) == n, kInvalidArgument, kRule, "perm",
                str(n, " entries (x's ndim)"), perm);
  std::vector<bool> seen(static_cast<size_t>(n), false);
  std::vector<int64_t> out(static_cast<size_t>(n));
  for (size_t i = 0; i < perm.size(); ++i) {
    const int64_t d = detail::normalize_axis(kRule, "perm", perm[i], n);
    SKIFF_ENFORCE(!seen[static_cast<size_t>(d)], kInvalidArgument, kRule, "perm",
                  "a permutation of x's dims", perm);
    seen[static_cast<size_t>(d)] = true;
    out[i] = x.dims_mapping()[static_cast<size_t>(d)];
  }
  return {{attr_on(x, x.dims_mapping())}, {attr_on(x, out)}};
}

namespace {
constexpr std::string_view kReshape = "reshape_spmd";

// `shape` with 0 copied from x and one -1 inferred, as paddle.reshape does. A dynamic dim of x
// (-1) must be copied by a 0 at its position; such pairs are left out of the element count.
std::vector<int64_t> resolve_shape(const std::vector<int64_t>& in, std::vector<int64_t> shape) {
  int64_t numel = 1;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] >= 0) {
      numel *= in[i];
      continue;
    }
    SKIFF_ENFORCE(i < shape.size() && shape[i] == 0, kInvalidArgument, kReshape, "shape",
                  str("0 (copy) at each dynamic dim of x ", str(in)), shape);
  }
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) {
      SKIFF_ENFORCE(i < in.size(), kInvalidArgument, kReshape, "shape",
                    "0 (copy x's dim) only at dims x has", shape);
      shape[i] = in[i];
      if (in[i] < 0) continue;  // a copied dynamic dim
    } else if (shape[i] == -1) {
      SKIFF_ENFORCE(infer < 0, kInvalidArgument, kReshape, "shape", "at most one -1", shape);
      infer = static_cast<int64_t>(i);
      continue;
    }
    SKIFF_ENFORCE(shape[i] >= 0, kInvalidArgument, kReshape, "shape", "sizes >= 0, 0 or one -1",
                  shape);
    known *= shape[i];
  }
  if (infer >= 0) {
    SKIFF_ENFORCE(known > 0 && numel % known == 0, kInvalidArgument, kReshape, "shape",
                  str("a shape whose -1 can hold ", numel, " elements"), shape);
    shape[static_cast<size_t>(infer)] = numel / known;
    known = numel;
  }
  SKIFF_ENFORCE(known == numel, kInvalidArgument, kReshape, "shape",
                str("a shape of ", numel, " elements (x's shape ", str(in), ")"), shape);
  return shape;
}
}  // namespace

SpmdInfo reshape_spmd(const DistTensorSpec& x, const std::vector<int64_t>& shape_attr) {
  detail::check_inputs(kReshape, {{"x", &x}});
  const std::vector<int64_t>& src = x.shape;
  const std::vector<int64_t> tgt = resolve_shape(src, shape_attr);
  const std::vector<int64_t>& xm = x.dims_mapping();
  const std::vector<int64_t>& mesh = x.process_mesh().shape();
  std::vector<int64_t> in_map(src.size(), kReplicated), out_map(tgt.size(), kReplicated);
  bool empty = false;
  for (int64_t s : src) empty = empty || s == 0;
  size_t i = 0, j = 0;
  while (!empty && (i < src.size() || j < tgt.size())) {
    if (i < src.size() && j < tgt.size() && src[i] == tgt[j]) {  // one to one (size 1 too)
      in_map[i] = out_map[j] = xm[i];
      ++i, ++j;
      continue;
    }
    if (i < src.size() && src[i] == 1) {  // a dropped size-1 dim
      ++i;
      continue;
    }
    if (j < tgt.size() && tgt[j] == 1) {  // a new size-1 dim
      ++j;
      continue;
    }
    // A run of equal element count: src[i0, i) merged, then split into tgt[j0, j).
    const size_t i0 = i, j0 = j;
    int64_t a = src[i++], b = tgt[j++];
    while (a != b) {
      // a dynamic dim (-1) inside a run: its size, hence the run, is unknown
      SKIFF_ENFORCE(a > 0 && b > 0, kInvalidArgument, kReshape, "shape",
                    str("dynamic dims of x ", str(src), " kept at their positions"), tgt);
      if (a < b) {
        a *= src[i++];
      } else {
        b *= tgt[j++];
      }
    }
    const int64_t m = xm[i0];
    if (m >= 0 && src[i0] % mesh[static_cast<size_t>(m)] == 0 &&
        tgt[j0] % mesh[static_cast<size_t>(m)] == 0) {
      in_map[i0] = out_map[j0] = m;
    }
  }
  return {{attr_on(x, in_map)}, {attr_on(x, out_map)}};
}

SpmdInfo expand_spmd(const DistTensorSpec& x, const std::vector<int64_t>& shape) {
  constexpr std::string_view kRule = "expand_spmd";
  detail::check_inputs(kRule, {{"x", &x}});
  const int64_t n = x.ndim(), m = static_cast<int64_t>(shape.size());
  SKIFF_ENFORCE(m >= n, kInvalidArgument, kRule, "shape", str("at least ", n, " dims (x's ndim)"),
                shape);
  std::vector<int64_t> in = x.dims_mapping(), out(static_cast<size_t>(m), kReplicated);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t size = x.shape[static_cast<size_t>(i)];
    const int64_t want = shape[static_cast<size_t>(m - n + i)];
    SKIFF_ENFORCE(want == -1 || want == size || size == 1, kInvalidArgument, kRule, "shape",
                  str("a shape x ", str(x.shape), " broadcasts to"), shape);
    // A size-1 dim that grows is copied on every process: it cannot stay sharded.
    if (size == 1 && want != 1 && want != -1) {
      in[static_cast<size_t>(i)] = kReplicated;
      continue;
    }
    out[static_cast<size_t>(m - n + i)] = in[static_cast<size_t>(i)];
  }
  return {{attr_on(x, in)}, {attr_on(x, out)}};
}

SpmdInfo concat_spmd(const std::vector<DistTensorSpec>& x, int64_t axis) {
  constexpr std::string_view kRule = "concat_spmd";
  SKIFF_ENFORCE(!x.empty(), kInvalidArgument, kRule, "x", "at least one tensor", "none");
  std::vector<std::string> names;
  for (size_t k = 0; k < x.size(); ++k) names.push_back(str("x[", k, "]"));
  std::vector<std::pair<std::string_view, const DistTensorSpec*>> checked;
  for (size_t k = 0; k < x.size(); ++k) checked.push_back({names[k], &x[k]});
  detail::check_inputs(kRule, checked);
  const int64_t n = x.front().ndim();
  for (size_t k = 0; k < x.size(); ++k) {
    SKIFF_ENFORCE(x[k].ndim() == n, kInvalidArgument, kRule, names[k], str(n, " dims (as x[0])"),
                  x[k].ndim());
  }
  SKIFF_ENFORCE(n >= 1, kInvalidArgument, kRule, "x", "tensors of at least 1 dim", "0 dims");
  const int64_t a = detail::normalize_axis(kRule, "axis", axis, n);
  std::string letters = dim_letters(kRule, n);
  letters[static_cast<size_t>(a)] = '1';
  std::vector<LetteredMapping> ops;
  for (size_t k = 0; k < x.size(); ++k) ops.push_back({names[k], letters, x[k].dims_mapping()});
  const std::vector<int64_t> merged = dims_mapping_for(letters, merge_shardings(kRule, ops));
  SpmdInfo info;
  for (const DistTensorSpec& t : x) info.inputs.push_back(attr_on(t, merged));
  info.outputs.push_back(attr_on(x.front(), merged));
  return info;
}

SpmdInfo split_spmd(const DistTensorSpec& x, int64_t num_outputs, int64_t axis) {
  constexpr std::string_view kRule = "split_spmd";
  detail::check_inputs(kRule, {{"x", &x}});
  SKIFF_ENFORCE(x.ndim() >= 1, kInvalidArgument, kRule, "x", "a tensor of at least 1 dim",
                "0 dims");
  SKIFF_ENFORCE(num_outputs >= 1, kInvalidArgument, kRule, "num_outputs", "at least 1",
                num_outputs);
  const int64_t a = detail::normalize_axis(kRule, "axis", axis, x.ndim());
  const std::vector<int64_t> m = replicate_dims(x.dims_mapping(), {a});
  SpmdInfo info{{attr_on(x, m)}, {}};
  for (int64_t k = 0; k < num_outputs; ++k) info.outputs.push_back(attr_on(x, m));
  return info;
}

SpmdInfo slice_spmd(const DistTensorSpec& input, const std::vector<int64_t>& axes,
                    const std::vector<int64_t>& decrease_axis) {
  constexpr std::string_view kRule = "slice_spmd";
  detail::check_inputs(kRule, {{"input", &input}});
  const int64_t n = input.ndim();
  std::vector<int64_t> sliced, dropped;
  for (int64_t a : axes) sliced.push_back(detail::normalize_axis(kRule, "axes", a, n));
  for (int64_t a : decrease_axis) {
    dropped.push_back(detail::normalize_axis(kRule, "decrease_axis", a, n));
  }
  const std::vector<int64_t> in = replicate_dims(input.dims_mapping(), sliced);
  std::vector<int64_t> out;
  for (int64_t d = 0; d < n; ++d) {
    if (std::find(dropped.begin(), dropped.end(), d) == dropped.end()) {
      out.push_back(in[static_cast<size_t>(d)]);
    }
  }
  return {{attr_on(input, in)}, {attr_on(input, out)}};
}

SpmdInfo pad_spmd(const DistTensorSpec& x, const std::vector<int64_t>& paddings) {
  constexpr std::string_view kRule = "pad_spmd";
  detail::check_inputs(kRule, {{"x", &x}});
  const int64_t n = x.ndim();
  const int64_t k = static_cast<int64_t>(paddings.size());
  SKIFF_ENFORCE(k % 2 == 0 && k <= 2 * n, kInvalidArgument, kRule, "paddings",
                str("an even number of values, at most ", 2 * n, " (2 * rank)"), paddings);
  std::vector<int64_t> padded;
  for (int64_t p = 0; p < k / 2; ++p) {
    if (paddings[static_cast<size_t>(2 * p)] == 0 && paddings[static_cast<size_t>(2 * p + 1)] == 0)
      continue;
    padded.push_back(k == 2 * n ? p : n - 1 - p);  // a short list pads the last dims first
  }
  const std::vector<int64_t> m = replicate_dims(x.dims_mapping(), padded);
  return {{attr_on(x, m)}, {attr_on(x, m)}};
}

SpmdInfo roll_spmd(const DistTensorSpec& x, const std::vector<int64_t>& shifts,
                   const std::vector<int64_t>& axis) {
  constexpr std::string_view kRule = "roll_spmd";
  detail::check_inputs(kRule, {{"x", &x}});
  const int64_t n = x.ndim();
  if (axis.empty()) {
    SKIFF_ENFORCE(shifts.size() == 1, kInvalidArgument, kRule, "shifts",
                  "one shift when axis is empty (the flattened tensor rolls)", shifts);
    const DistAttr all = DistAttr::replicated(x.process_mesh(), n);
    return {{all}, {all}};
  }
  SKIFF_ENFORCE(shifts.size() == axis.size(), kInvalidArgument, kRule, "shifts",
                str(axis.size(), " values (one per axis)"), shifts);
  std::vector<int64_t> rolled;
  for (int64_t a : axis) rolled.push_back(detail::normalize_axis(kRule, "axis", a, n));
  const std::vector<int64_t> m = replicate_dims(x.dims_mapping(), rolled);
  return {{attr_on(x, m)}, {attr_on(x, m)}};
}

}  // namespace skiff::dist::spmd
