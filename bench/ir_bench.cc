// IR benchmark: builds a generated program of ~100k ops (a chain of matmul/add/relu blocks with
// duplicates for CSE, identity and transpose pairs for canonicalization, constants to fold and
// dead ops), then times walk, clone, print, parse, verify and the standard pipeline
// (canonicalize, constant-fold, cse, dce), reporting time per op and heap bytes per op. Ops get
// the ops layer's infer-meta functions and kernel-executing folding (skiff/ops/ir/op_bridge.h).
//   build/bin/ir_bench [num_ops]
#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "skiff/base/str.h"
#include "skiff/ir/core/program.h"
#include "skiff/ir/core/verifier.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ir/dialects/register.h"
#include "skiff/ir/passes/passes.h"
#include "skiff/ops/ir/op_bridge.h"

using namespace skiff::ir;

namespace {

size_t heap_bytes() { return mallinfo2().uordblks; }

double time_ms(const std::function<void()>& fn) {
  auto t0 = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void build(Program& p, size_t target_ops) {
  IrContext* ctx = p.context();
  Builder b(ctx, p.block());
  const int64_t d = 64;
  Value x = b.build<op::DataOp>("x", std::vector<int64_t>{-1, d}, DataType::kFloat32).out();
  // Each block adds 14 ops; count them here (Program::num_ops walks the whole program).
  for (size_t i = 0, ops = 1; ops < target_ops; ++i, ops += 14) {
    b.set_loc(LocAttr::get(ctx, "model.py", static_cast<int64_t>(i), 1));
    Value w =
        ParameterOp::build(b, skiff::str("w", i), TensorType::get(ctx, DataType::kFloat32, {d, d}))
            .operation()
            ->result(0);
    Value bias =
        ParameterOp::build(b, skiff::str("b", i), TensorType::get(ctx, DataType::kFloat32, {d}))
            .operation()
            ->result(0);
    Value a = b.build<op::MatmulOp>(x, w).out();
    Value s = b.build<op::AddOp>(a, bias).out();
    Value c = b.build<op::ReluOp>(s).out();
    Value id = b.build<op::ScaleOp>(c, 1.0, 0.0).out();  // identity: canonicalize
    Value dup = b.build<op::ReluOp>(s).out();            // duplicate: CSE
    Value f = b.build<op::AddOp>(id, dup).out();
    Value t1 = b.build<op::TransposeOp>(f, std::vector<int64_t>{1, 0}).out();
    Value t2 = b.build<op::TransposeOp>(t1, std::vector<int64_t>{1, 0}).out();  // cancels
    Value k = b.build<op::FullOp>(std::vector<int64_t>{d}, 0.5, DataType::kFloat32).out();
    Value k2 = b.build<op::ScaleOp>(k, 2.0, 1.0).out();  // folds
    Value g = b.build<op::AddOp>(t2, k2).out();
    b.build<op::ExpOp>(g);  // dead: DCE
    x = g;
  }
  ShadowOutputOp::build(b, x, "out");
}

}  // namespace

int main(int argc, char** argv) {
  size_t target = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 100000;
  IrContext ctx;
  load_all_dialects(&ctx);
  skiff::ops::ir_bridge::attach_op_interfaces(&ctx);  // the real infer-meta and folding
  register_standard_passes();

  size_t heap0 = heap_bytes();
  auto program = std::make_unique<Program>(&ctx);
  double t_build = time_ms([&] { build(*program, target); });
  size_t n = program->num_ops();
  size_t heap_after_build = heap_bytes();
  size_t walked = 0;
  double t_walk = time_ms([&] { program->module()->walk([&](Operation*) { ++walked; }); });
  std::unique_ptr<Program> copy;
  double t_clone = time_ms([&] { copy = program->clone(); });
  copy.reset();
  double t_verify = time_ms([&] { program->verify(); });
  std::string text;
  double t_print = time_ms([&] { text = program->print(); });
  std::unique_ptr<Program> parsed;
  double t_parse = time_ms([&] { parsed = Program::parse(&ctx, text); });
  PassManager pm(&ctx, 1);
  pm.add_pipeline(kStandardPipeline);
  pm.enable_verifier(false);
  double t_pipeline = time_ms([&] { pm.run(*parsed); });
  size_t after_ops = parsed->num_ops();
  PassManager pm2(&ctx, 1);
  pm2.add_pipeline(kStandardPipeline);
  auto parsed2 = Program::parse(&ctx, text);
  double t_pipeline_verified = time_ms([&] { pm2.run(*parsed2); });

  auto row = [&](const char* what, double ms) {
    std::printf("%-28s %10.2f ms %10.1f ns/op\n", what, ms, ms * 1e6 / static_cast<double>(n));
  };
  std::printf("ops: %zu (walked %zu), text: %.1f MB, after pipeline: %zu ops\n", n, walked,
              text.size() / 1e6, after_ops);
  row("build (with infer-meta)", t_build);
  row("walk", t_walk);
  row("clone", t_clone);
  row("verify", t_verify);
  row("print", t_print);
  row("parse", t_parse);
  row("pipeline", t_pipeline);
  row("pipeline + verify each", t_pipeline_verified);
  std::printf("memory: %.1f bytes/op (heap growth while building, incl. uniqued attributes)\n",
              static_cast<double>(heap_after_build - heap0) / static_cast<double>(n));
  return 0;
}
