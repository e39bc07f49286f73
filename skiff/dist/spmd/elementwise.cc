// elementwise_unary_spmd, elementwise_binary_spmd.
#include <algorithm>

#include "skiff/dist/spmd/einsum.h"
#include "skiff/dist/spmd/rule_util.h"
#include "skiff/dist/spmd/rules.h"

namespace skiff::dist::spmd {

using detail::attr_on;

SpmdInfo elementwise_unary_spmd(const DistTensorSpec& x) {
  detail::check_inputs("elementwise_unary_spmd", {{"x", &x}});
  return {{attr_on(x, x.dims_mapping())}, {attr_on(x, x.dims_mapping())}};
}

namespace {
// The letters of `shape` right-aligned to `out_shape`'s letters; a size-1 dim against a larger
// broadcast dim becomes '1'.
std::string broadcast_letters(const std::string& out_letters, const std::vector<int64_t>& out_shape,
                              const std::vector<int64_t>& shape) {
  const size_t off = out_letters.size() - shape.size();
  std::string letters = out_letters.substr(off);
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1 && out_shape[off + i] != 1) letters[i] = '1';
  }
  return letters;
}

// The broadcast shape of `shapes` (-1, a dynamic dim, counts as not 1).
std::vector<int64_t> broadcast_shape(const std::vector<const std::vector<int64_t>*>& shapes) {
  size_t n = 0;
  for (const auto* s : shapes) n = std::max(n, s->size());
  std::vector<int64_t> out(n, 1);
  for (const auto* s : shapes) {
    const size_t off = n - s->size();
    for (size_t i = 0; i < s->size(); ++i) {
      if ((*s)[i] != 1) out[off + i] = (*s)[i];
    }
  }
  return out;
}
}  // namespace

namespace detail {
// Shared with where_spmd: merges right-aligned broadcast operands into one output.
SpmdInfo broadcast_spmd(std::string_view rule,
                        const std::vector<std::pair<std::string_view, const DistTensorSpec*>>& ins) {
  check_inputs(rule, ins);
  std::vector<const std::vector<int64_t>*> shapes;
  for (const auto& in : ins) shapes.push_back(&in.second->shape);
  const std::vector<int64_t> out_shape = broadcast_shape(shapes);
  const std::string out_letters = dim_letters(rule, static_cast<int64_t>(out_shape.size()));
  std::vector<LetteredMapping> ops;
  for (const auto& [name, spec] : ins) {
    ops.push_back({name, broadcast_letters(out_letters, out_shape, spec->shape), spec->dims_mapping()});
  }
  const AxisMap map = merge_shardings(rule, ops);
  SpmdInfo info;
  for (size_t i = 0; i < ins.size(); ++i) {
    info.inputs.push_back(attr_on(*ins[i].second, dims_mapping_for(ops[i].letters, map)));
  }
  info.outputs.push_back(attr_on(*ins[0].second, dims_mapping_for(out_letters, map)));
  return info;
}
}  // namespace detail

SpmdInfo elementwise_binary_spmd(const DistTensorSpec& x, const DistTensorSpec& y) {
  return detail::broadcast_spmd("elementwise_binary_spmd", {{"x", &x}, {"y", &y}});
}

}  // namespace skiff::dist::spmd

namespace skiff::dist::spmd {

SpmdInfo where_spmd(const DistTensorSpec& condition, const DistTensorSpec& x,
                    const DistTensorSpec& y) {
  return detail::broadcast_spmd("where_spmd", {{"condition", &condition}, {"x", &x}, {"y", &y}});
}

}  // namespace skiff::dist::spmd
