// CUDA as a Skiff device: cudaMalloc memory, cudaMemcpyAsync on streams, CUDA events. Compiled
// only with -DSKIFF_WITH_CUDA=ON; make_cuda_device() returns null when no GPU is visible, so a
// CUDA build still runs on a machine without one.
#include <cuda_runtime.h>

#include <memory>

#include "skiff/base/error.h"
#include "skiff/device/device_interface.h"

namespace skiff::device {

namespace {
void check(cudaError_t err, const char* what) {
  SKIFF_ENFORCE(err == cudaSuccess, kInternal, "cuda", what, "cudaSuccess",
                cudaGetErrorString(err));
}

class DeviceGuard {
 public:
  explicit DeviceGuard(int id) {
    check(cudaGetDevice(&previous_), "cudaGetDevice");
    if (previous_ != id) check(cudaSetDevice(id), "cudaSetDevice");
  }
  ~DeviceGuard() { cudaSetDevice(previous_); }

 private:
  int previous_ = 0;
};

cudaMemcpyKind to_cuda(CopyKind kind) {
  switch (kind) {
    case CopyKind::kHostToDevice:
      return cudaMemcpyHostToDevice;
    case CopyKind::kDeviceToHost:
      return cudaMemcpyDeviceToHost;
    case CopyKind::kDeviceToDevice:
      return cudaMemcpyDeviceToDevice;
  }
  return cudaMemcpyDefault;
}

class CudaDevice final : public DeviceInterface {
 public:
  explicit CudaDevice(int count) : count_(count) {}
  DeviceType type() const override { return DeviceType::kCUDA; }
  std::string name() const override { return "gpu"; }
  int device_count() const override { return count_; }

  void* allocate(int id, size_t nbytes) override {
    DeviceGuard guard(id);
    void* ptr = nullptr;
    if (cudaMalloc(&ptr, nbytes) != cudaSuccess) {
      cudaGetLastError();  // clear the sticky out-of-memory error; the allocator retries
      return nullptr;
    }
    return ptr;
  }
  void deallocate(int id, void* ptr, size_t) override {
    DeviceGuard guard(id);
    check(cudaFree(ptr), "cudaFree");
  }
  void copy(int id, void* dst, const void* src, size_t nbytes, CopyKind kind,
            Stream stream) override {
    DeviceGuard guard(id);
    auto s = static_cast<cudaStream_t>(stream);
    check(cudaMemcpyAsync(dst, src, nbytes, to_cuda(kind), s), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  }
  Stream create_stream(int id) override {
    DeviceGuard guard(id);
    cudaStream_t s;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    return s;
  }
  void destroy_stream(int id, Stream stream) override {
    DeviceGuard guard(id);
    check(cudaStreamDestroy(static_cast<cudaStream_t>(stream)), "cudaStreamDestroy");
  }
  void synchronize_stream(int id, Stream stream) override {
    DeviceGuard guard(id);
    check(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)), "cudaStreamSynchronize");
  }
  Event create_event(int id) override {
    DeviceGuard guard(id);
    cudaEvent_t e;
    check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
    return e;
  }
  void destroy_event(int id, Event event) override {
    DeviceGuard guard(id);
    check(cudaEventDestroy(static_cast<cudaEvent_t>(event)), "cudaEventDestroy");
  }
  void record_event(int id, Event event, Stream stream) override {
    DeviceGuard guard(id);
    check(cudaEventRecord(static_cast<cudaEvent_t>(event), static_cast<cudaStream_t>(stream)),
          "cudaEventRecord");
  }
  void stream_wait_event(int id, Stream stream, Event event) override {
    DeviceGuard guard(id);
    check(
        cudaStreamWaitEvent(static_cast<cudaStream_t>(stream), static_cast<cudaEvent_t>(event), 0),
        "cudaStreamWaitEvent");
  }
  void synchronize_event(int id, Event event) override {
    DeviceGuard guard(id);
    check(cudaEventSynchronize(static_cast<cudaEvent_t>(event)), "cudaEventSynchronize");
  }
  void synchronize(int id) override {
    DeviceGuard guard(id);
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }
  void memory_info(int id, size_t* total, size_t* free) override {
    DeviceGuard guard(id);
    check(cudaMemGetInfo(free, total), "cudaMemGetInfo");
  }

 private:
  int count_;
};
}  // namespace

std::unique_ptr<DeviceInterface> make_cuda_device() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return nullptr;
  }
  return std::make_unique<CudaDevice>(count);
}

}  // namespace skiff::device
