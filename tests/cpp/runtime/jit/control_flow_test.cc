// Control flow in both modes: cond, while_loop and switch_case run eagerly and captured (cf.if /
// cf.while lowered and run by the executor) give the same values and gradients; gradients also
// match finite differences in float64; every bad input names the op, argument and what it got.
#include "skiff/runtime/jit/control_flow.h"

#include <gtest/gtest.h>

#include <cmath>

#include "op_test_util.h"
#include "skiff/core/generator.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/program.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/executor/executor.h"
#include "skiff/runtime/jit/capture.h"
#include "skiff/runtime/jit/static_function.h"

namespace skiff::testing {
namespace {

using Tensors = std::vector<Tensor>;

Tensor f64(const Dims& dims, const std::vector<double>& v) {
  return Tensor(make_tensor(dims, DType::kFloat64, v));
}
Tensor i64(int64_t v) { return Tensor(make_tensor(Dims{}, DType::kInt64, {double(v)})); }
Tensor positive(const Tensor& x) { return greater_than(sum(x), full({}, 0.0, x.dtype())); }
Tensor requiring_grad(Tensor t) {
  autograd::set_stop_gradient(t, false);
  return t;
}

void expect_near(const Tensor& got, const Tensor& want, const std::string& where,
                 double tol = 1e-10) {
  ASSERT_EQ(got.dims(), want.dims()) << where;
  std::vector<double> a = to_doubles(got.dense()), b = to_doubles(want.dense());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], tol) << where << " [" << i << "]";
}

// Runs `fn` eagerly and through to_static (capture, lowering, executor) on each input set.
void expect_same_as_eager(const jit::Function& fn, const std::vector<Tensors>& inputs) {
  jit::StaticFunction f(fn);
  for (size_t k = 0; k < inputs.size(); ++k) {
    Tensors want = fn(inputs[k]);
    Tensors got = f(inputs[k]);
    ASSERT_EQ(got.size(), want.size());
    for (size_t j = 0; j < got.size(); ++j) {
      expect_near(got[j], want[j], str("input set ", k, " output ", j));
    }
  }
}

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

Tensors sample(const Tensors& in) {
  const Tensor& x = in[0];
  return jit::cond(
      positive(x), [&] { return Tensors{multiply(sin(x), x)}; },
      [&] { return Tensors{subtract(exp(x), x)}; });
}

TEST(Cond, CapturedMatchesEagerOnBothBranches) {
  expect_same_as_eager(sample, {{f64({3}, {0.5, 1, 2})}, {f64({3}, {-0.5, -1, 0.25})}});
  jit::CapturedProgram p = jit::capture(sample, {{{3}, DType::kFloat64, "x"}});
  EXPECT_NE(p.program->print().find("cf.if"), std::string::npos);
}

TEST(Cond, NestedCondsAndOuterValues) {
  auto fn = [](const Tensors& in) {
    const Tensor x = in[0];
    const Tensor y = scale(x, 3.0);  // defined outside, read inside both levels
    Tensors r = jit::cond(
        positive(x),
        [&] {
          return jit::cond(
              greater_than(sum(x), full({}, 3.0, DType::kFloat64)),
              [&] {
                return Tensors{add(x, y), x};
              },
              [&] {
                return Tensors{multiply(x, y), y};
              });
        },
        [&] {
          return Tensors{subtract(y, x), exp(x)};
        });
    return Tensors{r[0], add(r[1], x)};
  };
  expect_same_as_eager(fn, {{f64({2}, {2, 3})}, {f64({2}, {0.5, 1})}, {f64({2}, {-1, -2})}});
}

TEST(Cond, BranchesOfDifferentShapesGiveDynamicDims) {
  auto fn = [](const Tensors& in) {
    const Tensor x = in[0];
    return jit::cond(
        positive(x), [&] { return Tensors{x}; },
        [&] {
          return Tensors{concat({x, x})};
        });
  };
  jit::CapturedProgram p = jit::capture(fn, {{{3}, DType::kFloat64, "x"}});
  EXPECT_NE(p.program->print().find("-> tensor<?xf64>"), std::string::npos);
  expect_same_as_eager(fn, {{f64({3}, {1, 2, 3})}, {f64({3}, {-1, -2, -3})}});
}

