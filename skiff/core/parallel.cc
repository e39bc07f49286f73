#include "skiff/core/parallel.h"

#include <omp.h>

namespace skiff {

int num_threads() { return omp_get_max_threads(); }
void set_num_threads(int n) { omp_set_num_threads(std::max(n, 1)); }
bool in_parallel_region() { return omp_in_parallel(); }

namespace detail {
void parallel_run(int64_t begin, int64_t end, int64_t grain, void (*body)(void*, int64_t, int64_t),
                  void* ctx) {
  const int64_t n = end - begin;
  const int64_t max_tasks = std::max<int64_t>(1, n / std::max<int64_t>(grain, 1));
  const int threads = static_cast<int>(std::min<int64_t>(num_threads(), max_tasks));
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const int nt = omp_get_num_threads();
    const int64_t chunk = (n + nt - 1) / nt;
    const int64_t b = begin + t * chunk;
    const int64_t e = std::min(end, b + chunk);
    if (b < e) body(ctx, b, e);
  }
}
}  // namespace detail

}  // namespace skiff
