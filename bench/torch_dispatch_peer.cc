// The PyTorch peer of frontend_bench's dispatch/* lines: the same 1-element ops through ATen's
// C++ API (at::add, at::relu), without and with autograd recording. Built only where the
// python3-torch headers are installed; frontend_compare.py runs it under peer_env.sh.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/csrc/autograd/variable.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

template <typename F>
double time_per_call(int inner, const F& fn) {
  const char* r = std::getenv("BENCH_REPS");
  const int reps = r ? std::max(1, std::atoi(r)) : 7;
  for (int i = 0; i < inner / 10 + 1; ++i) fn();
  std::vector<double> ts;
  for (int k = 0; k < reps; ++k) {
    const auto t0 = Clock::now();
    for (int i = 0; i < inner; ++i) fn();
    ts.push_back(std::chrono::duration<double>(Clock::now() - t0).count() / inner);
  }
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}

void report(const char* name, double us) { std::printf("%s\t%.4f\tus/op\n", name, us); }

}  // namespace

int main() {
  at::set_num_threads(2);
  const int n = 200000;
  at::Tensor a = at::ones({1}), b = at::ones({1});
  report("dispatch/add 1-elem", 1e6 * time_per_call(n, [&] { at::Tensor c = at::add(a, b); }));
  report("dispatch/relu 1-elem", 1e6 * time_per_call(n, [&] { at::Tensor c = at::relu(a); }));
  at::Tensor ga = at::ones({1}).set_requires_grad(true);
  report("dispatch/add 1-elem, recording",
         1e6 * time_per_call(n, [&] { at::Tensor c = at::add(ga, b); }));
  report("dispatch/relu 1-elem, recording",
         1e6 * time_per_call(n, [&] { at::Tensor c = at::relu(ga); }));
  return 0;
}
