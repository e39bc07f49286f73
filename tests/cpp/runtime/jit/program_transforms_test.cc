// The program transforms between capture and execution: the forward/backward split
// (jit/partition.h) and in-place parameter updates (jit/inplace_updates.h), before and after,
// and the executor's ordering of in-place writes after the readers of the written buffers.
#include <gtest/gtest.h>

#include "skiff/core/generator.h"
#include "skiff/ir/core/program.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/executor/executor.h"
#include "skiff/runtime/jit/capture.h"
#include "skiff/runtime/jit/inplace_updates.h"
#include "skiff/runtime/jit/partition.h"
#include "skiff/runtime/jit/static_function.h"

namespace skiff::testing {
namespace {

Tensor filled(Dims dims, double v) { return full(dims.to_vector(), Scalar(v), DType::kFloat32); }

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::vector<double> values(const Tensor& t) {
  Tensor d = cast(t, DType::kFloat64);
  const double* p = d.dense().data<double>();
  return std::vector<double>(p, p + d.numel());
}

// y = sum(tanh(x @ w)); dy -> dx, dw: the forward keeps tanh's output and x for the backward.
TEST(SplitForwardBackward, SavesWhatTheBackwardReads) {
  Tensor w = filled({3, 2}, 0.5);
  autograd::ensure_autograd_meta(w).stop_gradient = false;
  jit::CapturedProgram p = jit::capture(
      [&](const std::vector<Tensor>& in) {
        Tensor x = in[0];
        autograd::ensure_autograd_meta(x).stop_gradient = false;
        Tensor y = sum(tanh(matmul(x, w)));
        std::vector<Tensor> g = jit::gradients({y}, {x, w}, {in[1]});
        return std::vector<Tensor>{y, g[0], g[1]};
      },
      {{{4, 3}, DType::kFloat32, "x"}, {{}, DType::kFloat32, "dy"}});
  const std::string before = p.program->print();
  EXPECT_EQ(count(before, "op.matmul("), 3u) << before;
  jit::SplitProgram s = jit::split_forward_backward(p, {"out0"});
  const std::string fwd = s.forward.program->print(), bwd = s.backward.program->print();
  // Forward: one matmul, tanh, sum; it outputs y and the saved tanh output and x.
  EXPECT_EQ(count(fwd, "op.matmul("), 1u) << fwd;
  EXPECT_EQ(count(fwd, "op.tanh("), 1u) << fwd;
  EXPECT_EQ(count(fwd, "\"dy\""), 0u) << fwd;
  EXPECT_EQ(s.num_saved, 2u);
  EXPECT_EQ(s.forward.outputs, (std::vector<std::string>{"out0", "saved0", "saved1"}));
  // Backward: the two gradient matmuls, no forward recomputation.
  EXPECT_EQ(count(bwd, "op.matmul("), 2u) << bwd;
  EXPECT_EQ(count(bwd, "op.tanh("), 0u) << bwd;
  EXPECT_EQ(s.backward.inputs, (std::vector<std::string>{"saved0", "saved1", "dy"}));
  EXPECT_EQ(s.backward.outputs, (std::vector<std::string>{"out1", "out2"}));

  // Running the halves gives what the whole program gives.
  Tensor x = filled({4, 3}, 0.25), dy = filled({}, 2.0);
  std::vector<Tensor> whole = jit::CompiledProgram(jit::clone_program(p)).run({x, dy});
  std::vector<Tensor> f = jit::CompiledProgram(std::move(s.forward)).run({x});
  std::vector<Tensor> b = jit::CompiledProgram(std::move(s.backward)).run({f[1], f[2], dy});
  EXPECT_EQ(values(f[0]), values(whole[0]));
  EXPECT_EQ(values(b[0]), values(whole[1]));
  EXPECT_EQ(values(b[1]), values(whole[2]));
}

TEST(SplitForwardBackward, UnknownOutputIsAClearError) {
  jit::CapturedProgram p =
      jit::capture([](const std::vector<Tensor>& in) { return std::vector<Tensor>{exp(in[0])}; },
                   {{{2}, DType::kFloat32, "x"}});
  try {
    jit::split_forward_backward(p, {"nope"});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("expected names of program outputs, got nope"),
              std::string::npos)
        << e.what();
  }
}

// An SGD step captured: the fused update gets copies of the parameters (functional capture);
// the pass drops the copies the write-back makes redundant, unless the old value is read later.
TEST(InplaceUpdates, DropsCopiesOfParametersWrittenBack) {
  Tensor w = filled({4}, 1.0), v = filled({4}, 3.0);
  Tensor lr = filled({}, 0.5);
  auto step = [&](const std::vector<Tensor>& in) {
    autograd::NoGradGuard no_grad;
    Tensor g = in[0];
    fused_sgd_({w, v}, {g, g}, lr);
    // A read of w after the update sees the new value: the program's w is rebound to it.
    return std::vector<Tensor>{multiply(w, filled({4}, 1.0))};
  };
  jit::CapturedProgram p = jit::capture(step, {{{4}, DType::kFloat32, "g"}});
  const std::string before = p.program->print();
  EXPECT_EQ(count(before, "op.assign("), 2u) << before;
  EXPECT_EQ(jit::write_updates_in_place(p), 2);
  const std::string after = p.program->print();
  EXPECT_EQ(count(after, "op.assign("), 0u) << after;
  std::vector<Tensor> r = jit::CompiledProgram(std::move(p)).run({filled({4}, 2.0)});
  EXPECT_EQ(values(w), (std::vector<double>{0, 0, 0, 0}));
  EXPECT_EQ(values(v), (std::vector<double>{2, 2, 2, 2}));
  EXPECT_EQ(values(r[0]), (std::vector<double>{0, 0, 0, 0}));
}

TEST(InplaceUpdates, KeepsTheCopyWhenTheOldValueIsReadAfterwards) {
  Tensor w = filled({4}, 1.0);
  Tensor lr = filled({}, 0.5);
  jit::CapturedProgram p = jit::capture(
      [&](const std::vector<Tensor>& in) {
        autograd::NoGradGuard no_grad;
        Tensor old = reshape(w, {2, 2});  // a view of w's buffer, read after the update
        fused_sgd_({w}, {in[0]}, lr);
        return std::vector<Tensor>{exp(old)};
      },
      {{{4}, DType::kFloat32, "g"}});
  EXPECT_EQ(jit::write_updates_in_place(p), 0);
  EXPECT_EQ(count(p.program->print(), "op.assign("), 1u);
  std::vector<Tensor> r = jit::CompiledProgram(std::move(p)).run({filled({4}, 2.0)});
  EXPECT_NEAR(values(r[0])[0], std::exp(1.0), 1e-6);  // the old value of w
  EXPECT_EQ(values(w), (std::vector<double>{0, 0, 0, 0}));
}

// A compiled Adam step (lowered, so the update is the op's resolved in-place call): each run
// writes the parameters' and moments' own buffers, once each, and trains as eager Adam does.
TEST(InplaceUpdates, CompiledAdamStepWritesTheParameterBuffers) {
  auto make = [] {
    return std::vector<Tensor>{filled({3, 4}, 0.5), filled({4}, -1.0),   filled({3, 4}, 0.0),
                               filled({4}, 0.0),    filled({3, 4}, 0.0), filled({4}, 0.0)};
  };
  std::vector<Tensor> s = make(), e = make();  // w, b, m1(w), m1(b), m2(w), m2(b)
  Tensor lr = filled({}, 0.1), step = filled({}, 1.0);
  auto update = [&](std::vector<Tensor>& t, const Tensor& g) {
    autograd::NoGradGuard no_grad;
    Tensor gb = sum(g, {0});
    fused_adam_({t[0], t[1]}, {g, gb}, {t[2], t[3]}, {t[4], t[5]}, {}, lr, step);
  };
  jit::CapturedProgram p = jit::capture(
      [&](const std::vector<Tensor>& in) {
        update(s, in[0]);
        return std::vector<Tensor>{sum(in[0])};
      },
      {{{3, 4}, DType::kFloat32, "g"}});
  jit::CompiledProgram c(std::move(p));
  std::vector<const void*> data;
  for (const Tensor& t : s) data.push_back(t.dense().raw_data());
  for (int k = 1; k <= 3; ++k) {
    std::vector<uint32_t> versions;
    for (const Tensor& t : s) versions.push_back(t.dense().storage()->version());
    step.mutable_dense().copy_from(filled({}, k).dense());  // the program reads it each run
    Tensor g = filled({3, 4}, 0.25 * k);
    c.run({g});
    update(e, g);
    for (size_t j = 0; j < s.size(); ++j) {
      EXPECT_EQ(s[j].dense().raw_data(), data[j]) << "tensor " << j << " step " << k;
      EXPECT_EQ(s[j].dense().storage()->version(), versions[j] + 1) << "tensor " << j;
      EXPECT_EQ(values(s[j]), values(e[j])) << "tensor " << j << " step " << k;
    }
  }
}

// In parallel mode the in-place update must wait for every reader of the parameter.
TEST(InplaceUpdates, ParallelExecutorWritesAfterTheReaders) {
  Tensor w = filled({256, 256}, 1.0);
  Tensor lr = filled({}, 1.0);
  auto fn = [&](const std::vector<Tensor>& in) {
    autograd::NoGradGuard no_grad;
    std::vector<Tensor> reads;
    for (int i = 0; i < 8; ++i) reads.push_back(sum(tanh(multiply(w, in[0]))));
    fused_sgd_({w}, {in[0]}, lr);
    return reads;
  };
  for (int round = 0; round < 5; ++round) {
    w = filled({256, 256}, 1.0);
    executor::ExecutorOptions parallel;
    parallel.parallel = true;
    parallel.num_threads = 4;
    std::vector<Tensor> r =
        jit::CompiledProgram(jit::capture(fn, {{{256, 256}, DType::kFloat32, "g"}}), parallel)
            .run({filled({256, 256}, 1.0)});
    for (const Tensor& t : r) EXPECT_NEAR(values(t)[0], 65536 * std::tanh(1.0), 1.0);
    EXPECT_EQ(values(w)[0], 0.0);
  }
}

// A guarded run counts only if its guards hold: otherwise no update is written and the random
// generator is back where it was (the program drew numbers for nothing).
TEST(RunGuarded, WritesNothingWhenAGuardFails) {
  Tensor w = filled({2}, 0.0);
  jit::CapturedProgram p = jit::capture(
      [&](const std::vector<Tensor>& in) {
        autograd::NoGradGuard no_grad;
        Tensor noise = uniform({2}, DType::kFloat32, 0.0, 1.0, 0);
        add_(w, add(in[0], multiply(noise, filled({2}, 0.0))));
        return std::vector<Tensor>{sum(in[0]), greater_than(sum(in[0]), filled({}, 0.0))};
      },
      {{{2}, DType::kFloat32, "x"}});
  jit::CompiledProgram c(std::move(p), {}, /*in_place_updates=*/false);
  Generator& gen = default_generator(Place::cpu());
  gen.set_state({7, 0});
  const PhiloxState before = gen.state();
  // Output 1 is the guard (x.sum() > 0), captured as true.
  EXPECT_FALSE(c.run_guarded({filled({2}, -1.0)}, {{1, 1.0}}).has_value());
  EXPECT_EQ(values(w), (std::vector<double>{0, 0}));
  EXPECT_EQ(gen.state().offset, before.offset);
  std::optional<std::vector<Tensor>> r = c.run_guarded({filled({2}, 1.0)}, {{1, 1.0}});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(values((*r)[0]), (std::vector<double>{2}));
  EXPECT_EQ(values(w), (std::vector<double>{1, 1}));
  EXPECT_NE(gen.state().offset, before.offset);
  // A program whose updates are written in place during the run cannot be guarded.
  jit::CompiledProgram in_place(jit::capture(
      [&](const std::vector<Tensor>& in) {
        autograd::NoGradGuard no_grad;
        fused_sgd_({w}, {in[0]}, filled({}, 1.0));
        return std::vector<Tensor>{sum(in[0])};
      },
      {{{2}, DType::kFloat32, "x"}}));
  try {
    in_place.run_guarded({filled({2}, 1.0)}, {});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("argument 'run_guarded' expected a program compiled "
                                         "without in-place updates"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace skiff::testing
