// The capture switch of the generated Tensor API (api_<family>.cc): while a CaptureScope is
// active on this thread, every op call appends an IR op instead of running a kernel. Kept tiny
// because every eager op call reads it (one thread-local load).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "skiff/core/tensor.h"
#include "skiff/ops/op_schema.h"

namespace skiff::jit {

class CaptureScope;
namespace detail {
extern thread_local CaptureScope* t_capture;
}

inline bool capturing() { return detail::t_capture != nullptr; }

/// Appends op `name` to the program being captured. Inputs per tensor argument (as call_op);
/// symbolic inputs are its values, dense ones become parameters of the program. Returns symbolic
/// tensors per output.
std::vector<std::vector<Tensor>> capture_op(std::string_view name,
                                            const std::vector<std::vector<Tensor>>& inputs,
                                            const std::map<std::string, ops::AttrValue>& attrs);

}  // namespace skiff::jit
