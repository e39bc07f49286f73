#include "plugins/emu_npu/emu_runtime.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

namespace emu {

Stream::Stream(int device_id) : device_id_(device_id), worker_([this] { run(); }) {}

Stream::~Stream() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  worker_.join();
}

void Stream::enqueue(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(task));
  }
  cv_.notify_all();
}

void Stream::synchronize() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return queue_.empty() && !busy_; });
}

bool Stream::idle() {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.empty() && !busy_;
}

void Stream::run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stop_ and drained
    std::function<void()> task = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    task();
    lock.lock();
    busy_ = false;
    cv_.notify_all();
  }
}

void Event::wait() {
  std::unique_lock<std::mutex> lock(mu);
  const unsigned long target = recorded;
  cv.wait(lock, [&] { return completed >= target; });
}

namespace {
struct Device {
  std::unique_ptr<Stream> default_stream;
  std::map<const char*, size_t> allocations;  // base -> size
  size_t used = 0;
};

struct State {
  std::mutex mu;
  std::vector<Device> devices;
  size_t capacity = 0;
  State() {
    const char* n = std::getenv("EMU_NPU_DEVICES");
    const char* mb = std::getenv("EMU_NPU_MEMORY_MB");
    const int count = n ? std::atoi(n) : 2;
    capacity = static_cast<size_t>(mb ? std::atoll(mb) : 4096) << 20;
    devices.resize(count > 0 ? count : 0);
    for (int i = 0; i < static_cast<int>(devices.size()); ++i) {
      devices[i].default_stream = std::make_unique<Stream>(i);
    }
  }
};

State& state() {
  static State* s = new State();  // leaked: streams may be used during process exit
  return *s;
}

thread_local std::string t_last_error;
}  // namespace

int device_count() { return static_cast<int>(state().devices.size()); }
bool valid_device(int id) { return id >= 0 && id < device_count(); }

Stream* stream_of(int id, SkiffStream s) {
  if (s) return reinterpret_cast<Stream*>(s);
  return state().devices[id].default_stream.get();
}

SkiffStatus fail(const std::string& message) {
  t_last_error = message;
  return SKIFF_ERROR;
}
const char* last_error() { return t_last_error.c_str(); }

SkiffStatus allocate(int id, size_t nbytes, void** ptr) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  Device& d = s.devices[id];
  if (nbytes > s.capacity - d.used) return SKIFF_OUT_OF_MEMORY;
  const size_t rounded = (nbytes + 63) / 64 * 64;
  char* p = static_cast<char*>(std::aligned_alloc(64, rounded == 0 ? 64 : rounded));
  if (p == nullptr) return SKIFF_OUT_OF_MEMORY;
  d.allocations[p] = nbytes;
  d.used += nbytes;
  *ptr = p;
  return SKIFF_SUCCESS;
}

SkiffStatus deallocate(int id, void* ptr) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  Device& d = s.devices[id];
  auto it = d.allocations.find(static_cast<const char*>(ptr));
  if (it == d.allocations.end()) return fail("deallocate: not a live emu_npu allocation");
  d.used -= it->second;
  d.allocations.erase(it);
  std::free(ptr);
  return SKIFF_SUCCESS;
}

bool owns(int id, const void* ptr, size_t nbytes) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  const auto& a = s.devices[id].allocations;
  const char* p = static_cast<const char*>(ptr);
  auto it = a.upper_bound(p);
  if (it == a.begin()) return false;
  --it;
  return p >= it->first && p + nbytes <= it->first + it->second;
}

void memory_info(int id, size_t* total, size_t* free_bytes) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  *total = s.capacity;
  *free_bytes = s.capacity - s.devices[id].used;
}

}  // namespace emu
