// Elementwise benchmarks: add on 16M floats against a STREAM-like triad on the same threads.
// Both count 3 x 4 x N bytes moved (two reads, one write), as STREAM does. Outputs of `add` come
// from the caching allocator: the warm-up call pays the first touch of fresh memory, and every
// timed iteration frees its output so the next one reuses the same block.
//
//   ./build/bin/elementwise_bench --benchmark_filter='Triad|Add' --benchmark_repetitions=10
//       --benchmark_report_aggregates_only=true   (one command line)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "skiff/core/parallel.h"
#include "skiff/ops/generated/dense/all.h"

namespace {

using skiff::DenseTensor;
using skiff::DType;

DenseTensor filled(int64_t n, float v) {
  DenseTensor t = DenseTensor::empty({n}, DType::kFloat32);
  float* p = t.data<float>();
  skiff::parallel_for(0, n, skiff::kParallelGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) p[i] = v + static_cast<float>(i % 7);
  });
  return t;
}

void set_bytes(benchmark::State& state, int64_t n) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * 3 * 4 * n);
  state.counters["threads"] = skiff::num_threads();
}

// On a shared machine the best of several repetitions is the honest figure: run with
// --benchmark_repetitions=10 and read the "max" rows of bytes_per_second.
double max_of(const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }
double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

// a[i] = b[i] + s * c[i], split over the same thread pool as the kernels, plain stores.
void BM_Triad(benchmark::State& state) {
  const int64_t n = state.range(0);
  DenseTensor a = filled(n, 0), b = filled(n, 1), c = filled(n, 2);
  float* pa = a.data<float>();
  const float* pb = b.data<float>();
  const float* pc = c.data<float>();
  const float s = 3.0f;
  for (auto _ : state) {
    skiff::parallel_for(0, n, skiff::kParallelGrain, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) pa[i] = pb[i] + s * pc[i];
    });
    benchmark::DoNotOptimize(pa);
    benchmark::ClobberMemory();
  }
  set_bytes(state, n);
}
BENCHMARK(BM_Triad)
    ->Arg(1 << 16)
    ->Arg(1 << 24)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond)
    ->ComputeStatistics("max", max_of)
    ->ComputeStatistics("min", min_of);

// out[i] = x[i] + y[i] with plain stores into a reused buffer: what add did before streaming
// stores (see Note [Streaming stores] in kernels/cpu/elementwise.cc).
void BM_PlainAdd(benchmark::State& state) {
  const int64_t n = state.range(0);
  DenseTensor o = filled(n, 0), x = filled(n, 1), y = filled(n, 2);
  float* po = o.data<float>();
  const float* px = x.data<float>();
  const float* py = y.data<float>();
  for (auto _ : state) {
    skiff::parallel_for(0, n, skiff::kParallelGrain, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) po[i] = px[i] + py[i];
    });
    benchmark::DoNotOptimize(po);
    benchmark::ClobberMemory();
  }
  set_bytes(state, n);
}
BENCHMARK(BM_PlainAdd)
    ->Arg(1 << 24)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond)
    ->ComputeStatistics("max", max_of)
    ->ComputeStatistics("min", min_of);

template <DenseTensor (*Op)(const DenseTensor&, const DenseTensor&)>
void BM_Binary(benchmark::State& state) {
  const int64_t n = state.range(0);
  const DenseTensor x = filled(n, 1), y = filled(n, 2);
  benchmark::DoNotOptimize(Op(x, y));  // first touch of the output block
  for (auto _ : state) {
    DenseTensor out = Op(x, y);
    benchmark::DoNotOptimize(out.raw_data());
  }
  set_bytes(state, n);
}
BENCHMARK(BM_Binary<skiff::ops::dense::add>)
    ->Name("BM_Add")
    ->Arg(1 << 16)
    ->Arg(1 << 24)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond)
    ->ComputeStatistics("max", max_of)
    ->ComputeStatistics("min", min_of);
BENCHMARK(BM_Binary<skiff::ops::dense::multiply>)
    ->Name("BM_Multiply")
    ->Arg(1 << 24)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Binary<skiff::ops::dense::maximum>)
    ->Name("BM_Maximum")
    ->Arg(1 << 24)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Binary<skiff::ops::dense::less_than>)
    ->Name("BM_LessThan")
    ->Arg(1 << 24)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
