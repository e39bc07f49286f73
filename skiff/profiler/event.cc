#include "skiff/profiler/event.h"

#include <array>

namespace skiff::profiler {

namespace {
constexpr std::array<std::string_view, kNumEventTypes> kTypeNames = {
    "Operator",      "Dataloader",  "ProfileStep",       "CudaRuntime", "Kernel",   "Memcpy",
    "Memset",        "UserDefined", "OperatorInner",     "Forward",     "Backward", "Optimization",
    "Communication", "PythonOp",    "PythonUserDefined", "IrPass",
};
constexpr std::array<std::string_view, 4> kMemNames = {"Allocate", "Free", "ReservedAllocate",
                                                       "ReservedFree"};
}  // namespace

std::string_view event_type_name(EventType type) { return kTypeNames[static_cast<int>(type)]; }

bool parse_event_type(std::string_view name, EventType* type) {
  for (size_t i = 0; i < kTypeNames.size(); ++i) {
    if (kTypeNames[i] == name) {
      *type = static_cast<EventType>(i);
      return true;
    }
  }
  return false;
}

std::string_view mem_event_type_name(MemEventType type) {
  return kMemNames[static_cast<int>(type)];
}

bool parse_mem_event_type(std::string_view name, MemEventType* type) {
  for (size_t i = 0; i < kMemNames.size(); ++i) {
    if (kMemNames[i] == name) {
      *type = static_cast<MemEventType>(i);
      return true;
    }
  }
  return false;
}

}  // namespace skiff::profiler
