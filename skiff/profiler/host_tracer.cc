// Thread-local event buffers and the session that collects them.
//
// Each thread that records gets a buffer (registered once in a global list); an event is
// appended under the buffer's own mutex, which only the collecting thread ever contends for.
// A buffer holds a session number: events left from an earlier session are dropped the next
// time the thread records. Buffers of threads that exited stay until their events are collected.
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>

#include "skiff/base/error.h"
#include "skiff/profiler/profiler.h"

namespace skiff::profiler {

namespace {

struct ThreadBuffer {
  std::mutex mu;
  uint64_t tid = 0;
  uint64_t session = 0;
  std::string name;
  std::vector<HostEvent> events;
  std::vector<MemEvent> mems;
};

struct Registry {
  std::mutex mu;
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
  std::vector<SessionObserver> observers;
  bool running = false;
  ProfilerOptions options;
  int64_t start_ns = 0;
  double start_cpu_s = 0;
  uint64_t start_busy = 0, start_total = 0;
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: threads may record during exit
  return *r;
}

std::atomic<uint64_t> g_session{0};
thread_local std::shared_ptr<ThreadBuffer> t_buffer;
thread_local RecordEvent* t_innermost_op = nullptr;

ThreadBuffer& buffer() {
  if (!t_buffer) [[unlikely]] {
    auto b = std::make_shared<ThreadBuffer>();
    b->tid = static_cast<uint64_t>(::syscall(SYS_gettid));
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    r.buffers.push_back(b);
    t_buffer = std::move(b);
  }
  return *t_buffer;
}

// Locks the thread's buffer and drops what an earlier session left there.
std::unique_lock<std::mutex> lock_current(ThreadBuffer& b) {
  std::unique_lock<std::mutex> lock(b.mu);
  const uint64_t s = g_session.load(std::memory_order_relaxed);
  if (b.session != s) {
    b.events.clear();
    b.mems.clear();
    b.session = s;
  }
  return lock;
}

double process_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Busy and total jiffies of all cores from /proc/stat (zeros where it cannot be read).
void system_cpu(uint64_t* busy, uint64_t* total) {
  *busy = *total = 0;
  std::ifstream f("/proc/stat");
  std::string cpu;
  uint64_t v[8] = {};
  if (!(f >> cpu) || cpu != "cpu") return;
  for (uint64_t& x : v) f >> x;
  for (uint64_t x : v) *total += x;
  *busy = *total - v[3] - v[4];  // idle, iowait
}

std::string ratio_text(double r) {
  std::ostringstream os;
  os.precision(6);
  os << r;
  return os.str();
}

}  // namespace

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void RecordEvent::begin(std::string_view name, EventType type, bool scoped) {
  if (active_ || !is_enabled()) return;
  active_ = true;
  type_ = type;
  name_.assign(name);
  if (type == EventType::kOperator && scoped) {
    outer_op_ = t_innermost_op;
    t_innermost_op = this;
  }
  start_ns_ = now_ns();
}

void RecordEvent::add_arg(std::string key, std::string value) {
  if (active_) args_.emplace_back(std::move(key), std::move(value));
}

void RecordEvent::end() {
  if (!active_) return;
  const int64_t end = now_ns();
  active_ = false;
  if (type_ == EventType::kOperator && t_innermost_op == this) t_innermost_op = outer_op_;
  ThreadBuffer& b = buffer();
  auto lock = lock_current(b);
  if (!kernel_.empty()) args_.emplace_back("kernel", kernel_);
  b.events.push_back(HostEvent{std::move(name_), type_, start_ns_, end, b.tid, std::move(args_)});
  if (kernel_start_ns_ >= 0) {
    b.events.push_back(
        HostEvent{std::move(kernel_), EventType::kKernel, kernel_start_ns_, end, b.tid, {}});
  }
  name_.clear();
  kernel_.clear();
  args_.clear();
  kernel_start_ns_ = -1;
}

void note_kernel(int op_id, std::string kernel_name) {
  RecordEvent* op = t_innermost_op;
  if (op == nullptr || op->op_id_ != op_id || !op->active_) return;
  op->kernel_ = std::move(kernel_name);
  op->kernel_start_ns_ = now_ns();
}

void record_memory(MemEventType type, std::string_view place, const void* addr, int64_t bytes,
                   int64_t allocated, int64_t reserved, int64_t peak_allocated,
                   int64_t peak_reserved) {
  if (!memory_enabled()) return;
  const int64_t ts = now_ns();
  ThreadBuffer& b = buffer();
  auto lock = lock_current(b);
  b.mems.push_back(MemEvent{ts, b.tid, type, std::string(place), reinterpret_cast<uint64_t>(addr),
                            bytes, allocated, reserved, peak_allocated, peak_reserved});
}

void set_thread_name(std::string name) {
  ThreadBuffer& b = buffer();
  std::lock_guard<std::mutex> lock(b.mu);
  b.name = std::move(name);
}

void start_session(const ProfilerOptions& options) {
  Registry& r = registry();
  std::vector<SessionObserver> observers;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    SKIFF_ENFORCE(!r.running, kPrecondition, "profiler", "start",
                  "no profiler running in this process", "one already running");
    r.running = true;
    r.options = options;
    r.start_ns = now_ns();
    r.start_cpu_s = process_cpu_seconds();
    system_cpu(&r.start_busy, &r.start_total);
    g_session.fetch_add(1, std::memory_order_relaxed);
    uint32_t flags = detail::kTracing;
    if (options.profile_memory) flags |= detail::kMemory;
    if (options.record_shapes) flags |= detail::kShapes;
    detail::g_flags.store(flags, std::memory_order_release);
    observers = r.observers;
  }
  for (SessionObserver o : observers) o(true);
}

