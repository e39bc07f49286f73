// Run-time ISA dispatch for hot CPU loops. A loop body written once as a lambda is compiled
// three times: the `flatten` attribute inlines it into a wrapper whose `target` attribute lets
// the compiler vectorize for AVX-512, AVX2 or the baseline; cpu_isa() picks one at run time
// (capped by SKIFF_CPU_ISA=avx512|avx2|default).
#pragma once

namespace skiff::ops::cpu {

enum class CpuIsa { kDefault, kAvx2, kAvx512 };

CpuIsa cpu_isa();
const char* cpu_isa_name(CpuIsa isa);

#define SKIFF_AVX512_TARGET "avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,f16c,bmi2"
#define SKIFF_AVX2_TARGET "avx2,fma,f16c,bmi2"

template <typename F>
[[gnu::target(SKIFF_AVX512_TARGET), gnu::flatten]] void run_avx512(const F& f) {
  f();
}
template <typename F>
[[gnu::target(SKIFF_AVX2_TARGET), gnu::flatten]] void run_avx2(const F& f) {
  f();
}
template <typename F>
[[gnu::flatten]] void run_default(const F& f) {
  f();
}

/// Runs `f` compiled for the best ISA this CPU supports.
template <typename F>
inline void run_best_isa(const F& f) {
  switch (cpu_isa()) {
    case CpuIsa::kAvx512:
      return run_avx512(f);
    case CpuIsa::kAvx2:
      return run_avx2(f);
    case CpuIsa::kDefault:
      return run_default(f);
  }
}

}  // namespace skiff::ops::cpu
