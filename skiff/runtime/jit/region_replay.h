// Replaying a captured region through the op API, for autodiff through cf.if / cf.while.
//
// The backward of a cf op runs its branch or loop body again while autograd records. Calling the
// user's function again would be unsafe: a C++ lambda may reference locals that are gone, and a
// Python closure sees variables rebound since (its gradient would silently be wrong). So a region
// is recorded once, right after its capture, as a RegionRecipe: the op calls of its block (record
// name, attributes, the values each reads and makes), nested cf ops as nested recipes, and the
// outer tensors it reads (its free variables). Replaying calls the same ops through the op API on
// tensors: the capture appends them again and autograd records them, as on the first run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "skiff/core/tensor.h"
#include "skiff/ir/core/block.h"
#include "skiff/runtime/jit/capture.h"

namespace skiff::jit {

struct RegionRecipe;
using RecipePtr = std::shared_ptr<const RegionRecipe>;

/// Records the ops of `block` (a region of a cf op, fully captured). `outer` names the tensor of
/// every value the region reads from outside (its free variables, CaptureScope::pop_region).
RecipePtr record_region(ir::Block* block, const std::vector<CaptureScope::FreeVariable>& outer);

/// The tensors the recipe reads from outside, in `outer` order.
const std::vector<Tensor>& free_tensors(const RegionRecipe& r);

/// The name of a random op in the recipe (dropout...), or "": replaying it draws new values,
/// so a backward that replays it would not see the forward's draws.
const std::string& random_op_in(const RegionRecipe& r);

/// Runs the recorded ops again (while capturing) with `args` for the block arguments, and returns
/// the values its cf.yield yields.
std::vector<Tensor> replay(const RecipePtr& r, const std::vector<Tensor>& args = {});

}  // namespace skiff::jit
