// One compiled program called from many threads at once (docs/RELIABILITY.md, promise 4): each
// run keeps its own state, so 8 threads x 1000 calls give bit for bit the single-threaded
// results. Built into the TSan run too (scripts/sanitize.sh --tsan).
#include <gtest/gtest.h>

#include <cstring>
#include <thread>

#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/jit/capture.h"
#include "skiff/runtime/jit/control_flow.h"
#include "skiff/runtime/jit/static_function.h"

namespace skiff {
namespace {

using Tensors = std::vector<Tensor>;

Tensor input(int k) {
  DenseTensor t = DenseTensor::empty(Dims{4, 8}, DType::kFloat32, Place::cpu());
  float* p = t.data<float>();
  for (int i = 0; i < 32; ++i) p[i] = static_cast<float>((i * 7 + k * 13) % 11 - 5 + k) * 0.125f;
  return Tensor(t);
}

bool bitwise_equal(const Tensor& a, const Tensor& b) {
  const DenseTensor x = a.dense().contiguous(), y = b.dense().contiguous();
  return x.dtype() == y.dtype() && x.dims() == y.dims() &&
         std::memcmp(x.raw_data(), y.raw_data(), x.nbytes()) == 0;
}

// A forward with a weight (a builtin.parameter), a reduction and a cf.if whose branch depends on
// the input, so threads take different branches at the same time.
Tensors forward(const Tensors& in, const Tensor& w) {
  Tensor h = tanh(matmul(in[0], w));
  Tensor pred = greater_than(sum(h), full({}, 0.0, DType::kFloat32));
  Tensors r = jit::cond(
      pred, [&] { return Tensors{multiply(h, h)}; }, [&] { return Tensors{exp(h)}; });
  return {add(r[0], scale(h, 0.5))};
}

void expect_thread_safe(jit::CompiledProgram& c) {
  constexpr int kInputs = 4, kThreads = 8, kCalls = 1000;
  std::vector<Tensor> inputs, want;
  for (int k = 0; k < kInputs; ++k) {
    inputs.push_back(input(k));
    want.push_back(c.run({inputs.back()}).at(0));
  }
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCalls; ++i) {
        const int k = (i + t) % kInputs;
        if (!bitwise_equal(c.run({inputs[k]}).at(0), want[k])) ++mismatches;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(ExecutorThreads, CompiledProgramWithControlFlow) {
  autograd::NoGradGuard no_grad;
  Tensor w = scale(input(3), 0.25);
  w = Tensor(DenseTensor(w.dense()));
  jit::CapturedProgram p = jit::capture(
      [&](const Tensors& in) { return forward(in, matmul(transpose(w, {1, 0}), w)); },
      {{{4, 8}, DType::kFloat32, "x"}});
  EXPECT_NE(p.program->print().find("cf.if"), std::string::npos);
  jit::CompiledProgram c(std::move(p));
  expect_thread_safe(c);
}

TEST(ExecutorThreads, ParsedProgram) {
  autograd::NoGradGuard no_grad;
  Tensor w = Tensor(DenseTensor(scale(input(2), 0.5).dense()));
  jit::CapturedProgram p = jit::capture(
      [&](const Tensors& in) { return Tensors{tanh(matmul(in[0], transpose(w, {1, 0})))}; },
      {{{4, 8}, DType::kFloat32, "x"}});
  jit::CapturedProgram parsed = jit::parse_program(p.program->print(), p.params);
  jit::CompiledProgram c(std::move(parsed));
  expect_thread_safe(c);
}

TEST(ExecutorThreads, StaticFunctionAfterItsFirstCall) {
  autograd::NoGradGuard no_grad;
  Tensor w = Tensor(DenseTensor(scale(input(1), 0.5).dense()));
  jit::StaticFunction f = jit::to_static(
      [&](const Tensors& in) { return forward(in, matmul(transpose(w, {1, 0}), w)); });
  Tensor x = input(0);
  Tensor want = f({x}).at(0);
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) mismatches += !bitwise_equal(f({x}).at(0), want);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
}  // namespace skiff
