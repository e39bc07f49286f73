// Autograd rules for in-place ops (Paddle/PyTorch semantics), called by the generated in-place
// Tensor API (`add_`, `relu_`, ...):
// - in grad mode, writing into a leaf that requires grad is an error (its gradient would refer
//   to a value that no longer exists); under no_grad it is allowed and costs nothing extra
//   (what optimizers and initializers do);
// - writing into a non-leaf makes the op's grad node the tensor's new history ("rebase");
// - a saved tensor that was overwritten is caught when backward unpacks it (version check);
// - views: in grad mode, writing through a view of a tensor that requires grad is refused, and a
//   view whose base was written in place after the view was made cannot be used by a recorded op
//   any more (its history would describe the old values). We chose a clear error over
//   PyTorch's CopySlices: it keeps every grad node's inputs immutable.
#pragma once

#include <vector>

#include "skiff/core/tensor.h"

namespace skiff::autograd {

/// Errors (in grad mode) when `t` may not be written in place; `op`/`arg` name the call.
void check_inplace(const char* op, const char* arg, const Tensor& t);
void check_inplace(const char* op, const char* arg, const std::vector<Tensor>& ts);

/// After an in-place write that recorded no grad node (a non-differentiable op, e.g. fill_):
/// in grad mode, a tensor that required grad no longer depends on its history.
void cut_history(const Tensor& t);
void cut_history(const std::vector<Tensor>& ts);

/// Marks the recorded output(s) of a view op when they share `base`'s storage.
void mark_view(const Tensor& view, const Tensor& base);
void mark_view(const std::vector<Tensor>& views, const Tensor& base);

/// A stand-in with `t`'s dtype, dims and strides but no data (and so no version to check), for
/// a VJP rule that reads only the metadata of an input an in-place op overwrote: later in-place
/// writes (x.add_(a).add_(b)) must not invalidate it.
Tensor meta_only(const Tensor& t);

/// Errors if `t` is a view whose data was written in place after the view was recorded.
void check_view_current(const Tensor& t, const char* node_name);

}  // namespace skiff::autograd
