// What the profiler costs per op: a RecordEvent scope with no profiler running (the check every
// instrumented place pays), one recorded while a session runs, and the eager op `add` on
// 1-element tensors with the profiler off and on (with its mode on the dispatch stack, its
// kernel annotation and the allocator events).
//   build/bin/profiler_bench
#include <chrono>
#include <cstdio>

#include "skiff/ops/generated/api.h"
#include "skiff/profiler/profiler.h"

using namespace skiff;

template <class F>
double ns_per_call(int n, F&& f) {
  for (int i = 0; i < n / 10; ++i) f();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) f();
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / n;
}

int main() {
  const int n = 200000;
  volatile int sink = 0;
  const double disabled = ns_per_call(n, [&] {
    profiler::RecordEvent ev("x", profiler::EventType::kOperator);
    sink = sink + 1;
  });
  Tensor a = full({1}, 1.0, DType::kFloat32);
  Tensor b = full({1}, 2.0, DType::kFloat32);
  const double add_off = ns_per_call(n, [&] { Tensor c = add(a, b); });
  profiler::start_session({.record_shapes = true, .profile_memory = true});
  const double enabled = ns_per_call(n, [&] {
    profiler::RecordEvent ev("x", profiler::EventType::kOperator);
    sink = sink + 1;
  });
  const double add_on = ns_per_call(n / 4, [&] { Tensor c = add(a, b); });
  profiler::ProfilerResult r = profiler::stop_session();
  std::printf("profiler/RecordEvent, no profiler running   %8.2f ns/scope\n", disabled);
  std::printf("profiler/RecordEvent, recording              %8.2f ns/scope\n", enabled);
  std::printf("profiler/add 1-elem, profiler off            %8.2f ns/op\n", add_off);
  std::printf("profiler/add 1-elem, recording (shapes, mem) %8.2f ns/op\n", add_on);
  std::printf("(%zu host events, %zu memory events recorded)\n", r.events.size(),
              r.mem_events.size());
  return 0;
}
