#include "skiff/ops/dispatch.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "skiff/base/logging.h"
#include "skiff/core/shape_math.h"
#include "skiff/profiler/record_event.h"

namespace skiff::ops {

namespace {
thread_local std::optional<Backend> t_backend_override;
thread_local std::optional<Place> t_default_place;
Place g_default_place = Place::cpu();
}  // namespace

Place default_place() { return t_default_place ? *t_default_place : g_default_place; }
void set_default_place(const Place& place) { g_default_place = place; }

ScopedDefaultPlace::ScopedDefaultPlace(const Place& place) : previous_(t_default_place) {
  t_default_place = place;
}
ScopedDefaultPlace::~ScopedDefaultPlace() { t_default_place = previous_; }

Place common_place(const char* op, std::initializer_list<const DenseTensor*> tensors,
                   std::initializer_list<const std::vector<DenseTensor>*> lists) {
  std::optional<Place> place;
  auto check = [&](const DenseTensor& t) {
    SKIFF_ENFORCE(t.defined(), kInvalidArgument, op, "input", "an initialized tensor",
                  "an undefined tensor");
    const Place p = t.place();
    if (!place) {
      place = p;
      return;
    }
    SKIFF_ENFORCE(p == *place, kInvalidArgument, op, "input",
                  str("all inputs on one place (", *place, ")"), str("an input on ", p));
  };
  for (const DenseTensor* t : tensors) {
    if (t) check(*t);
  }
  for (const auto* list : lists) {
    for (const auto& t : *list) check(t);
  }
  return place.value_or(default_place());
}

DType promote_all(const char* op, std::initializer_list<const DenseTensor*> tensors) {
  DType result = DType::kUndefined;
  for (const DenseTensor* t : tensors) {
    SKIFF_ENFORCE(t->dtype() != DType::kUndefined, kTypeError, op, "input", "a defined dtype",
                  "undefined");
    result = result == DType::kUndefined ? t->dtype() : promote_types(result, t->dtype());
  }
  return result;
}

namespace {
KernelChoice choose_kernel(OpId op, const Place& place, DType dtype, DType fallback_dtype) {
  const KernelRegistry& r = KernelRegistry::global();
  const Backend backend = t_backend_override.value_or(backend_of(place));
  if (KernelFn fn = r.find(op, backend, dtype)) return {fn, backend, dtype};
  if (fallback_dtype != DType::kUndefined && fallback_dtype != dtype) {
    if (KernelFn fn = r.find(op, backend, fallback_dtype)) {
      static std::unique_ptr<std::atomic<bool>[]> warned(
          new std::atomic<bool>[all_op_schemas().size()]());
      if (!warned[op].exchange(true)) {
        SKIFF_LOG(WARNING) << op_schema(op).name << ": no " << backend_name(backend) << " " << dtype
                           << " kernel; computing in " << fallback_dtype << " (declared fallback)";
      }
      return {fn, backend, fallback_dtype};
    }
  }
  return {r.get(op, backend, dtype), backend, dtype};  // throws, listing what exists
}

}  // namespace

// The name a profile shows for a kernel: matmul_cpu<float32>, as the kernels are written;
// made once per kernel (formatting per call would weigh on a recording profiler).
void note_kernel(OpId op, Backend backend, DType dtype) {
  static std::mutex mu;
  static std::unordered_map<uint32_t, std::string> names;
  const uint32_t key = (static_cast<uint32_t>(op) << 16) | (static_cast<uint32_t>(backend) << 8) |
                       static_cast<uint32_t>(dtype);
  std::string name;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = names.find(key);
    if (it == names.end()) {
      it = names.emplace(key, str(op_schema(op).name, "_", backend_name(backend), "<", dtype, ">"))
               .first;
    }
    name = it->second;
  }
  profiler::note_kernel(static_cast<int>(op), std::move(name));
}

KernelChoice select_kernel(OpId op, const Place& place, DType dtype, DType fallback_dtype) {
  KernelChoice c = choose_kernel(op, place, dtype, fallback_dtype);
  if (profiler::is_enabled()) [[unlikely]]
    note_kernel(op, c.backend, c.dtype);
  return c;
}

DenseTensor allocate_output(const char* op, const TensorMeta& meta, const Place& place) {
  // Size checks name the op (the allocator and DenseTensor::empty know only "empty").
  const int64_t nbytes = checked_nbytes(meta.dims, dtype_size(meta.dtype), op, "out");
  try {
    return DenseTensor::empty(meta.dims, meta.dtype, place);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::kOutOfMemory) throw;
    SKIFF_THROW(kOutOfMemory, op, "out",
                str("memory for a ", meta.dims, " ", meta.dtype, " result"),
                str(e.what(), " (", nbytes, " bytes)"));
  }
}

DenseTensor allocate_output(const TensorMeta& meta, const Place& place) {
  return allocate_output("allocate", meta, place);
}

ScopedBackend::ScopedBackend(Backend backend) : previous_(t_backend_override) {
  t_backend_override = backend;
}
ScopedBackend::~ScopedBackend() { t_backend_override = previous_; }

}  // namespace skiff::ops
