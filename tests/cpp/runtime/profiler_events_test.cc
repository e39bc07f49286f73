// What the runtime tells a running profiler: grad nodes inside a Backward range, executor
// instructions with their kernels, IR passes of the compile pipeline, allocator calls.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "skiff/ops/dispatch/mode.h"
#include "skiff/ops/generated/api.h"
#include "skiff/ops/profile_mode.h"
#include "skiff/profiler/profiler.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/jit/static_function.h"

namespace skiff {
namespace {

using profiler::EventType;

std::vector<const profiler::HostEvent*> of_type(const profiler::ProfilerResult& r, EventType t) {
  std::vector<const profiler::HostEvent*> out;
  for (const auto& e : r.events) {
    if (e.type == t) out.push_back(&e);
  }
  return out;
}

bool inside(const profiler::HostEvent& inner, const profiler::HostEvent& outer) {
  return inner.tid == outer.tid && outer.start_ns <= inner.start_ns && inner.end_ns <= outer.end_ns;
}

bool has_mode(const std::string& name) {
  for (const auto& m : dispatch::active_modes()) {
    if (m == name) return true;
  }
  return false;
}

TEST(ProfilerEvents, EagerOpsAreEventsOfTheProfileModeWithShapesAndKernel) {
  ops::install_profile_mode();
  Tensor a = full({2, 3}, 1.0, DType::kFloat32);
  Tensor b = full({3}, 2.0, DType::kFloat32);
  EXPECT_FALSE(has_mode("profile"));
  profiler::Profiler p({.record_shapes = true});
  p.start();
  EXPECT_TRUE(has_mode("profile"));
  Tensor c = add(a, b);
  Tensor d = concat({a, c}, 0);
  profiler::ProfilerResult r = p.stop();
  EXPECT_FALSE(has_mode("profile"));
  std::map<std::string, std::map<std::string, std::string>> ops;
  for (const auto* e : of_type(r, EventType::kOperator)) {
    for (const auto& [k, v] : e->args) ops[e->name][k] = v;
  }
  ASSERT_TRUE(ops.count("add"));
  EXPECT_EQ(ops["add"]["input_shapes"], "[[2, 3], [3]]");
  EXPECT_EQ(ops["add"]["input_dtypes"], "[float32, float32]");
  EXPECT_EQ(ops["add"]["kernel"], "add_cpu<float32>");
  ASSERT_TRUE(ops.count("concat"));
  EXPECT_EQ(ops["concat"]["input_shapes"], "[[[2, 3], [2, 3]]]");
  EXPECT_EQ(of_type(r, EventType::kKernel).size(), 2u);
}

TEST(ProfilerEvents, GradNodesRunInsideTheBackwardRange) {
  Tensor x = full({4, 3}, 2.0, DType::kFloat32);
  autograd::set_stop_gradient(x, false);
  Tensor loss = sum(multiply(x, x));
  profiler::Profiler p;
  p.start();
  autograd::backward({loss}, {}, false);
  profiler::ProfilerResult r = p.stop();
  auto backward = of_type(r, EventType::kBackward);
  ASSERT_EQ(backward.size(), 1u);
  int nodes = 0;
  for (const auto* e : of_type(r, EventType::kOperator)) {
    if (e->name.find("grad") != std::string::npos || e->name.find("Grad") != std::string::npos) {
      EXPECT_TRUE(inside(*e, *backward[0])) << e->name;
      ++nodes;
    }
  }
  EXPECT_GE(nodes, 2);  // multiply's and sum's nodes (and the leaf's accumulation)
}

TEST(ProfilerEvents, StaticRunsRecordInstructionsKernelsAndPasses) {
  jit::StaticFunction fn(
      [](const std::vector<Tensor>& in) { return std::vector<Tensor>{relu(add(in[0], in[0]))}; });
  Tensor x = full({2, 3}, -1.0, DType::kFloat32);
  profiler::Profiler p({.profile_memory = true});
  p.start();
  fn({x});  // captures, compiles (passes), runs
  fn({x});
  profiler::ProfilerResult r = p.stop();
  // The executor's two runs carry the kernel; the call captured into the program says so.
  int run = 0, captured = 0;
  for (const auto* e : of_type(r, EventType::kOperator)) {
    if (e->name != "relu") continue;
    for (const auto& [k, v] : e->args) {
      run += k == "kernel" && v == "relu_cpu<float32>";
      captured += k == "captured" && v == "true";
    }
  }
  EXPECT_EQ(run, 2);
  EXPECT_EQ(captured, 1);
  bool kernel_nested = false;
  for (const auto* k : of_type(r, EventType::kKernel)) {
    for (const auto* op : of_type(r, EventType::kOperator)) {
      kernel_nested = kernel_nested ||
                      (k->name == "relu_cpu<float32>" && op->name == "relu" && inside(*k, *op));
    }
  }
  EXPECT_TRUE(kernel_nested);
  std::set<std::string> passes;
  for (const auto* e : of_type(r, EventType::kIrPass)) passes.insert(e->name);
  EXPECT_TRUE(passes.count("dce")) << passes.size();
  bool allocated = false;
  for (const auto& m : r.mem_events) {
    allocated = allocated || (m.type == profiler::MemEventType::kAllocate && m.place == "cpu" &&
                              m.bytes >= 24 && m.allocated >= m.bytes);
  }
  EXPECT_TRUE(allocated);
}

}  // namespace
}  // namespace skiff
