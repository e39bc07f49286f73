// Reduction throughput in GB/s of input read (Google Benchmark's bytes_per_second).
// Shapes: a full sum of a [4096, 4096] fp32 matrix (64 MB), sums over its rows (axis 1, inner
// runs) and columns (axis 0, outer rows), a middle axis of [64, 1024, 256], and the other ops of
// the family on the same matrix. Run: build/bin/reduction_bench --benchmark_min_time=0.5
// (peers for orientation: ~33 GB/s per thread, ~65 GB/s with 2 threads on the CI machine).
#include <benchmark/benchmark.h>

#include "skiff/core/parallel.h"
#include "skiff/ops/generated/dense/all.h"

namespace {

using namespace skiff;
namespace d = ops::dense;

DenseTensor filled(const Dims& dims, DType dtype) {
  DenseTensor f = DenseTensor::empty(dims, DType::kFloat32);
  float* p = static_cast<float*>(f.raw_data());
  for (int64_t i = 0; i < f.numel(); ++i) p[i] = 1.0f + static_cast<float>(i % 97) * 1e-3f;
  return dtype == DType::kFloat32 ? f : d::cast(f, dtype);
}

template <typename F>
void run(benchmark::State& state, const DenseTensor& x, const F& f) {
  const int prev = num_threads();
  set_num_threads(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    DenseTensor out = f(x);
    benchmark::DoNotOptimize(out.raw_data());
  }
  state.SetBytesProcessed(state.iterations() * x.nbytes());
  set_num_threads(prev);
}

const DenseTensor& mat(DType dtype = DType::kFloat32) {
  static DenseTensor f32 = filled({4096, 4096}, DType::kFloat32);
  static DenseTensor bf16 = filled({4096, 4096}, DType::kBFloat16);
  return dtype == DType::kFloat32 ? f32 : bf16;
}

void BM_SumAll(benchmark::State& s) {
  run(s, mat(), [](auto& x) { return d::sum(x); });
}
void BM_SumRows(benchmark::State& s) {
  run(s, mat(), [](auto& x) { return d::sum(x, {1}); });
}
void BM_SumCols(benchmark::State& s) {
  run(s, mat(), [](auto& x) { return d::sum(x, {0}); });
}
void BM_SumMiddle(benchmark::State& s) {
  static DenseTensor x = filled({64, 1024, 256}, DType::kFloat32);
  run(s, x, [](auto& t) { return d::sum(t, {1}); });
}
void BM_SumAllBf16(benchmark::State& s) {
  run(s, mat(DType::kBFloat16), [](auto& x) { return d::sum(x); });
}
void BM_MeanRows(benchmark::State& s) {
  run(s, mat(), [](auto& x) { return d::mean(x, {1}); });
}
void BM_AmaxAll(benchmark::State& s) {
  run(s, mat(), [](auto& x) { return d::amax(x); });
}
void BM_MaxCols(benchmark::State& s) {
  run(s, mat(), [](auto& x) { return d::max(x, {0}); });
}
void BM_ArgmaxRows(benchmark::State& s) {
  run(s, mat(), [](auto& x) { return d::argmax(x, Scalar(1)); });
}
void BM_CumsumRows(benchmark::State& s) {
  run(s, mat(), [](auto& x) { return d::cumsum(x, Scalar(1)); });
}
void BM_LogsumexpRows(benchmark::State& s) {
  run(s, mat(), [](auto& x) { return d::logsumexp(x, {1}); });
}

#define SKIFF_REDUCTION_BENCH(name) BENCHMARK(name)->Arg(1)->Arg(2)->UseRealTime()
SKIFF_REDUCTION_BENCH(BM_SumAll);
SKIFF_REDUCTION_BENCH(BM_SumRows);
SKIFF_REDUCTION_BENCH(BM_SumCols);
SKIFF_REDUCTION_BENCH(BM_SumMiddle);
SKIFF_REDUCTION_BENCH(BM_SumAllBf16);
SKIFF_REDUCTION_BENCH(BM_MeanRows);
SKIFF_REDUCTION_BENCH(BM_AmaxAll);
SKIFF_REDUCTION_BENCH(BM_MaxCols);
SKIFF_REDUCTION_BENCH(BM_ArgmaxRows);
SKIFF_REDUCTION_BENCH(BM_CumsumRows);
SKIFF_REDUCTION_BENCH(BM_LogsumexpRows);

}  // namespace

BENCHMARK_MAIN();