// A loop whose trip count is an input: one program for every count, the same values as eager.
Tensors power_loop(const Tensors& in) {
  const Tensor x = in[0];
  Tensors r =
      jit::while_loop([&](const Tensors& v) { return less_than(v[0], in[1]); },
                      [&](const Tensors& v) {
                        return Tensors{add(v[0], full({}, 1, DType::kInt64)), add(sin(v[1]), x)};
                      },
                      {full({}, 0, DType::kInt64), x});
  return Tensors{r[0], r[1]};
}

TEST(WhileLoop, DynamicTripCountMatchesEager) {
  const Tensor x = f64({3}, {0.1, 0.2, -0.3});
  expect_same_as_eager(power_loop, {{x, i64(0)}, {x, i64(1)}, {x, i64(5)}});
  jit::StaticFunction f(power_loop);
  EXPECT_EQ(f({x, i64(7)})[0].item<int64_t>(), 7);
  f({x, i64(2)});
  EXPECT_EQ(f.num_captures(), 1);
}

TEST(WhileLoop, GrowingLoopVarGetsDynamicDims) {
  auto fn = [](const Tensors& in) {
    return jit::while_loop(
        [&](const Tensors& v) { return less_than(v[0], in[1]); },
        [&](const Tensors& v) {
          return Tensors{add(v[0], full({}, 1, DType::kInt64)), concat({v[1], scale(v[1], 2.0)})};
        },
        {full({}, 0, DType::kInt64), in[0]});
  };
  const Tensor x = f64({2}, {1, -1});
  expect_same_as_eager(fn, {{x, i64(0)}, {x, i64(3)}});
  jit::StaticFunction f(fn);
  EXPECT_EQ(f({x, i64(3)})[1].dims(), (Dims{16}));
}

TEST(WhileLoop, NestedCondInsideTheBody) {
  auto fn = [](const Tensors& in) {
    const Tensor x = in[0];
    return jit::while_loop(
        [&](const Tensors& v) { return less_than(v[0], full({}, 4, DType::kInt64)); },
        [&](const Tensors& v) {
          Tensors s = jit::cond(
              positive(v[1]), [&] { return Tensors{subtract(v[1], x)}; },
              [&] { return Tensors{add(v[1], scale(x, 2.0))}; });
          return Tensors{add(v[0], full({}, 1, DType::kInt64)), s[0]};
        },
        {full({}, 0, DType::kInt64), x});
  };
  expect_same_as_eager(fn, {{f64({2}, {1, 0.5})}, {f64({2}, {-1, 0.25})}});
}

TEST(SwitchCase, PicksTheBranchOrTheDefault) {
  auto with_default = [](const Tensors& in) {
    const Tensor x = in[0];
    return jit::switch_case(
        in[1], {{1, [&] { return Tensors{scale(x, 2.0)}; }}, {3, [&] { return Tensors{exp(x)}; }}},
        [&] { return Tensors{subtract(x, full({}, 1.0, DType::kFloat64))}; });
  };
  auto without_default = [](const Tensors& in) {
    const Tensor x = in[0];
    return jit::switch_case(
        in[1], {{2, [&] { return Tensors{sin(x)}; }}, {0, [&] { return Tensors{cos(x)}; }}});
  };
  const Tensor x = f64({2}, {0.5, -2});
  std::vector<Tensors> inputs;
  for (int64_t k : {0, 1, 2, 3, 7}) inputs.push_back({x, i64(k)});
  expect_same_as_eager(with_default, inputs);
  expect_same_as_eager(without_default, inputs);
  EXPECT_EQ(to_doubles(without_default({x, i64(7)})[0].dense()),
            to_doubles(sin(x).dense()));  // the largest index is the default
}

