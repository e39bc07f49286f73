// Times the operators the foundation issue sets targets for, next to the peers that can run in
// this process: oneDNN called directly (matmul) and a STREAM-like triad (memory bandwidth).
// Prints one line per measurement, "name<TAB>median<TAB>unit"; bench/compare.py runs this and
// the PyTorch peer alternately and prints the ratio table.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <oneapi/dnnl/dnnl.hpp>
#include <random>
#include <string>
#include <vector>

#include "skiff/core/views.h"
#include "skiff/ops/boxed.h"
#include "skiff/ops/generated/dense/all.h"

namespace {

using skiff::DenseTensor;
using skiff::DType;
using Clock = std::chrono::steady_clock;

int reps() {
  const char* r = std::getenv("BENCH_REPS");
  return r ? std::atoi(r) : 7;
}

/// Median seconds per call over reps, each rep looping for at least 0.2 s.
double time_call(const std::function<void()>& fn) {
  fn();
  fn();
  auto t0 = Clock::now();
  fn();
  const double one = std::chrono::duration<double>(Clock::now() - t0).count();
  const int inner = std::max(1, static_cast<int>(0.2 / std::max(one, 1e-7)));
  std::vector<double> ts;
  for (int r = 0; r < reps(); ++r) {
    t0 = Clock::now();
    for (int i = 0; i < inner; ++i) fn();
    ts.push_back(std::chrono::duration<double>(Clock::now() - t0).count() / inner);
  }
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}

void report(const std::string& name, double value, const char* unit) {
  std::printf("%s\t%.3f\t%s\n", name.c_str(), value, unit);
  std::fflush(stdout);
}

DenseTensor randn(const skiff::Dims& dims, DType dtype) {
  DenseTensor t = DenseTensor::empty(dims, DType::kFloat32);
  std::mt19937 rng(0);
  std::normal_distribution<float> dist;
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = dist(rng);
  return dtype == DType::kFloat32 ? t : skiff::ops::dense::cast(t, dtype);
}

skiff::ops::BoxedOutputs call(const char* op, std::vector<std::vector<DenseTensor>> tensors,
                              std::map<std::string, skiff::ops::AttrValue> attrs = {}) {
  return skiff::ops::call_boxed(op, skiff::ops::BoxedInputs{std::move(tensors), std::move(attrs)});
}

void bench_matmul(DType dtype, int64_t n) {
  const char* tag = dtype == DType::kFloat32 ? "fp32" : "bf16";
  DenseTensor a = randn({n, n}, dtype), b = randn({n, n}, dtype);
  const double flops = 2.0 * n * n * n;
  const double skiff_s = time_call([&] { call("matmul", {{a}, {b}}); });
  report(std::string("skiff matmul ") + tag + " n=" + std::to_string(n), flops / skiff_s * 1e-9,
         "GFLOP/s");

  // oneDNN directly: one primitive created up front, output preallocated.
  using dnnl::memory;
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  const auto dt = dtype == DType::kFloat32 ? memory::data_type::f32 : memory::data_type::bf16;
  memory::desc md({n, n}, dt, memory::format_tag::ab);
  memory::desc cd({n, n}, dt, memory::format_tag::ab);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(md, md, cd), eng);  // oneDNN 2.x API
  dnnl::matmul prim(pd);
  DenseTensor c = DenseTensor::empty({n, n}, dtype);
  memory am(md, eng, a.raw_data()), bm(md, eng, b.raw_data()), cm(cd, eng, c.raw_data());
  const double dnnl_s = time_call([&] {
    prim.execute(strm, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, cm}});
    strm.wait();
  });
  report(std::string("onednn matmul ") + tag + " n=" + std::to_string(n), flops / dnnl_s * 1e-9,
         "GFLOP/s");
}

void bench_memory_bound() {
  const int64_t n = 16 * 1024 * 1024;
  DenseTensor a = randn({n}, DType::kFloat32), b = randn({n}, DType::kFloat32);
  const double add_s = time_call([&] { skiff::ops::dense::add(a, b); });
  report("skiff add 16M fp32", 3.0 * 4 * n / add_s * 1e-9, "GB/s");
  // STREAM triad on the same buffers: the machine's attainable bandwidth.
  DenseTensor c = DenseTensor::empty({n}, DType::kFloat32);
  float* pa = a.data<float>();
  float* pb = b.data<float>();
  float* pc = c.data<float>();
  const double triad_s = time_call([&] {
#pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; ++i) pc[i] = pa[i] + 0.5f * pb[i];
  });
  report("triad 16M fp32", 3.0 * 4 * n / triad_s * 1e-9, "GB/s");

  DenseTensor x = randn({4096, 4096}, DType::kFloat32);
  report("skiff softmax [4096,4096] fp32", time_call([&] {
                                             call("softmax", {{x}}, {{"axis", int64_t{-1}}});
                                           }) * 1e3,
         "ms");
  report("skiff sum [4096,4096] fp32", time_call([&] { call("sum", {{x}}); }) * 1e3, "ms");
  report("skiff sum rows [4096,4096] fp32",
         time_call([&] {
           call("sum", {{x}}, {{"axis", std::vector<int64_t>{1}}});
         }) * 1e3,
         "ms");
  report("skiff transpose-copy [4096,4096] fp32",
         time_call([&] { skiff::view_transpose(x, 0, 1).contiguous(); }) * 1e3, "ms");
  DenseTensor y = randn({8192, 1024}, DType::kFloat32);
  DenseTensor w = randn({1024}, DType::kFloat32), bias = randn({1024}, DType::kFloat32);
  report("skiff layer_norm [8192,1024] fp32",
         time_call([&] {
           call("layer_norm", {{y}, {w}, {bias}},
                {{"epsilon", 1e-5}, {"begin_norm_axis", int64_t{1}}});
         }) * 1e3,
         "ms");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string only = argc > 1 ? argv[1] : "";
  try {
    if (only.empty() || only == "gemm") {
      for (int64_t n : {512, 1024, 2048}) bench_matmul(DType::kFloat32, n);
      for (int64_t n : {512, 1024, 2048}) bench_matmul(DType::kBFloat16, n);
    }
    if (only.empty() || only == "memory") bench_memory_bound();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "op_table: %s\n", e.what());
    return 1;
  }
  return 0;
}
