// The CPU fallback of plugin devices (the seed's AICPU case): an op with no kernel on the
// device, or none for its dtype, or whose kernel declines a call, runs on the CPU with its
// inputs copied to the host and its results copied back into the call's outputs. A one-time
// warning per (device, op, dtype) names the op, the dtype and the reason ("no emu_npu kernel
// for float64; running on CPU"); fallback_stats() counts fallbacks and their time so a slow
// path is easy to find. SKIFF_DEVICE_FALLBACK=error (or set_fallback_policy) makes every
// fallback an error instead; =silent drops the warnings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "skiff/core/place.h"
#include "skiff/ops/kernel_args_view.h"

namespace skiff::ops::plugin {

enum class FallbackPolicy { kWarn, kSilent, kError };
FallbackPolicy fallback_policy();
void set_fallback_policy(FallbackPolicy policy);
/// "warn", "silent", "error"; anything else is InvalidArgument.
FallbackPolicy parse_fallback_policy(const std::string& text);

/// Runs the call `view` of op `op` (kernel dtype `dtype`, inputs on `place`) on the CPU.
void run_on_cpu(OpId op, DType dtype, const Place& place, const KernelArgsView& view,
                const std::string& reason);

struct FallbackStat {
  std::string op;
  std::string device;  // device type, e.g. "emu_npu"
  std::string dtype;
  std::string reason;
  int64_t count = 0;
  double seconds = 0;  // wall time of the fallbacks, copies included
};
/// Every (device, op, dtype) that fell back since the start or the last reset, sorted by op.
std::vector<FallbackStat> fallback_stats();
void reset_fallback_stats();

}  // namespace skiff::ops::plugin