TEST(Executor, ParallelMatchesSequentialWithControlFlow) {
  auto fn = [](const Tensors& in) {
    Tensors outs;
    for (int b = 0; b < 4; ++b) {
      Tensor t = scale(in[0], 0.5 * (b + 1));
      // Random ops inside a branch and between cf ops: the generator is consumed in program
      // order in both modes.
      outs.push_back(jit::cond(
          positive(t), [&] { return Tensors{std::get<0>(dropout(tanh(t), 0.5f))}; },
          [&] { return Tensors{exp(t)}; })[0]);
      outs.push_back(std::get<0>(dropout(t, 0.3f)));
      outs.push_back(power_loop({t, in[1]})[1]);
    }
    return outs;
  };
  jit::CapturedProgram p =
      jit::capture(fn, {{{3}, DType::kFloat64, "x"}, {{}, DType::kInt64, "n"}});
  executor::Executor seq(p), par(p, {.parallel = true, .num_threads = 3});
  for (double sign : {1.0, -1.0}) {
    std::vector<DenseTensor> feeds = {make_tensor(Dims{3}, DType::kFloat64, {sign, 0.5, 2}),
                                      make_tensor(Dims{}, DType::kInt64, {3})};
    default_generator(Place::cpu()).set_state({42, 0});
    std::vector<DenseTensor> a = seq.run(feeds);
    default_generator(Place::cpu()).set_state({42, 0});
    std::vector<DenseTensor> b = par.run(feeds);
    ASSERT_EQ(a.size(), b.size());
    for (size_t j = 0; j < a.size(); ++j) {
      EXPECT_EQ(to_doubles(a[j]), to_doubles(b[j])) << "output " << j;
    }
  }
}

// A value used only inside a loop body stays alive across iterations; intermediates inside
// the body are released every iteration (the measured peak does not grow with the trip count).
TEST(Executor, LoopBodyBuffersAreReleasedEveryIteration) {
  auto fn = [](const Tensors& in) {
    const Tensor w = in[0];
    return Tensors{jit::while_loop([&](const Tensors& v) { return less_than(v[0], in[1]); },
                                   [&](const Tensors& v) {
                                     Tensor t = v[1];
                                     for (int i = 0; i < 4; ++i) t = tanh(add(t, w));
                                     return Tensors{add(v[0], full({}, 1, DType::kInt64)), t};
                                   },
                                   {full({}, 0, DType::kInt64), w})[1]};
  };
  jit::CapturedProgram p =
      jit::capture(fn, {{{64, 64}, DType::kFloat32, "w"}, {{}, DType::kInt64, "n"}});
  executor::Executor exec(p);
  EXPECT_EQ(exec.planned_peak_bytes(), -1);  // data dependent
  std::mt19937_64 rng(5);
  DenseTensor w = random_tensor(Dims{64, 64}, DType::kFloat32, Domain::kUnit, rng);
  exec.run({w, make_tensor(Dims{}, DType::kInt64, {2})});
  const int64_t short_run = exec.measured_peak_bytes();
  exec.run({w, make_tensor(Dims{}, DType::kInt64, {50})});
  EXPECT_EQ(exec.measured_peak_bytes(), short_run);
  EXPECT_LE(short_run, 4 * 64 * 64 * 4);
}

// ---------------------------------------------------------------------------------------------
// Gradients.

// f(x, w) = sum(cond(sum(x) > 0, sin(x) * w * u, exp(x * w) + u)) with u = 3x computed outside
// (a free variable that depends on another one).
Tensor cond_loss(const Tensor& x, const Tensor& w) {
  const Tensor u = scale(x, 3.0);
  return sum(jit::cond(
      positive(x), [&] { return Tensors{multiply(multiply(sin(x), w), u)}; },
      [&] { return Tensors{add(exp(multiply(x, w)), u)}; })[0]);
}

// f, df/dx, df/dw.
Tensors cond_loss_and_grads(const Tensor& x, const Tensor& w, bool captured) {
  Tensor f = cond_loss(x, w);
  Tensors g = captured ? jit::gradients({f}, {x, w}) : autograd::grad({f}, {x, w});
  return {f, g[0], g[1]};
}