ProfilerResult stop_session() {
  Registry& r = registry();
  std::vector<SessionObserver> observers;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    SKIFF_ENFORCE(r.running, kPrecondition, "profiler", "stop", "a running profiler",
                  "none running");
    observers = r.observers;
  }
  for (SessionObserver o : observers) o(false);
  ProfilerResult result;
  std::lock_guard<std::mutex> lock(r.mu);
  detail::g_flags.store(0, std::memory_order_release);
  r.running = false;
  result.pid = static_cast<int64_t>(::getpid());
  result.start_ns = r.start_ns;
  result.end_ns = now_ns();
  const uint64_t session = g_session.load(std::memory_order_relaxed);
  for (const auto& b : r.buffers) {
    std::lock_guard<std::mutex> block(b->mu);
    if (b->session != session) continue;
    for (auto& e : b->events) result.events.push_back(std::move(e));
    for (auto& m : b->mems) result.mem_events.push_back(std::move(m));
    b->events.clear();
    b->mems.clear();
    if (!b->name.empty()) result.thread_names[b->tid] = b->name;
  }
  // Threads that exited leave their buffer to the registry alone: drop it once collected.
  std::erase_if(r.buffers, [](const auto& b) { return b.use_count() == 1; });
  const double wall_s = static_cast<double>(result.end_ns - result.start_ns) * 1e-9;
  const double cpu_s = process_cpu_seconds() - r.start_cpu_s;
  uint64_t busy = 0, total = 0;
  system_cpu(&busy, &total);
  const double sys = total > r.start_total
                         ? static_cast<double>(busy - r.start_busy) / (total - r.start_total)
                         : 0.0;
  result.extra_info["Process Cpu Utilization"] = ratio_text(wall_s > 0 ? cpu_s / wall_s : 0.0);
  result.extra_info["System Cpu Utilization"] = ratio_text(sys);
  result.sort();
  return result;
}

bool session_running() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.running;
}

void add_session_observer(SessionObserver observer) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (std::find(r.observers.begin(), r.observers.end(), observer) == r.observers.end()) {
    r.observers.push_back(observer);
  }
}

void ProfilerResult::sort() {
  std::stable_sort(events.begin(), events.end(), [](const HostEvent& a, const HostEvent& b) {
    if (a.tid != b.tid) return a.tid < b.tid;
    if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
    return a.end_ns > b.end_ns;  // the outer of two events that start together comes first
  });
  std::stable_sort(mem_events.begin(), mem_events.end(),
                   [](const MemEvent& a, const MemEvent& b) { return a.ts_ns < b.ts_ns; });
}

Profiler::~Profiler() {
  if (running_) {
    try {
      stop();
    } catch (...) {
    }
  }
}

void Profiler::start() {
  start_session(options_);
  running_ = true;
  step_ = 0;
  step_event_.begin("ProfileStep#0", EventType::kProfileStep);
}

void Profiler::step() {
  SKIFF_ENFORCE(running_, kPrecondition, "profiler", "step", "a started profiler", "not started");
  step_event_.end();
  ++step_;
  step_event_.begin("ProfileStep#" + std::to_string(step_), EventType::kProfileStep);
}

ProfilerResult Profiler::stop() {
  SKIFF_ENFORCE(running_, kPrecondition, "profiler", "stop", "a started profiler", "not started");
  step_event_.end();
  running_ = false;
  return stop_session();
}

}  // namespace skiff::profiler
