// What the profiler records: host events (a named time range on one thread, with a type and a
// few string arguments) and memory events (one allocator call with the live byte counts after
// it). The types follow Paddle's TracerEventType, so summaries and traces read the same.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace skiff::profiler {

enum class EventType : uint8_t {
  kOperator,     // an op call (eager dispatch, an executor instruction, a grad node)
  kDataloader,   // waiting for a DataLoader batch
  kProfileStep,  // one Profiler.step() interval
  kCudaRuntime,
  kKernel,  // the kernel of an op (selection, output allocation, the kernel itself)
  kMemcpy,
  kMemset,
  kUserDefined,    // a C++ RecordEvent range
  kOperatorInner,  // a phase inside an op
  kForward,        // a Layer's forward
  kBackward,       // a whole backward() / grad() call
  kOptimization,   // an optimizer step
  kCommunication,
  kPythonOp,
  kPythonUserDefined,  // a Python RecordEvent range
  kIrPass,             // one pass of a PassManager pipeline
};
inline constexpr int kNumEventTypes = 16;

/// Paddle's spelling ("Operator", "ProfileStep", ...): the trace's "cat" and the summary rows.
std::string_view event_type_name(EventType type);
/// The inverse of event_type_name; false when `name` is none of them.
bool parse_event_type(std::string_view name, EventType* type);

enum class MemEventType : uint8_t { kAllocate, kFree, kReservedAllocate, kReservedFree };
std::string_view mem_event_type_name(MemEventType type);
bool parse_mem_event_type(std::string_view name, MemEventType* type);

using EventArgs = std::vector<std::pair<std::string, std::string>>;

struct HostEvent {
  std::string name;
  EventType type = EventType::kUserDefined;
  int64_t start_ns = 0;  // steady clock
  int64_t end_ns = 0;
  uint64_t tid = 0;
  EventArgs args;
};

struct MemEvent {
  int64_t ts_ns = 0;
  uint64_t tid = 0;
  MemEventType type = MemEventType::kAllocate;
  std::string place;
  uint64_t addr = 0;
  int64_t bytes = 0;  // the block's size (positive for frees too)
  // The allocator's counters right after the call.
  int64_t allocated = 0;
  int64_t reserved = 0;
  int64_t peak_allocated = 0;
  int64_t peak_reserved = 0;
};

}  // namespace skiff::profiler
