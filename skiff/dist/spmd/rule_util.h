// Helpers shared by the rule files (not part of the public API).
#pragma once

#include <cstdint>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "skiff/dist/spmd/dist_attr.h"

namespace skiff::dist::spmd::detail {

/// Validates every (name, spec) and that all share the first one's mesh.
void check_inputs(std::string_view rule,
                  const std::vector<std::pair<std::string_view, const DistTensorSpec*>>& inputs);

/// `axis` in [-ndim, ndim) normalized to [0, ndim); InvalidArgument naming `rule`/`arg` otherwise.
int64_t normalize_axis(std::string_view rule, std::string_view arg, int64_t axis, int64_t ndim);

/// Right-aligned broadcasting merge of `inputs` into one output (elementwise_binary_spmd,
/// where_spmd).
SpmdInfo broadcast_spmd(std::string_view rule,
                        const std::vector<std::pair<std::string_view, const DistTensorSpec*>>& inputs);

/// A DistAttr on `like`'s mesh.
inline DistAttr attr_on(const DistTensorSpec& like, std::vector<int64_t> dims_mapping,
                        std::map<int64_t, ReduceType> partial = {}) {
  return DistAttr(like.process_mesh(), std::move(dims_mapping), std::move(partial));
}

}  // namespace skiff::dist::spmd::detail
