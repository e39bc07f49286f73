// The profiler: a session collects the events every thread's RecordEvents produced between
// start and stop into a ProfilerResult, which exports a Chrome trace (Perfetto and
// chrome://tracing load it), prints Paddle-style summary tables, and loads back from a trace.
//
//   profiler::Profiler p({.record_shapes = true, .profile_memory = true});
//   p.start();
//   for (int i = 0; i < 4; ++i) { train_step(); p.step(); }
//   profiler::ProfilerResult r = p.stop();
//   r.save("trace.json");
//   std::cout << r.summary();
//
// One session at a time per process. Python's paddle.profiler.Profiler runs its scheduler on top
// of start_session/stop_session and records the ProfileStep ranges itself.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "skiff/profiler/event.h"
#include "skiff/profiler/record_event.h"

namespace skiff::profiler {

struct ProfilerOptions {
  bool record_shapes = false;   // op events carry input shapes and dtypes
  bool profile_memory = false;  // allocator calls are recorded
};

/// Paddle's SortedKeys.
enum class SortedBy { kCPUTotal, kCPUAvg, kCPUMax, kCPUMin, kGPUTotal, kGPUAvg, kGPUMax, kGPUMin };

struct SummaryOptions {
  SortedBy sorted_by = SortedBy::kCPUTotal;
  bool op_detail = true;         // kernels under each op
  bool thread_sep = false;       // one op table per thread
  std::string time_unit = "ms";  // s, ms, us or ns
};

class ProfilerResult {
 public:
  std::vector<HostEvent> events;     // by thread, then start time (outer before inner)
  std::vector<MemEvent> mem_events;  // by time
  std::map<uint64_t, std::string> thread_names;
  std::map<std::string, std::string> extra_info;  // "Process Cpu Utilization", ...
  int64_t pid = 0;
  int64_t start_ns = 0;
  int64_t end_ns = 0;

  /// Writes the Chrome trace-event JSON (format "json"; the only one) atomically.
  void save(const std::string& path, const std::string& format = "json") const;
  std::string to_chrome_trace() const;
  /// Reads a trace written by save(); errors name the file and what is wrong.
  static ProfilerResult load(const std::string& path);
  static ProfilerResult from_chrome_trace(const std::string& json, const std::string& origin);
  /// Paddle's summary tables: device, overview, model, operator, kernel, user defined, memory.
  std::string summary(const SummaryOptions& options = {}) const;

  void sort();  // restores the order above
};

/// Starts recording on every thread; an error if a session is already running.
void start_session(const ProfilerOptions& options);
/// Stops recording and returns what every thread recorded since start_session.
ProfilerResult stop_session();
bool session_running();

/// Called with true after a session starts and false before it stops (the dispatch stack enables
/// its profiling mode this way: the profiler core knows nothing of ops).
using SessionObserver = void (*)(bool starting);
void add_session_observer(SessionObserver observer);

/// The C++ counterpart of paddle.profiler.Profiler without a scheduler: records from start()
/// to stop(), each step a ProfileStep#n range.
class Profiler {
 public:
  explicit Profiler(ProfilerOptions options = {}) : options_(options) {}
  ~Profiler();
  Profiler(const Profiler&) = delete;
  Profiler& operator=(const Profiler&) = delete;

  void start();
  void step();
  ProfilerResult stop();
  int step_num() const { return step_; }

 private:
  ProfilerOptions options_;
  RecordEvent step_event_;
  int step_ = 0;
  bool running_ = false;
};

}  // namespace skiff::profiler