TEST(CondGrad, MatchesEagerAndFiniteDifferences) {
  const Tensor w = requiring_grad(f64({3}, {0.7, -1.2, 0.4}));
  for (std::vector<double> xv : {std::vector<double>{0.5, 1, 2}, {-0.5, -1, 0.25}}) {
    const std::string where = xv[0] > 0 ? "then" : "else";
    const Tensor x = requiring_grad(f64({3}, xv));
    Tensors want = cond_loss_and_grads(x, w, false);
    jit::StaticFunction f(
        [&](const Tensors& in) { return cond_loss_and_grads(requiring_grad(in[0]), w, true); });
    Tensors got = f({f64({3}, xv)});
    for (size_t j = 0; j < 3; ++j) expect_near(got[j], want[j], str(where, " output ", j));
    // Central differences of the eager forward pass.
    const double h = 1e-6;
    for (size_t i = 0; i < 3; ++i) {
      std::vector<double> hi = xv, lo = xv;
      hi[i] += h;
      lo[i] -= h;
      autograd::GradModeGuard no_grad(false);
      double fd =
          (cond_loss(f64({3}, hi), w).item<double>() - cond_loss(f64({3}, lo), w).item<double>()) /
          (2 * h);
      EXPECT_NEAR(to_doubles(got[1].dense())[i], fd, 1e-6) << where << " d/dx" << i;
    }
  }
}

TEST(CondGrad, SecondOrderMatchesEager) {
  auto second = [](const Tensor& x, bool captured) {
    Tensor y = sum(jit::cond(
        positive(x), [&] { return Tensors{multiply(multiply(x, x), sin(x))}; },
        [&] { return Tensors{exp(scale(x, 2.0))}; })[0]);
    if (captured) {
      Tensor g1 = jit::gradients({y}, {x})[0];
      return Tensors{g1, jit::gradients({sum(g1)}, {x})[0]};
    }
    autograd::GradOptions o;
    o.create_graph = true;
    Tensor g1 = autograd::grad({y}, {x}, {}, o)[0];
    return Tensors{g1, autograd::grad({sum(g1)}, {x})[0]};
  };
  jit::StaticFunction f([&](const Tensors& in) { return second(requiring_grad(in[0]), true); });
  for (std::vector<double> xv : {std::vector<double>{0.5, 1, 2}, {-0.5, -1, 0.25}}) {
    Tensors want = second(requiring_grad(f64({3}, xv)), false);
    Tensors got = f({f64({3}, xv)});
    expect_near(got[0], want[0], "first order");
    expect_near(got[1], want[1], "second order");
  }
}

TEST(CondGrad, NestedCondGradientMatchesEager) {
  auto fn = [](const Tensor& x, bool captured) {
    Tensor y = sum(jit::cond(
        positive(x),
        [&] {
          return jit::cond(
              greater_than(sum(x), full({}, 3.0, DType::kFloat64)),
              [&] { return Tensors{multiply(x, x)}; }, [&] { return Tensors{sin(x)}; });
        },
        [&] { return Tensors{scale(x, -2.0)}; })[0]);
    return captured ? jit::gradients({y}, {x}) : autograd::grad({y}, {x});
  };
  jit::StaticFunction f([&](const Tensors& in) { return fn(requiring_grad(in[0]), true); });
  for (std::vector<double> xv : {std::vector<double>{2, 3}, {0.5, 1}, {-1, -2}}) {
    expect_near(f({f64({2}, xv)})[0], fn(requiring_grad(f64({2}, xv)), false)[0], "nested");
  }
}

// s <- sin(s) * w + x, n times from s = x (x is both the init and a free variable; w a dense
// parameter the body reads). Returns sum(s * s).
Tensor loop_loss(const Tensor& x, const Tensor& w, const Tensor& n) {
  Tensors r = jit::while_loop(
      [&](const Tensors& v) { return less_than(v[0], n); },
      [&](const Tensors& v) {
        return Tensors{add(v[0], full({}, 1, DType::kInt64)), add(multiply(sin(v[1]), w), x)};
      },
      {full({}, 0, DType::kInt64), x});
  return sum(multiply(r[1], r[1]));
}

