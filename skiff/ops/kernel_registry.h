// Kernels keyed by (op, backend, dtype). A kernel is a function of the kernel context and the
// op's generated argument struct (passed type-erased). Registration comes from generated
// register_*_kernels() functions, called once from ops::init(); lookups are an array index.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "skiff/core/dtype.h"
#include "skiff/core/place.h"
#include "skiff/ops/op_schema.h"

namespace skiff::ops {

/// What every kernel receives besides its arguments.
struct KernelContext {
  Place place;
  Backend backend;
  const char* op;  // for error messages raised inside kernels
};

using KernelFn = void (*)(const KernelContext&, const void* args);

struct KernelKey {
  Backend backend;
  DType dtype;
};

class KernelRegistry {
 public:
  /// The process-wide registry, with every built-in kernel registered.
  static KernelRegistry& global();

  void add(OpId op, Backend backend, DType dtype, KernelFn fn);
  KernelFn find(OpId op, Backend backend, DType dtype) const {
    if (op >= table_.size()) return nullptr;
    return table_[op][static_cast<int>(backend)][static_cast<int>(dtype)];
  }
  /// Like find, but throws a NotFound error that lists the kernels that do exist.
  KernelFn get(OpId op, Backend backend, DType dtype) const;
  std::vector<KernelKey> kernels_of(OpId op) const;
  /// Every registered kernel as "op backend dtype" lines, sorted by op name.
  std::vector<std::string> describe() const;

 private:
  using PerOp = std::array<std::array<KernelFn, kNumDTypes>, kNumBackends>;
  std::vector<PerOp> table_;
};

/// Registers the built-in kernels (idempotent, thread-safe).
void init();

}  // namespace skiff::ops
