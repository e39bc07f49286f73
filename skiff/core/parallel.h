// Intra-op parallelism on the one OpenMP thread pool that oneDNN also uses (no
// oversubscription on small machines). Work below the grain runs inline on the caller.
#pragma once

#include <algorithm>
#include <cstdint>

namespace skiff {

/// Elements per task below which splitting costs more than it saves.
inline constexpr int64_t kParallelGrain = 32768;

int num_threads();
void set_num_threads(int n);
bool in_parallel_region();

namespace detail {
void parallel_run(int64_t begin, int64_t end, int64_t grain, void (*body)(void*, int64_t, int64_t),
                  void* ctx);
}

/// Calls fn(chunk_begin, chunk_end) over [begin, end) split into per-thread chunks of at least
/// `grain` iterations. Deterministic chunking for a given thread count.
template <typename Fn>
void parallel_for(int64_t begin, int64_t end, int64_t grain, const Fn& fn) {
  if (end <= begin) return;
  if (end - begin <= grain || num_threads() == 1 || in_parallel_region()) {
    fn(begin, end);
    return;
  }
  detail::parallel_run(
      begin, end, grain,
      [](void* ctx, int64_t b, int64_t e) { (*static_cast<const Fn*>(ctx))(b, e); },
      const_cast<Fn*>(&fn));
}

}  // namespace skiff
