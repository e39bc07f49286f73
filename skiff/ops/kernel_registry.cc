#include "skiff/ops/kernel_registry.h"

#include <algorithm>
#include <mutex>

#include "skiff/base/error.h"
#include "skiff/device/plugin/plugin_loader.h"
#include "skiff/ops/plugin/plugin_kernels.h"
#include "skiff/ops/profile_mode.h"

namespace skiff::ops {

void register_builtin_kernels(KernelRegistry& r);  // generated

KernelRegistry& KernelRegistry::global() {
  static KernelRegistry* registry = [] {
    auto* r = new KernelRegistry();
    register_builtin_kernels(*r);
    install_profile_mode();  // op events for profiler sessions (one place every op path reaches)
    plugin::install(*r);     // kernels of device plugins, loaded now or later
    device::load_plugins_from_env();
    return r;
  }();
  return *registry;
}

void init() { KernelRegistry::global(); }

void KernelRegistry::add(OpId op, Backend backend, DType dtype, KernelFn fn) {
  SKIFF_ENFORCE(op < all_op_schemas().size(), kOutOfRange, "KernelRegistry::add", "op",
                str("an op id below ", all_op_schemas().size()), op);
  if (table_.size() < all_op_schemas().size()) table_.resize(all_op_schemas().size(), PerOp{});
  table_[op][static_cast<int>(backend)][static_cast<int>(dtype)] = fn;
}

std::vector<KernelKey> KernelRegistry::kernels_of(OpId op) const {
  std::vector<KernelKey> keys;
  if (op >= table_.size()) return keys;
  for (int b = 0; b < kNumBackends; ++b) {
    for (int d = 0; d < kNumDTypes; ++d) {
      if (table_[op][b][d]) keys.push_back({static_cast<Backend>(b), static_cast<DType>(d)});
    }
  }
  return keys;
}

KernelFn KernelRegistry::get(OpId op, Backend backend, DType dtype) const {
  if (KernelFn fn = find(op, backend, dtype)) return fn;
  std::vector<std::string> existing;
  for (const KernelKey& k : kernels_of(op)) {
    existing.push_back(str(backend_name(k.backend), " ", k.dtype));
  }
  // A complex tensor reaching an op without complex kernels: Paddle's class for a known but
  // unsupported case, naming the op and the dtype.
  if (is_complex(dtype)) {
    SKIFF_THROW(kUnimplemented, op_schema(op).name, "dtype",
                str("a real dtype (", op_schema(op).name, " has no ", dtype, " kernel)"), dtype);
  }
  SKIFF_THROW(kNotFound, op_schema(op).name, "kernel",
              str("one of the registered kernels [", join(existing, ", "), "]"),
              str(backend_name(backend), " ", dtype));
}

std::vector<std::string> KernelRegistry::describe() const {
  std::vector<std::string> lines;
  for (const OpSchema& s : all_op_schemas()) {
    for (const KernelKey& k : kernels_of(s.id)) {
      lines.push_back(str(s.name, " ", backend_name(k.backend), " ", k.dtype));
    }
  }
  return lines;
}

}  // namespace skiff::ops
