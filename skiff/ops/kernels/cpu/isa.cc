#include "skiff/ops/kernels/cpu/isa.h"

#include <string>

#include "skiff/base/flags.h"

SKIFF_DEFINE_FLAG(string, cpu_isa, "avx512",
                  "highest instruction set for CPU kernels: avx512, avx2 or default")

namespace skiff::ops::cpu {

CpuIsa cpu_isa() {
  static const CpuIsa isa = [] {
    const std::string cap = flags::cpu_isa();
    __builtin_cpu_init();
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (avx512 && cap == "avx512") return CpuIsa::kAvx512;
    if (avx2 && cap != "default") return CpuIsa::kAvx2;
    return CpuIsa::kDefault;
  }();
  return isa;
}

const char* cpu_isa_name(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::kAvx512:
      return "avx512";
    case CpuIsa::kAvx2:
      return "avx2";
    case CpuIsa::kDefault:
      return "default";
  }
  return "?";
}

}  // namespace skiff::ops::cpu
