// matmul throughput: Skiff's matmul against oneDNN called directly, fp32 and bf16, square
// n = 512/1024/2048, registered alternately (skiff, onednn, skiff, ...) in one process.
// Reports GFLOP/s (2 n^3 per call). Also conv2d and pool2d on a ResNet-like layer.
//   ./build/bin/linalg_bench --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <oneapi/dnnl/dnnl.hpp>
#include <random>
#include <string>

#include "skiff/ops/generated/dense/all.h"

namespace {

using skiff::DenseTensor;
using skiff::Dims;
using skiff::DType;

DenseTensor random_matrix(int64_t n, DType dtype) {
  DenseTensor t = DenseTensor::empty(Dims{n, n}, DType::kFloat32);
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  float* p = t.data<float>();
  for (int64_t i = 0; i < n * n; ++i) p[i] = u(rng);
  return dtype == DType::kFloat32 ? t : skiff::ops::dense::cast(t, dtype);
}

void set_flops(benchmark::State& state, double flops_per_iter) {
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops_per_iter * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_skiff_matmul(benchmark::State& state, DType dtype) {
  const int64_t n = state.range(0);
  const DenseTensor a = random_matrix(n, dtype), b = random_matrix(n, dtype);
  skiff::ops::dense::matmul(a, b);  // warm-up: primitive creation
  for (auto _ : state) benchmark::DoNotOptimize(skiff::ops::dense::matmul(a, b));
  set_flops(state, 2.0 * n * n * n);
}

void BM_onednn_matmul(benchmark::State& state, DType dtype) {
  const int64_t n = state.range(0);
  using dnnl::memory;
  const dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  const auto dt = dtype == DType::kBFloat16 ? memory::data_type::bf16 : memory::data_type::f32;
  const memory::desc md({n, n}, dt, memory::format_tag::ab);
  const dnnl::matmul prim(dnnl::matmul::primitive_desc(dnnl::matmul::desc(md, md, md), eng));
  const DenseTensor a = random_matrix(n, dtype), b = random_matrix(n, dtype);
  DenseTensor c = DenseTensor::empty(Dims{n, n}, dtype);
  memory ma(md, eng, a.raw_data()), mb(md, eng, b.raw_data()), mc(md, eng, c.raw_data());
  for (auto _ : state) {
    prim.execute(strm, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}});
    strm.wait();
  }
  set_flops(state, 2.0 * n * n * n);
}

void BM_skiff_conv2d(benchmark::State& state) {
  // [8, 64, 56, 56] * [64, 64, 3, 3], padding 1 (a ResNet-18 stage-1 conv).
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  DenseTensor x = DenseTensor::empty(Dims{8, 64, 56, 56}, DType::kFloat32);
  DenseTensor w = DenseTensor::empty(Dims{64, 64, 3, 3}, DType::kFloat32);
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = u(rng);
  for (int64_t i = 0; i < w.numel(); ++i) w.data<float>()[i] = u(rng);
  for (auto _ : state) {
    benchmark::DoNotOptimize(skiff::ops::dense::conv2d(x, w, {1, 1}, {1, 1}));
  }
  set_flops(state, 2.0 * 8 * 64 * 56 * 56 * 64 * 9);
}

void BM_skiff_max_pool2d(benchmark::State& state) {
  DenseTensor x = DenseTensor::empty(Dims{8, 64, 112, 112}, DType::kFloat32);
  for (int64_t i = 0; i < x.numel(); ++i) x.data<float>()[i] = static_cast<float>(i % 97);
  for (auto _ : state) {
    benchmark::DoNotOptimize(skiff::ops::dense::pool2d(x, {3, 3}, {2, 2}, {1, 1}));
  }
  state.SetBytesProcessed(state.iterations() * x.nbytes() * 5 / 4);
}

}  // namespace

int main(int argc, char** argv) {
  for (DType dtype : {DType::kFloat32, DType::kBFloat16}) {
    const std::string tag = dtype == DType::kFloat32 ? "f32" : "bf16";
    for (int64_t n : {512, 1024, 2048}) {
      benchmark::RegisterBenchmark(("skiff_matmul_" + tag).c_str(), BM_skiff_matmul, dtype)
          ->Arg(n)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
      benchmark::RegisterBenchmark(("onednn_matmul_" + tag).c_str(), BM_onednn_matmul, dtype)
          ->Arg(n)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  benchmark::RegisterBenchmark("skiff_conv2d_f32", BM_skiff_conv2d)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("skiff_max_pool2d_f32", BM_skiff_max_pool2d)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
