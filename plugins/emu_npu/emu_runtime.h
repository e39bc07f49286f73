// The emulated NPU's runtime: devices whose memory is separate host allocations (checked on
// every copy: a pointer that is not a live device allocation is an error, as on a real
// device), one worker thread per stream so that work queued on a stream really runs
// asynchronously and in order, and events recorded on streams. Used by emu_npu.cc (the
// SkiffDeviceOps table) and emu_kernels.cc (kernels enqueue their work on a stream).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "skiff/c/device_ext.h"

namespace emu {

class Stream {
 public:
  explicit Stream(int device_id);
  ~Stream();  // drains the queue, then joins the worker
  void enqueue(std::function<void()> task);
  void synchronize();
  bool idle();
  int device_id() const { return device_id_; }

 private:
  void run();
  int device_id_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool busy_ = false;
  bool stop_ = false;
  std::thread worker_;
};

/// Completed once the work queued before its latest record has run.
struct Event {
  std::mutex mu;
  std::condition_variable cv;
  unsigned long recorded = 0;  // records so far
  unsigned long completed = 0;
  void wait();
};

int device_count();
bool valid_device(int id);
/// The stream a kernel or copy runs on: `s`, or device `id`'s default stream when null.
Stream* stream_of(int id, SkiffStream s);
/// Records `message` as the calling thread's last error and returns SKIFF_ERROR.
SkiffStatus fail(const std::string& message);
const char* last_error();

/// Device memory: separate allocations with a capacity (EMU_NPU_MEMORY_MB, default 4096).
SkiffStatus allocate(int id, size_t nbytes, void** ptr);
SkiffStatus deallocate(int id, void* ptr);
/// True if [ptr, ptr + nbytes) lies inside one live allocation of device `id`.
bool owns(int id, const void* ptr, size_t nbytes);
void memory_info(int id, size_t* total, size_t* free_bytes);

}  // namespace emu
