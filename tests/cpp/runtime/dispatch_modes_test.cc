// The dispatch mode stack (skiff/ops/dispatch/mode.h): modes written here, in the test, see
// every call of the generated op API without any change to the generated code; their order,
// handling a call, replacing the kernel, boxed arguments, process-wide modes, and capture as a
// mode.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "gradcheck.h"
#include "skiff/ops/dispatch/mode.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/jit/capture.h"

namespace skiff::testing {
namespace {

using dispatch::Mode;
using dispatch::Next;
using dispatch::OpCall;

// Counts the calls it sees and the log of (mode name, op name) they arrive in.
class CountingMode : public Mode {
 public:
  CountingMode(std::string name, int order, std::vector<std::string>* log = nullptr)
      : name_(std::move(name)), order_(order), log_(log) {}
  std::string_view name() const override { return name_; }
  int order() const override { return order_; }
  void handle(OpCall& call, const Next& next) override {
    ++calls;
    ops.emplace_back(call.name());
    if (log_ != nullptr) log_->push_back(name_ + ":" + std::string(call.name()));
    next(call);
  }
  int calls = 0;
  std::vector<std::string> ops;

 private:
  std::string name_;
  int order_;
  std::vector<std::string>* log_;
};

// Enables a mode on this thread for a scope.
struct ThreadMode {
  explicit ThreadMode(Mode& m) : mode(m) { dispatch::enable_on_thread(m); }
  ~ThreadMode() { dispatch::disable_on_thread(mode); }
  Mode& mode;
};

TEST(DispatchModesTest, ANewModeSeesEveryOpCallWithoutGeneratedChanges) {
  CountingMode counter("counter", dispatch::order::kProfile);
  Tensor x = tensor64({3}, {1, -2, 3});
  {
    ThreadMode on(counter);
    Tensor y = relu(add(x, x));
    EXPECT_EQ(values(y), (std::vector<double>{2, 0, 6}));
  }
  EXPECT_EQ(counter.calls, 2);
  EXPECT_EQ(counter.ops, (std::vector<std::string>{"add", "relu"}));
  relu(x);  // disabled: no longer counted
  EXPECT_EQ(counter.calls, 2);
}

TEST(DispatchModesTest, ModesRunInStackOrderWhateverTheEnablingOrder) {
  std::vector<std::string> log;
  CountingMode inner("inner", dispatch::order::kProfile, &log);
  CountingMode outer("outer", dispatch::order::kAmp, &log);
  ThreadMode a(inner);
  ThreadMode b(outer);
  EXPECT_EQ(dispatch::active_modes(),
            (std::vector<std::string>{"outer", "autograd", "inner", "kernel"}));
  relu(tensor64({1}, {1}));
  EXPECT_EQ(log, (std::vector<std::string>{"outer:relu", "inner:relu"}));
}

TEST(DispatchModesTest, ModesSeeBoxedInputsAttributesAndOutputs) {
  class Inspector : public Mode {
   public:
    std::string_view name() const override { return "inspector"; }
    int order() const override { return dispatch::order::kProfile; }
    void handle(OpCall& call, const Next& next) override {
      EXPECT_EQ(call.schema().name, "sum");
      EXPECT_EQ(call.id(), call.schema().id);
      ASSERT_EQ(call.inputs().size(), 1u);
      dims = call.inputs()[0][0].dims();
      axis = std::get<std::vector<int64_t>>(call.attrs().at("axis"));
      keepdim = std::get<bool>(call.attrs().at("keepdim"));
      EXPECT_FALSE(call.has_outputs());
      next(call);
      out_dims = call.outputs()[0][0].dims();
    }
    Dims dims, out_dims;
    std::vector<int64_t> axis;
    bool keepdim = false;
  } inspector;
  ThreadMode on(inspector);
  Tensor s = sum(tensor64({2, 3}, {1, 2, 3, 4, 5, 6}), {1}, DType::kUndefined, true);
  EXPECT_EQ(values(s), (std::vector<double>{6, 15}));
  EXPECT_EQ(inspector.dims, (Dims{2, 3}));
  EXPECT_EQ(inspector.axis, (std::vector<int64_t>{1}));
  EXPECT_TRUE(inspector.keepdim);
  EXPECT_EQ(inspector.out_dims, (Dims{2, 1}));
}

// Replaces the kernel of multiply by add; autograd above still records multiply's rule.
class SwapKernel : public Mode {
 public:
  std::string_view name() const override { return "swap"; }
  int order() const override { return dispatch::order::kDistributed; }
  void handle(OpCall& call, const Next& next) override {
    if (call.name() == "multiply") call.replace_kernel(&add_instead, nullptr);
    next(call);
  }
  static void add_instead(OpCall& call, void*) {
    const auto& in = call.inputs();
    dispatch::ThreadModeSuspension off(*self);
    call.set_outputs({{add(in[0][0], in[1][0])}});
  }
  static inline SwapKernel* self = nullptr;
};

TEST(DispatchModesTest, AModeCanReplaceTheKernelAndAutogradRecordsTheResult) {
  SwapKernel swap;
  SwapKernel::self = &swap;
  Tensor x = tensor64({2}, {2, 3}, true);
  Tensor y = tensor64({2}, {4, 5});
  Tensor z;
  {
    ThreadMode on(swap);
    z = multiply(x, y);
  }
  EXPECT_EQ(values(z), (std::vector<double>{6, 8}));  // the replacement ran
  autograd::backward({sum(z)});
  // multiply's rule: dz/dx = y.
  EXPECT_EQ(values(autograd::autograd_meta(x)->grad), (std::vector<double>{4, 5}));
}

TEST(DispatchModesTest, AModeAboveAutogradThatHandlesTheCallRecordsNothing) {
  class Constant : public Mode {
   public:
    std::string_view name() const override { return "constant"; }
    int order() const override { return dispatch::order::kAmp; }
    void handle(OpCall& call, const Next&) override {
      dispatch::ThreadModeSuspension off(*this);
      call.set_outputs({{full({2}, Scalar(7.0), DType::kFloat64)}});
    }
  } constant;
  Tensor x = tensor64({2}, {1, 2}, true);
  Tensor y;
  {
    ThreadMode on(constant);
    y = exp(x);
  }
  EXPECT_EQ(values(y), (std::vector<double>{7, 7}));
  EXPECT_EQ(autograd::autograd_meta(y) ? autograd::autograd_meta(y)->grad_node : nullptr, nullptr);
}

TEST(DispatchModesTest, InplaceCallsAreSeenAsSuch) {
  class Inplace : public Mode {
   public:
    std::string_view name() const override { return "inplace"; }
    int order() const override { return dispatch::order::kProfile; }
    void handle(OpCall& call, const Next& next) override {
      seen = std::string(call.name()) + (call.inplace() ? " inplace" : "");
      EXPECT_EQ(&call.input_handle(0, 0), target);
      next(call);
    }
    std::string seen;
    const Tensor* target = nullptr;
  } mode;
  Tensor x = tensor64({2}, {1, 2});
  mode.target = &x;
  ThreadMode on(mode);
  add_(x, tensor64({2}, {1, 1}));
  EXPECT_EQ(mode.seen, "add_ inplace");
  EXPECT_EQ(values(x), (std::vector<double>{2, 3}));
}

TEST(DispatchModesTest, BadModesAndDoubleEnablingGiveClearErrors) {
  class Silent : public Mode {
   public:
    std::string_view name() const override { return "silent"; }
    int order() const override { return dispatch::order::kProfile; }
    void handle(OpCall&, const Next&) override {}
  } silent;
  ThreadMode on(silent);
  try {
    relu(tensor64({1}, {1}));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("relu"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("outputs"), std::string::npos) << e.what();
  }
  try {
    dispatch::enable_on_thread(silent);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("enabled already"), std::string::npos) << e.what();
  }
}

TEST(DispatchModesTest, ProcessWideModesSeeCallsOnEveryThread) {
  static CountingMode everywhere("everywhere", dispatch::order::kProfile);
  everywhere.calls = 0;
  dispatch::enable_everywhere(everywhere);
  std::thread t([] { relu(tensor64({1}, {1})); });
  t.join();
  relu(tensor64({1}, {1}));
  dispatch::disable_everywhere(everywhere);
  relu(tensor64({1}, {1}));
  EXPECT_EQ(everywhere.calls, 2);
  EXPECT_FALSE(dispatch::intercepted());
}

TEST(DispatchModesTest, CaptureIsAModeOnTheCapturingThread) {
  EXPECT_EQ(dispatch::active_modes(), (std::vector<std::string>{"autograd", "kernel"}));
  CountingMode counter("counter", dispatch::order::kProfile);
  jit::CaptureScope scope(jit::default_context(), jit::CaptureScope::Activation::kLater);
  scope.activate();
  EXPECT_EQ(dispatch::active_modes(), (std::vector<std::string>{"capture", "autograd", "kernel"}));
  {
    jit::CaptureSuspension eager;
    EXPECT_EQ(dispatch::active_modes(), (std::vector<std::string>{"autograd", "kernel"}));
  }
  ThreadMode on(counter);
  Tensor x = scope.input({{-1, 3}, DType::kFloat32, "x"});
  Tensor y = relu(x);
  EXPECT_EQ(y.kind(), TensorKind::kSymbolic);
  EXPECT_EQ(counter.ops, (std::vector<std::string>{"relu"}));  // a mode below sees captured ops
  scope.deactivate();
  EXPECT_EQ(dispatch::active_modes(), (std::vector<std::string>{"autograd", "counter", "kernel"}));
}

}  // namespace
}  // namespace skiff::testing
