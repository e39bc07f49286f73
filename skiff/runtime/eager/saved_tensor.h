// A tensor a VJP rule needs later. It remembers the data version at save time so that an
// in-place write before backward is caught, and it is released after backward (unless
// retain_graph), so a second backward fails with a clear message instead of reading freed data.
// A saved forward *output* keeps only its data (holding its autograd state would make the node
// own itself); unpack() re-attaches it to the node for higher-order gradients.
#pragma once

#include <memory>

#include "skiff/core/tensor.h"

namespace skiff::autograd {

class GradNode;

class SavedTensor {
 public:
  SavedTensor() = default;
  /// `output_nr` >= 0 marks a forward output of the node that saves it.
  SavedTensor(const Tensor& t, int output_nr = -1);

  /// The saved tensor; throws if released or modified in place since it was saved.
  Tensor unpack(const std::shared_ptr<GradNode>& owner, const char* node_name) const;
  void reset();

 private:
  Tensor tensor_;  // inputs: the tensor itself (with its autograd state)
  Tensor data_;    // outputs: a data-only copy of the tensor (detach)
  int output_nr_ = -1;
  uint32_t version_ = 0;
  bool saved_ = false;
  bool was_defined_ = false;
};

}  // namespace skiff::autograd
