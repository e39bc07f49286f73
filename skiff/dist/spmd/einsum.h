// The einsum-letter machinery most SPMD rules are written with (Paddle's spmd_rules/utils.cc):
// each tensor dim gets a letter ("bmk", "kn" -> "bmn"), the shardings of each letter are merged
// across the inputs, and every tensor's dims_mapping is rebuilt from the merged letter -> mesh
// axis map. The letter '1' marks a broadcast (size-1) dim: it is never sharded.
//
// Note [Sharding merge conflicts]: two inputs sharding one letter on different mesh axes is an
// Unimplemented error, as in Paddle's ShardingMergeForAxis (a cost model would have to choose);
// a replicated side adopts the other's sharding. One mesh axis sharding several letters is
// resolved by keeping the letter met first (inputs in argument order, letters left to right)
// and replicating the others, as ShardingMergeForTensors does.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "skiff/dist/spmd/dist_attr.h"

namespace skiff::dist::spmd {

/// Letter -> mesh axis (-1 for replicated).
using AxisMap = std::map<char, int64_t>;

/// One tensor's letters with its dims_mapping; `name` is the argument named by errors.
struct LetteredMapping {
  std::string_view name;
  std::string letters;
  std::vector<int64_t> dims_mapping;
};

/// The first `n` letters of the alphabet used for generic dims ("abcd...", 26 at most; more is
/// InvalidArgument naming `rule`).
std::string dim_letters(std::string_view rule, int64_t n);

/// Merges the shardings of every letter across `operands` (Note [Sharding merge conflicts]).
AxisMap merge_shardings(std::string_view rule, const std::vector<LetteredMapping>& operands);

/// The dims_mapping of a tensor with `letters`: the merged axis of each letter, -1 for '1' and
/// for letters the map lacks.
std::vector<int64_t> dims_mapping_for(std::string_view letters, const AxisMap& map);

/// Mesh axes of the letters in `in_letters` that are sharded but absent from `out_letters`: an
/// output computed from such a contraction holds partial sums (Paddle's
/// ResoluteOutputPartialDimension).
std::map<int64_t, ReduceType> partial_for(std::string_view in_letters, std::string_view out_letters,
                                          const AxisMap& map, ReduceType type = ReduceType::kRedSum);

/// Copies `map` with the letters in `letters` replicated.
AxisMap replicate_letters(AxisMap map, std::string_view letters);

}  // namespace skiff::dist::spmd
