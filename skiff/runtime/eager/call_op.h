// Calling any op by name on Tensors, through the whole dispatch chain (autograd included).
// Generic tests (gradient checks over the op table) and the Python binding use this.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "skiff/core/tensor.h"
#include "skiff/ops/op_schema.h"

namespace skiff {

using TensorLists = std::vector<std::vector<Tensor>>;

/// Inputs per tensor argument (a list of one for Tensor, zero or one for Tensor?); attributes
/// by name (missing ones take the record's defaults). Returns tensors per output.
TensorLists call_op(std::string_view name, const TensorLists& inputs,
                    const std::map<std::string, ops::AttrValue>& attrs = {});

}  // namespace skiff
