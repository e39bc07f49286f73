// Shared helpers of the SPMD rule tests: meshes, specs, the expected layouts of a result and the
// error text of a failing call.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/dist/spmd/dist_attr.h"

namespace skiff::dist::spmd::testing {

inline ProcessMesh mesh_1d() { return ProcessMesh({4}); }                     // [0, 1, 2, 3]
inline ProcessMesh mesh_2d() { return ProcessMesh({2, 3}, {}, {"x", "y"}); }  // [[0,1,2],[3,4,5]]

inline DistTensorSpec spec(const ProcessMesh& mesh, std::vector<int64_t> shape,
                           std::vector<int64_t> dims_mapping) {
  return {std::move(shape), DistAttr(mesh, std::move(dims_mapping))};
}

/// Checks the dims_mapping of each inferred input (never partial) and output, then the outputs'
/// partial axes (none where `out_partial` has no entry).
inline void expect(const SpmdInfo& info, const std::vector<std::vector<int64_t>>& ins,
                   const std::vector<std::vector<int64_t>>& outs,
                   const std::vector<std::vector<int64_t>>& out_partial = {}) {
  ASSERT_EQ(info.inputs.size(), ins.size());
  ASSERT_EQ(info.outputs.size(), outs.size());
  for (size_t i = 0; i < ins.size(); ++i) {
    EXPECT_EQ(info.inputs[i].dims_mapping(), ins[i]) << "input " << i;
    EXPECT_FALSE(info.inputs[i].is_partial()) << "input " << i;
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    EXPECT_EQ(info.outputs[i].dims_mapping(), outs[i]) << "output " << i;
    EXPECT_EQ(info.outputs[i].partial_axes(),
              i < out_partial.size() ? out_partial[i] : std::vector<int64_t>{})
        << "output " << i;
  }
}

/// The message of the skiff::Error `fn` throws ("(InvalidArgument) rule: argument ..."), "no
/// error" otherwise.
inline std::string error_of(auto&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace skiff::dist::spmd::testing