TEST(WhileGrad, MatchesEagerAndFiniteDifferences) {
  const Tensor w = requiring_grad(f64({3}, {0.7, -1.2, 0.4}));
  const std::vector<double> xv = {0.3, -0.8, 1.1};
  jit::StaticFunction f([&](const Tensors& in) {
    Tensor x = requiring_grad(in[0]);
    Tensor l = loop_loss(x, w, in[1]);
    Tensors g = jit::gradients({l}, {x, w});
    return Tensors{l, g[0], g[1]};
  });
  for (int64_t n : {0, 1, 4}) {
    const Tensor x = requiring_grad(f64({3}, xv));
    Tensor l = loop_loss(x, w, i64(n));
    autograd::GradOptions unused_ok;
    unused_ok.allow_unused = true;  // w is unused when the loop runs 0 times
    Tensors want = autograd::grad({l}, {x, w}, {}, unused_ok);
    if (!want[1].defined()) want[1] = zeros_like(w);
    Tensors got = f({f64({3}, xv), i64(n)});
    expect_near(got[0], l, str("loss, n = ", n));
    expect_near(got[1], want[0], str("d/dx, n = ", n));
    expect_near(got[2], want[1], str("d/dw, n = ", n));
    const double h = 1e-6;
    for (size_t i = 0; i < 3; ++i) {
      std::vector<double> hi = xv, lo = xv;
      hi[i] += h;
      lo[i] -= h;
      autograd::GradModeGuard no_grad(false);
      double fd = (loop_loss(f64({3}, hi), w, i64(n)).item<double>() -
                   loop_loss(f64({3}, lo), w, i64(n)).item<double>()) /
                  (2 * h);
      EXPECT_NEAR(to_doubles(got[1].dense())[i], fd, 1e-5) << "n = " << n << " d/dx" << i;
    }
  }
  EXPECT_EQ(f.num_captures(), 1);
}

TEST(WhileGrad, CondInsideTheBodyMatchesEager) {
  auto fn = [](const Tensor& x, bool captured) {
    Tensors r = jit::while_loop(
        [&](const Tensors& v) { return less_than(v[0], full({}, 3, DType::kInt64)); },
        [&](const Tensors& v) {
          Tensors s = jit::cond(
              positive(v[1]), [&] { return Tensors{multiply(v[1], x)}; },
              [&] { return Tensors{exp(v[1])}; });
          return Tensors{add(v[0], full({}, 1, DType::kInt64)), s[0]};
        },
        {full({}, 0, DType::kInt64), scale(x, 0.5)});
    Tensor l = sum(r[1]);
    return captured ? jit::gradients({l}, {x}) : autograd::grad({l}, {x});
  };
  jit::StaticFunction f([&](const Tensors& in) { return fn(requiring_grad(in[0]), true); });
  for (std::vector<double> xv : {std::vector<double>{0.5, 1.5}, {-0.5, 0.2}}) {
    expect_near(f({f64({2}, xv)})[0], fn(requiring_grad(f64({2}, xv)), false)[0], "loop+cond");
  }
}

// The backward replays recorded regions with nested cf ops in them: a loop inside a branch,
// a loop inside a loop body.
TEST(WhileGrad, NestedLoopsInBranchesAndBodiesMatchEager) {
  auto inner = [](const Tensor& s, const Tensor& x) {
    return jit::while_loop(
        [](const Tensors& v) { return less_than(v[0], full({}, 2, DType::kInt64)); },
        [&](const Tensors& v) {
          return Tensors{add(v[0], full({}, 1, DType::kInt64)), multiply(sin(v[1]), x)};
        },
        {full({}, 0, DType::kInt64), s})[1];
  };
  using GradFn = std::function<Tensors(const Tensor&, bool)>;
  GradFn loop_in_branch = [&](const Tensor& x, bool captured) {
    Tensor y = sum(jit::cond(
        positive(x), [&] { return Tensors{inner(x, x)}; }, [&] { return Tensors{exp(x)}; })[0]);
    return captured ? jit::gradients({y}, {x}) : autograd::grad({y}, {x});
  };
  GradFn loop_in_loop = [&](const Tensor& x, bool captured) {
    Tensors r = jit::while_loop(
        [](const Tensors& v) { return less_than(v[0], full({}, 3, DType::kInt64)); },
        [&](const Tensors& v) {
          return Tensors{add(v[0], full({}, 1, DType::kInt64)), add(inner(v[1], x), x)};
        },
        {full({}, 0, DType::kInt64), x});
    Tensor y = sum(r[1]);
    return captured ? jit::gradients({y}, {x}) : autograd::grad({y}, {x});
  };
  for (const GradFn* fn : {&loop_in_branch, &loop_in_loop}) {
    jit::StaticFunction f([&](const Tensors& in) { return (*fn)(requiring_grad(in[0]), true); });
    for (std::vector<double> xv : {std::vector<double>{0.5, 1.5}, {-0.5, 0.2}}) {
      expect_near(f({f64({2}, xv)})[0], (*fn)(requiring_grad(f64({2}, xv)), false)[0],
                  fn == &loop_in_branch ? "loop in branch" : "loop in loop");
    }
  }
}

