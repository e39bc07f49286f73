// Throughput of exp, gelu and sigmoid on 16M float32: Skiff's kernels (vectorized through
// libmvec inside run_best_isa, multi-threaded above kParallelGrain) against a plain scalar
// loop over libm (what GCC emits for std::exp without -ffast-math), single-threaded.
// Run: ./build/bin/unary_bench [--benchmark_filter=exp]; OMP_NUM_THREADS=1 for one core.
#include <benchmark/benchmark.h>

#include <cmath>

#include "skiff/ops/generated/dense/all.h"

namespace {

using skiff::DenseTensor;
using skiff::DType;
constexpr int64_t kN = int64_t{1} << 24;

DenseTensor input() {
  DenseTensor x = DenseTensor::empty(skiff::Dims{kN}, DType::kFloat32);
  float* p = static_cast<float*>(x.raw_data());
  for (int64_t i = 0; i < kN; ++i) p[i] = -8.0f + 16.0f * static_cast<float>(i % 4093) / 4093;
  return x;
}

template <typename F>
void skiff_op(benchmark::State& state, const F& f) {
  const DenseTensor x = input();
  benchmark::DoNotOptimize(f(x).raw_data());  // warm-up: the allocator caches the output block
  for (auto _ : state) {
    DenseTensor y = f(x);
    benchmark::DoNotOptimize(y.raw_data());
  }
  state.SetItemsProcessed(state.iterations() * kN);
  state.SetBytesProcessed(state.iterations() * kN * 8);
}

template <typename F>
void scalar_loop(benchmark::State& state, const F& f) {
  const DenseTensor x = input();
  DenseTensor y = DenseTensor::empty(skiff::Dims{kN}, DType::kFloat32);
  const float* px = static_cast<const float*>(x.raw_data());
  float* py = static_cast<float*>(y.raw_data());
  for (int64_t i = 0; i < kN; ++i) py[i] = f(px[i]);  // warm-up: touch the output pages
  for (auto _ : state) {
    for (int64_t i = 0; i < kN; ++i) py[i] = f(px[i]);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kN);
  state.SetBytesProcessed(state.iterations() * kN * 8);
}

void BM_exp_skiff(benchmark::State& s) {
  skiff_op(s, [](const auto& x) { return skiff::ops::dense::exp(x); });
}
void BM_exp_scalar(benchmark::State& s) {
  scalar_loop(s, [](float v) { return std::exp(v); });
}
void BM_gelu_skiff(benchmark::State& s) {
  skiff_op(s, [](const auto& x) { return skiff::ops::dense::gelu(x); });
}
void BM_gelu_scalar(benchmark::State& s) {
  scalar_loop(s, [](float v) { return 0.5f * v * (1.0f + std::erf(v * 0.70710678f)); });
}
void BM_sigmoid_skiff(benchmark::State& s) {
  skiff_op(s, [](const auto& x) { return skiff::ops::dense::sigmoid(x); });
}
void BM_sigmoid_scalar(benchmark::State& s) {
  scalar_loop(s, [](float v) { return 1.0f / (1.0f + std::exp(-v)); });
}

}  // namespace

BENCHMARK(BM_exp_skiff)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_exp_scalar)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_gelu_skiff)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_gelu_scalar)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_sigmoid_skiff)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_sigmoid_scalar)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
