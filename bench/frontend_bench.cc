// C++ front-end benchmarks (plain timed main; bench/frontend_compare.py runs it next to the
// PyTorch peers and prints ratios):
//   dispatch/*  per-op time of the eager C++ API on 1-element tensors, without and with autograd
//               recording (an input that requires grad: a grad node is built and freed per op)
//   mlp/*       one training step of an MLP 784-1024-1024-10, batch 256, fp32: forward,
//               cross entropy, backward, AdamW step (fused), grads dropped
// Prints "name<TAB>value<TAB>unit" lines; times are medians of BENCH_REPS (default 7) runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "skiff/core/allocator.h"
#include "skiff/core/parallel.h"
#include "skiff/skiff.h"

namespace {

using namespace skiff;
using Clock = std::chrono::steady_clock;

int reps() {
  const char* r = std::getenv("BENCH_REPS");
  return r ? std::max(1, std::atoi(r)) : 7;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Median seconds per call of fn over reps() runs of `inner` calls.
template <typename F>
double time_per_call(int inner, const F& fn) {
  for (int i = 0; i < inner / 10 + 1; ++i) fn();
  std::vector<double> ts;
  for (int r = 0; r < reps(); ++r) {
    const auto t0 = Clock::now();
    for (int i = 0; i < inner; ++i) fn();
    ts.push_back(std::chrono::duration<double>(Clock::now() - t0).count() / inner);
  }
  return median(ts);
}

void report(const std::string& name, double value, const char* unit) {
  std::printf("%s\t%.4f\t%s\n", name.c_str(), value, unit);
  std::fflush(stdout);
}

/// Resident set size now and its high-water mark, in MiB (/proc/self/status).
std::pair<double, double> rss_mib() {
  std::ifstream f("/proc/self/status");
  std::string line;
  double rss = 0, hwm = 0;
  while (std::getline(f, line)) {
    if (line.rfind("VmRSS:", 0) == 0) rss = std::atof(line.c_str() + 6) / 1024;
    if (line.rfind("VmHWM:", 0) == 0) hwm = std::atof(line.c_str() + 6) / 1024;
  }
  return {rss, hwm};
}

void dispatch() {
  const int n = 200000;
  Tensor a = ones({1}), b = ones({1});
  report("dispatch/add 1-elem", 1e6 * time_per_call(n, [&] { Tensor c = add(a, b); }), "us/op");
  report("dispatch/relu 1-elem", 1e6 * time_per_call(n, [&] { Tensor c = relu(a); }), "us/op");
  Tensor ga = ones({1});
  autograd::set_stop_gradient(ga, false);
  report("dispatch/add 1-elem, recording", 1e6 * time_per_call(n, [&] { Tensor c = add(ga, b); }),
         "us/op");
  report("dispatch/relu 1-elem, recording", 1e6 * time_per_call(n, [&] { Tensor c = relu(ga); }),
         "us/op");
}

void mlp() {
  const double rss0 = rss_mib().first;
  manual_seed_all(0);
  auto model = std::make_shared<nn::Sequential>(std::initializer_list<std::shared_ptr<nn::Layer>>{
      std::make_shared<nn::Linear>(784, 1024), std::make_shared<nn::ReLU>(),
      std::make_shared<nn::Linear>(1024, 1024), std::make_shared<nn::ReLU>(),
      std::make_shared<nn::Linear>(1024, 10)});
  optimizer::AdamW opt(1e-3, model->named_parameters());
  const Tensor x = gaussian({256, 784});
  const Tensor y = randint(0, 10, {256});
  auto step = [&] {
    const Tensor loss = nn::functional::cross_entropy(model->forward(x), y);
    autograd::backward({loss});
    opt.step();
    opt.clear_grad(false);
  };
  Allocator* alloc = allocator_for(Place::cpu());
  alloc->reset_peak_stats();
  const double s = time_per_call(5, step);
  report("mlp/train step 784-1024-1024-10 b256", 1e3 * s, "ms");
  report("mlp/throughput", 256 / s, "samples/s");
  report("mlp/peak allocated (allocator)", alloc->stats().peak_allocated_bytes / 1048576.0, "MiB");
  report("mlp/peak RSS growth", rss_mib().second - rss0, "MiB");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "all";
  if (const char* t = std::getenv("BENCH_THREADS")) set_num_threads(std::atoi(t));
  if (what == "all" || what == "dispatch") dispatch();
  if (what == "all" || what == "mlp") mlp();
  return 0;
}