// A program with control flow and its backward prints and parses back to the same text.
TEST(WhileGrad, ProgramRoundTripsThroughText) {
  const Tensor w = requiring_grad(f64({3}, {0.7, -1.2, 0.4}));
  jit::CapturedProgram p = jit::capture(
      [&](const Tensors& in) {
        Tensor x = requiring_grad(in[0]);
        Tensor l = add(loop_loss(x, w, in[1]), cond_loss(x, w));
        return jit::gradients({l}, {x, w});
      },
      {{{3}, DType::kFloat64, "x"}, {{}, DType::kInt64, "n"}});
  const std::string text = p.program->print();
  EXPECT_NE(text.find("loop_vars = 2"), std::string::npos);
  std::unique_ptr<ir::Program> q = ir::Program::parse(p.context.get(), text);
  EXPECT_EQ(q->print(), text);
}

TEST(WhileGrad, SecondOrderMatchesEager) {
  const Tensor w = requiring_grad(f64({3}, {0.7, -1.2, 0.4}));
  auto second = [&](const Tensor& x, const Tensor& n, bool captured) {
    Tensor l = loop_loss(x, w, n);
    if (captured) {
      Tensor g1 = jit::gradients({l}, {x})[0];
      Tensors g2 = jit::gradients({sum(multiply(g1, g1))}, {x, w});
      return Tensors{g1, g2[0], g2[1]};
    }
    autograd::GradOptions o;
    o.create_graph = true;
    Tensor g1 = autograd::grad({l}, {x}, {}, o)[0];
    Tensors g2 = autograd::grad({sum(multiply(g1, g1))}, {x, w});
    return Tensors{g1, g2[0], g2[1]};
  };
  jit::StaticFunction f(
      [&](const Tensors& in) { return second(requiring_grad(in[0]), in[1], true); });
  for (int64_t n : {1, 3}) {
    Tensors want = second(requiring_grad(f64({3}, {0.3, -0.8, 1.1})), i64(n), false);
    Tensors got = f({f64({3}, {0.3, -0.8, 1.1}), i64(n)});
    for (size_t j = 0; j < 3; ++j) expect_near(got[j], want[j], str("n = ", n, " output ", j));
  }
}

TEST(WhileGrad, UnsupportedCasesAreClearErrors) {
  auto growing = [](const Tensors& in) {
    Tensor x = requiring_grad(in[0]);
    Tensors r =
        jit::while_loop([&](const Tensors& v) { return less_than(v[0], in[1]); },
                        [&](const Tensors& v) {
                          return Tensors{add(v[0], full({}, 1, DType::kInt64)), concat({v[1], x})};
                        },
                        {full({}, 0, DType::kInt64), x});
    return jit::gradients({r[1]}, {x}, {r[1]});  // a seed of the same dynamic shape
  };
  const std::string growing_error = error_of([&] {
    jit::capture(growing, {{{3}, DType::kFloat64, "x"}, {{}, DType::kInt64, "n"}});
  });
  EXPECT_NE(growing_error.find("expected loop vars of static shapes that the body keeps"),
            std::string::npos)
      << growing_error;
}

// ---------------------------------------------------------------------------------------------
// Errors.

TEST(ControlFlowErrors, PredicateMustBeABoolScalar) {
  const Tensor x = f64({3}, {1, 2, 3});
  auto branch = [&] { return Tensors{x}; };
  EXPECT_NE(error_of([&] { jit::cond(sum(x), branch, branch); })
                .find("cond: argument 'pred' expected a bool tensor with one element (shape [] "
                      "or [1]), got a float64 tensor"),
            std::string::npos);
  EXPECT_NE(error_of([&] { jit::cond(greater_than(x, x), branch, branch); })
                .find("cond: argument 'pred' expected a bool tensor with one element (shape [] "
                      "or [1]), got shape [3]"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              jit::capture([&](const Tensors& in) { return jit::cond(sum(in[0]), branch, branch); },
                           {{{3}, DType::kFloat64, "x"}});
            }).find("got a float64 tensor"),
            std::string::npos);
}

