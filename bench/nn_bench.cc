// Google Benchmark timings of the nn ops at the foundation's target sizes: softmax [4096, 4096]
// and layer_norm [8192, 1024] fp32 (PyTorch 1.13 tuned, 2 threads: 6.3 and 3.0 ms here), plus
// log_softmax, rms_norm and bf16 variants. Run: build/bin/nn_bench (threads: OMP_NUM_THREADS).
#include <benchmark/benchmark.h>

#include "skiff/ops/generated/dense/all.h"

namespace {

namespace dense = skiff::ops::dense;
using skiff::DType;

skiff::DenseTensor input(std::vector<int64_t> shape, DType dtype) {
  return dense::cast(dense::uniform(shape, DType::kFloat32, -4.0, 4.0, 1), dtype);
}

void BM_Softmax(benchmark::State& state, DType dtype) {
  const auto x = input({4096, 4096}, dtype);
  for (auto _ : state) benchmark::DoNotOptimize(dense::softmax(x, -1));
  state.SetBytesProcessed(state.iterations() * 2 * x.nbytes());
}
BENCHMARK_CAPTURE(BM_Softmax, fp32_4096x4096, DType::kFloat32)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();
BENCHMARK_CAPTURE(BM_Softmax, bf16_4096x4096, DType::kBFloat16)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();

void BM_LogSoftmax(benchmark::State& state) {
  const auto x = input({4096, 4096}, DType::kFloat32);
  for (auto _ : state) benchmark::DoNotOptimize(dense::log_softmax(x, -1));
  state.SetBytesProcessed(state.iterations() * 2 * x.nbytes());
}
BENCHMARK(BM_LogSoftmax)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();

void BM_SoftmaxAxis0(benchmark::State& state) {
  const auto x = input({4096, 4096}, DType::kFloat32);
  for (auto _ : state) benchmark::DoNotOptimize(dense::softmax(x, 0));
  state.SetBytesProcessed(state.iterations() * 2 * x.nbytes());
}
BENCHMARK(BM_SoftmaxAxis0)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();

void BM_LayerNorm(benchmark::State& state, DType dtype) {
  const auto x = input({8192, 1024}, dtype);
  const auto w = input({1024}, dtype), b = input({1024}, dtype);
  for (auto _ : state) benchmark::DoNotOptimize(dense::layer_norm(x, &w, &b, 1e-5f, 1));
  state.SetBytesProcessed(state.iterations() * 2 * x.nbytes());
}
BENCHMARK_CAPTURE(BM_LayerNorm, fp32_8192x1024, DType::kFloat32)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();
BENCHMARK_CAPTURE(BM_LayerNorm, bf16_8192x1024, DType::kBFloat16)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();

void BM_RmsNorm(benchmark::State& state) {
  const auto x = input({8192, 1024}, DType::kFloat32);
  const auto w = input({1024}, DType::kFloat32);
  for (auto _ : state) benchmark::DoNotOptimize(dense::rms_norm(x, &w, 1e-6f, -1));
  state.SetBytesProcessed(state.iterations() * 2 * x.nbytes());
}
BENCHMARK(BM_RmsNorm)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();

}  // namespace

BENCHMARK_MAIN();
