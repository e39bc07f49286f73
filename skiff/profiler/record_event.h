// RecordEvent: the scope everything in Skiff uses to feed the profiler. Usable from every
// layer (it depends on skiff_base only). While no profiler runs, constructing one costs a
// relaxed atomic load and nothing else; while one runs, the finished event goes to a
// thread-local buffer (no lock shared between threads on the way).
//
//   { profiler::RecordEvent ev("my range"); ... }                 // a user range
//   profiler::RecordEvent ev(name, profiler::EventType::kOperator);
//   if (ev.active()) ev.add_arg("input_shapes", "...");           // only build args if tracing
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include "skiff/profiler/event.h"

namespace skiff::profiler {

namespace detail {
enum Flags : uint32_t { kTracing = 1, kMemory = 2, kShapes = 4 };
inline std::atomic<uint32_t> g_flags{0};
}  // namespace detail

/// True while a profiler records host events (one relaxed atomic load).
inline bool is_enabled() {
  return (detail::g_flags.load(std::memory_order_relaxed) & detail::kTracing) != 0;
}
/// True while a profiler records allocator calls (profile_memory).
inline bool memory_enabled() {
  return (detail::g_flags.load(std::memory_order_relaxed) & detail::kMemory) != 0;
}
/// True while a profiler wants op input shapes and dtypes (record_shapes).
inline bool shapes_enabled() {
  return (detail::g_flags.load(std::memory_order_relaxed) & detail::kShapes) != 0;
}

/// Nanoseconds of the steady clock, the profiler's time base.
int64_t now_ns();

class RecordEvent {
 public:
  RecordEvent() = default;
  explicit RecordEvent(std::string_view name, EventType type = EventType::kUserDefined) {
    if (is_enabled()) [[unlikely]]
      begin(name, type);
  }
  ~RecordEvent() {
    if (active_) [[unlikely]]
      end();
  }
  RecordEvent(const RecordEvent&) = delete;
  RecordEvent& operator=(const RecordEvent&) = delete;

  /// Starts the range now (if a profiler runs); for scopes that are not C++ blocks (Python).
  /// `scoped` = false for a range that may end on another thread or out of order (Python's
  /// begin/end): it is then never the Operator event kernel selection tags.
  void begin(std::string_view name, EventType type = EventType::kUserDefined, bool scoped = true);
  /// Ends the range and records it; does nothing if it is not active.
  void end();
  bool active() const { return active_; }
  void add_arg(std::string key, std::string value);
  /// Tags an Operator event with its op id, so note_kernel() can find the op's own kernel.
  void set_op_id(int op_id) { op_id_ = op_id; }

 private:
  friend void note_kernel(int op_id, std::string kernel_name);
  bool active_ = false;
  EventType type_ = EventType::kUserDefined;
  int op_id_ = -1;
  int64_t start_ns_ = 0;
  int64_t kernel_start_ns_ = -1;
  std::string name_;
  std::string kernel_;
  EventArgs args_;
  RecordEvent* outer_op_ = nullptr;  // the Operator event this one is nested in
};

/// Kernel selection calls this (only while tracing): if the innermost Operator event of this
/// thread is op `op_id`, it is tagged with `kernel_name` and, when it ends, a Kernel event from
/// now to its end is recorded under it (the kernel, with output allocation).
void note_kernel(int op_id, std::string kernel_name);

/// Allocators call this (only while memory_enabled()).
void record_memory(MemEventType type, std::string_view place, const void* addr, int64_t bytes,
                   int64_t allocated, int64_t reserved, int64_t peak_allocated,
                   int64_t peak_reserved);

/// Names this thread in traces ("executor worker 1"); optional.
void set_thread_name(std::string name);

}  // namespace skiff::profiler