TEST(ControlFlowErrors, BranchesMustAgree) {
  auto capture_cond = [](jit::Branch a, jit::Branch b) {
    return error_of([&] {
      jit::capture([&](const Tensors& in) { return jit::cond(positive(in[0]), a, b); },
                   {{{3}, DType::kFloat64, "x"}});
    });
  };
  const Tensor x = f64({3}, {1, 2, 3});
  EXPECT_NE(capture_cond([&] { return Tensors{x}; },
                         [&] {
                           return Tensors{x, x};
                         })
                .find("cond: argument 'false_fn' expected 1 tensors (as true_fn), got 2 tensors"),
            std::string::npos);
  EXPECT_NE(
      capture_cond([&] { return Tensors{x}; }, [&] { return Tensors{full({3}, 1, DType::kInt64)}; })
          .find("cond: argument 'false_fn output 0' expected float64 (as true_fn), got int64"),
      std::string::npos);
  EXPECT_NE(capture_cond([&] { return Tensors{x}; },
                         [&] {
                           return Tensors{full({3, 1}, 1.0, DType::kFloat64)};
                         })
                .find("cond: argument 'false_fn output 0' expected a shape of rank 1 (as true_fn: "
                      "[3]), got shape [3, 1]"),
            std::string::npos);
}

TEST(ControlFlowErrors, LoopBodyMustKeepTheLoopVars) {
  auto run = [](jit::LoopBody body, jit::LoopCond c, bool captured) {
    return error_of([&] {
      auto fn = [&](const Tensors& in) {
        return jit::while_loop(c, body, {full({}, 0, DType::kInt64), in[0]});
      };
      if (captured) {
        jit::capture(fn, {{{2}, DType::kFloat64, "x"}});
      } else {
        fn({f64({2}, {1, 2})});
      }
    });
  };
  auto below3 = [](const Tensors& v) { return less_than(v[0], full({}, 3, DType::kInt64)); };
  auto one = [](const Tensor& i) { return add(i, full({}, 1, DType::kInt64)); };
  for (bool captured : {false, true}) {
    EXPECT_NE(run([&](const Tensors& v) { return Tensors{one(v[0])}; }, below3, captured)
                  .find("while_loop: argument 'body' expected 2 tensors (as loop_vars), got 1 "
                        "tensors"),
              std::string::npos)
        << captured;
    EXPECT_NE(run(
                  [&](const Tensors& v) {
                    return Tensors{one(v[0]), cast(v[1], DType::kFloat32)};
                  },
                  below3, captured)
                  .find("while_loop: argument 'body output 1' expected float64 (as loop_vars), got "
                        "float32"),
              std::string::npos)
        << captured;
    EXPECT_NE(run(
                  [&](const Tensors& v) {
                    return Tensors{one(v[0]), v[1]};
                  },
                  [](const Tensors& v) { return v[0]; }, captured)
                  .find("while_loop: argument 'cond' expected a bool tensor with one element"),
              std::string::npos)
        << captured;
  }
}

TEST(ControlFlowErrors, SwitchCaseIndexMustBeAnIntegerScalar) {
  const Tensor x = f64({3}, {1, 2, 3});
  auto branch = [&] { return Tensors{x}; };
  EXPECT_NE(error_of([&] {
              jit::switch_case(x, {{0, branch}});
            })
                .find("switch_case: argument 'branch_index' expected an integer tensor with one "
                      "element, got a float64 tensor"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              jit::switch_case(i64(0), {{0, branch}, {0, branch}});
            })
                .find("switch_case: argument 'branch_fns' expected distinct branch indices, got "
                      "index 0 twice"),
            std::string::npos);
}

