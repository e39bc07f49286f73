// Helpers the generated dense op API calls between infer-meta and the kernel: the inputs'
// common place, dtype promotion, kernel selection (with declared fallbacks and a per-thread
// backend override for tests), and output allocation.
#pragma once

#include <initializer_list>
#include <optional>
#include <vector>

#include "skiff/core/dense_tensor.h"
#include "skiff/ops/kernel_registry.h"

namespace skiff::ops {

/// The place ops without tensor inputs (creation ops) allocate on; CPU unless set.
Place default_place();
void set_default_place(const Place& place);
/// While alive, default_place() is `place` on this thread (a device's CPU fallback runs
/// creation ops on the host).
class ScopedDefaultPlace {
 public:
  explicit ScopedDefaultPlace(const Place& place);
  ~ScopedDefaultPlace();
  ScopedDefaultPlace(const ScopedDefaultPlace&) = delete;
  ScopedDefaultPlace& operator=(const ScopedDefaultPlace&) = delete;

 private:
  std::optional<Place> previous_;
};

/// The place shared by all given inputs (null pointers are skipped); an error names the op and
/// both places if they differ.
Place common_place(const char* op, std::initializer_list<const DenseTensor*> tensors,
                   std::initializer_list<const std::vector<DenseTensor>*> lists);

/// The promoted dtype of the inputs (see promote_types).
DType promote_all(const char* op, std::initializer_list<const DenseTensor*> tensors);

struct KernelChoice {
  KernelFn fn;
  Backend backend;
  DType dtype;
};

/// The kernel for (op, backend of place, dtype). When none exists and the record declares a
/// fallback dtype that has one, returns that (warning once per op); otherwise throws NotFound
/// listing the kernels that exist.
KernelChoice select_kernel(OpId op, const Place& place, DType dtype, DType fallback_dtype);

/// Tells a running profiler which kernel the current op runs (select_kernel does it; callers
/// that resolved their kernel ahead of time call it themselves).
void note_kernel(OpId op, Backend backend, DType dtype);

/// A contiguous output for `meta`; a size that overflows or cannot be allocated is an error naming
/// `op` (InvalidArgument for an overflowing shape, ResourceExhausted for too many bytes).
DenseTensor allocate_output(const char* op, const TensorMeta& meta, const Place& place);
DenseTensor allocate_output(const TensorMeta& meta, const Place& place);

/// Runs every op on the thread with kernels of `backend` (e.g. kReference in tests) while alive.
class ScopedBackend {
 public:
  explicit ScopedBackend(Backend backend);
  ~ScopedBackend();
  ScopedBackend(const ScopedBackend&) = delete;
  ScopedBackend& operator=(const ScopedBackend&) = delete;

 private:
  std::optional<Backend> previous_;
};

}  // namespace skiff::ops
