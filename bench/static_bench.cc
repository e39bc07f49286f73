// Training step of a small MLP (small-op-heavy: batch 32, 4 layers of width 64, tanh, MSE, SGD),
// eagerly (op API + autograd engine) and as one captured program run by the executor
// (sequential and parallel). Reports time per step and the executor's planned and measured
// peak bytes. The PyTorch 1.13 peer is bench/static_peer.py (same model, same step).
//   build/bin/static_bench   (compare in one sitting; see ../shared/bench/PEERS.md)
#include <benchmark/benchmark.h>

#include <random>

#include "skiff/ops/generated/api.h"
#include "skiff/ops/generated/dense/all.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/jit/static_function.h"

namespace {

using namespace skiff;
constexpr int64_t kBatch = 32, kWidth = 64, kLayers = 4;
constexpr float kLr = 0.01f;

struct Mlp {
  std::vector<Tensor> params;
  Mlp() {
    for (int l = 0; l < kLayers; ++l) {
      for (auto shape : {std::vector<int64_t>{kWidth, kWidth}, std::vector<int64_t>{kWidth}}) {
        Tensor p(ops::dense::uniform(shape, DType::kFloat32, -0.1, 0.1, 7 + l));
        autograd::ensure_autograd_meta(p).stop_gradient = false;
        params.push_back(p);
      }
    }
  }
  Tensor loss(const Tensor& x, const Tensor& y) const {
    Tensor h = x;
    for (int l = 0; l < kLayers; ++l) h = tanh(add(matmul(h, params[2 * l]), params[2 * l + 1]));
    Tensor d = subtract(h, y);
    return mean(multiply(d, d));
  }
};

Tensor data(uint64_t seed) {
  return Tensor(ops::dense::uniform({kBatch, kWidth}, DType::kFloat32, -1.0, 1.0, seed));
}

void BM_MlpStepEager(benchmark::State& state) {
  Mlp m;
  Tensor x = data(1), y = data(2);
  for (auto _ : state) {
    Tensor l = m.loss(x, y);
    std::vector<Tensor> g = autograd::grad({l}, m.params);
    autograd::NoGradGuard no_grad;
    for (size_t i = 0; i < g.size(); ++i) {
      m.params[i].mutable_dense().copy_from(subtract(m.params[i], scale(g[i], kLr)).dense());
    }
    benchmark::DoNotOptimize(l);
  }
}
BENCHMARK(BM_MlpStepEager)->Unit(benchmark::kMicrosecond);

void BM_MlpStepStatic(benchmark::State& state, bool parallel) {
  Mlp m;
  Tensor x = data(1), y = data(2);
  jit::StaticFunction step(
      [&](const std::vector<Tensor>& in) {
        Tensor l = m.loss(in[0], in[1]);
        std::vector<Tensor> g = jit::gradients({l}, m.params);
        for (size_t i = 0; i < g.size(); ++i) {
          jit::update_parameter(m.params[i], subtract(m.params[i], scale(g[i], kLr)));
        }
        return std::vector<Tensor>{l};
      },
      {}, {.parallel = parallel, .num_threads = 2});
  step({x, y});  // capture
  for (auto _ : state) benchmark::DoNotOptimize(step({x, y}));
  const auto& exec = step.last_executor();
  state.counters["instructions"] = static_cast<double>(exec.num_instructions());
  state.counters["planned_peak_KiB"] = static_cast<double>(exec.planned_peak_bytes()) / 1024;
  state.counters["measured_peak_KiB"] = static_cast<double>(exec.measured_peak_bytes()) / 1024;
}
BENCHMARK_CAPTURE(BM_MlpStepStatic, sequential, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_MlpStepStatic, parallel, true)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