// A branch cannot rebind a tensor from outside it (the new value would exist only inside the
// region); writing a tensor the branch made itself is fine.
TEST(ControlFlowErrors, InplaceWriteToAnOuterTensorInsideABranch) {
  const Tensor w = f64({2}, {1, 2});  // a parameter of the program
  for (bool param : {false, true}) {
    const std::string e = error_of([&] {
      jit::capture(
          [&](const Tensors& in) {
            Tensor x = in[0];
            return jit::cond(
                positive(x),
                [&] {
                  exp_(param ? w : x);
                  return Tensors{x};
                },
                [&] { return Tensors{x}; });
          },
          {{{2}, DType::kFloat64, "x"}});
    });
    EXPECT_NE(e.find("exp_: argument 'x' expected a tensor created inside the cond branch or "
                     "while_loop body it is written in"),
              std::string::npos)
        << e;
  }
  auto local_write = [](const Tensors& in) {
    const Tensor x = in[0];
    return jit::cond(
        positive(x),
        [&] {
          Tensor y = scale(x, 2.0);
          exp_(y);
          return Tensors{y};
        },
        [&] { return Tensors{x}; });
  };
  expect_same_as_eager(local_write, {{f64({2}, {1, 2})}, {f64({2}, {-1, -2})}});
}

// The backward replays a branch: random ops there would not redraw the forward's values.
TEST(ControlFlowErrors, RandomOpsInADifferentiatedBranch) {
  const std::string e = error_of([] {
    jit::capture(
        [](const Tensors& in) {
          Tensor x = requiring_grad(in[0]);
          Tensor y = jit::cond(
              positive(x), [&] { return Tensors{std::get<0>(dropout(x, 0.5f))}; },
              [&] { return Tensors{x}; })[0];
          return jit::gradients({sum(y)}, {x});
        },
        {{{4}, DType::kFloat64, "x"}});
  });
  EXPECT_NE(e.find("cond: argument 'gradients' expected a branch without random ops when "
                   "differentiated"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("got a branch calling dropout"), std::string::npos) << e;
  const std::string w = error_of([] {
    jit::capture(
        [](const Tensors& in) {
          Tensor x = requiring_grad(in[0]);
          Tensor y = jit::while_loop(
              [](const Tensors& v) { return less_than(v[0], full({}, 2, DType::kInt64)); },
              [](const Tensors& v) {
                return Tensors{add(v[0], full({}, 1, DType::kInt64)),
                               std::get<0>(dropout(v[1], 0.5f))};
              },
              {full({}, 0, DType::kInt64), x})[1];
          return jit::gradients({sum(y)}, {x});
        },
        {{{4}, DType::kFloat64, "x"}});
  });
  EXPECT_NE(w.find("while_loop: argument 'gradients' expected a loop body without random ops"),
            std::string::npos)
      << w;
}

// A condition whose size is known only at run time is checked when the cf op runs.
TEST(ControlFlowErrors, ConditionOfTheWrongSizeAtRunTime) {
  jit::CapturedProgram p = jit::parse_program(R"(builtin.module {
  %x = op.data {dtype = f64, name = "x", shape = [2]} : () -> tensor<2xf64>
  %c = op.data {dtype = bool, name = "c", shape = [-1]} : () -> tensor<?xbool>
  %r = cf.if(%c) : (tensor<?xbool>) -> tensor<2xf64> {
    %e = op.exp(%x) : (tensor<2xf64>) -> tensor<2xf64>
    cf.yield(%e) : (tensor<2xf64>) -> ()
  } {
    cf.yield(%x) : (tensor<2xf64>) -> ()
  }
  builtin.shadow_output(%r) {name = "r"} : (tensor<2xf64>) -> ()
})",
                                              {});
  executor::Executor exec(p);
  const DenseTensor x = make_tensor(Dims{2}, DType::kFloat64, {0, 1});
  // exp runs on libmvec's vector exp, which may differ from std::exp in the last bit.
  const auto taken = to_doubles(exec.run({x, make_tensor(Dims{1}, DType::kBool, {1})})[0]);
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken[0], 1.0);
  EXPECT_NEAR(taken[1], std::exp(1.0), 1e-15);
  const std::string e = error_of([&] {
    exec.run({x, make_tensor(Dims{3}, DType::kBool, {1, 0, 1})});
  });
  EXPECT_NE(e.find("executor: argument 'cf.if' expected a bool condition with one element, got "
                   "bool [3]"),
            std::string::npos)
      << e;
}

}  // namespace
}  // namespace skiff::testing
