// Indexing rules: put_along_axis_spmd, index_add_spmd (the backward of cross_entropy and of
// embedding call them).
#include <string>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/dist/spmd/einsum.h"
#include "skiff/dist/spmd/rule_util.h"
#include "skiff/dist/spmd/rules.h"

namespace skiff::dist::spmd {

using detail::attr_on;

SpmdInfo put_along_axis_spmd(const DistTensorSpec& arr, const DistTensorSpec& indices,
                             const DistTensorSpec& values, int64_t axis) {
  constexpr std::string_view kRule = "put_along_axis_spmd";
  detail::check_inputs(kRule, {{"arr", &arr}, {"indices", &indices}, {"values", &values}});
  const int64_t n = arr.ndim();
  SKIFF_ENFORCE(indices.ndim() == n, kInvalidArgument, kRule, "indices", str(n, " dims (arr's)"),
                indices.shape);
  SKIFF_ENFORCE(values.ndim() <= n, kInvalidArgument, kRule, "values",
                str("at most ", n, " dims (broadcast to indices)"), values.shape);
  const auto a = static_cast<size_t>(detail::normalize_axis(kRule, "axis", axis, n));
  // A letter per dim; the axis, and dims where indices cover only part of arr, replicated.
  std::string letters = dim_letters(kRule, n);
  std::string arr_letters = letters;
  arr_letters[a] = '1';
  for (size_t d = 0; d < letters.size(); ++d) {
    if (indices.shape[d] != arr.shape[d]) arr_letters[d] = '1';
  }
  std::string idx_letters = arr_letters;
  // values broadcast to indices from the right: a size-1 (or missing) dim is never sharded
  std::string val_letters = idx_letters.substr(static_cast<size_t>(n - values.ndim()));
  for (size_t d = 0; d < val_letters.size(); ++d) {
    const size_t id = d + static_cast<size_t>(n - values.ndim());
    if (values.shape[d] != indices.shape[id]) val_letters[d] = '1';
  }
  const AxisMap map = merge_shardings(kRule, {{"arr", arr_letters, arr.dims_mapping()},
                                              {"indices", idx_letters, indices.dims_mapping()},
                                              {"values", val_letters, values.dims_mapping()}});
  const DistAttr out = attr_on(arr, dims_mapping_for(arr_letters, map));
  return {{out, attr_on(arr, dims_mapping_for(idx_letters, map)),
           attr_on(arr, dims_mapping_for(val_letters, map))},
          {out}};
}

SpmdInfo index_add_spmd(const DistTensorSpec& x, const DistTensorSpec& index, int64_t axis,
                        const DistTensorSpec& value) {
  constexpr std::string_view kRule = "index_add_spmd";
  detail::check_inputs(kRule, {{"x", &x}, {"index", &index}, {"value", &value}});
  const int64_t n = x.ndim();
  SKIFF_ENFORCE(n >= 1 && n <= 25, kInvalidArgument, kRule, "x", "a tensor of 1 to 25 dims",
                x.shape);
  SKIFF_ENFORCE(index.ndim() == 1, kInvalidArgument, kRule, "index", "a 1-d tensor", index.shape);
  SKIFF_ENFORCE(value.ndim() == n, kInvalidArgument, kRule, "value", str(n, " dims (x's)"),
                value.shape);
  const auto a = static_cast<size_t>(detail::normalize_axis(kRule, "axis", axis, n));
  // x's axis letter is never sharded (each index may land anywhere); value's axis dim is the
  // index's letter z
  std::string x_letters = dim_letters(kRule, n);
  std::string value_letters = x_letters;
  x_letters[a] = '1';
  value_letters[a] = 'z';
  const AxisMap map = merge_shardings(kRule, {{"x", x_letters, x.dims_mapping()},
                                              {"index", "z", index.dims_mapping()},
                                              {"value", value_letters, value.dims_mapping()}});
  // A sharded z: each process adds its rows of value, so out holds partial sums, and x, to be
  // counted once, enters as Partial too (kept by one process, zeros elsewhere).
  const auto partial = partial_for("z", x_letters, map);
  DistAttr x_attr = attr_on(x, dims_mapping_for(x_letters, map), partial);
  return {{x_attr, attr_on(x, dims_mapping_for("z", map)),
           attr_on(x, dims_mapping_for(value_letters, map))},
          {attr_on(x, dims_mapping_for(x_letters, map), partial)}};
}

}  // namespace skiff::dist::spmd
