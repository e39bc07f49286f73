// Shared helpers of the SPMD rule tests: meshes, specs and the error text of a failing call.
#pragma once

#include <string>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/dist/spmd/dist_attr.h"

namespace skiff::dist::spmd::testing {

inline ProcessMesh mesh_1d() { return ProcessMesh({4}); }                 // [0, 1, 2, 3]
inline ProcessMesh mesh_2d() { return ProcessMesh({2, 3}, {}, {"x", "y"}); }  // [[0,1,2],[3,4,5]]

inline DistTensorSpec spec(const ProcessMesh& mesh, std::vector<int64_t> shape,
                           std::vector<int64_t> dims_mapping) {
  return {std::move(shape), DistAttr(mesh, std::move(dims_mapping))};
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
