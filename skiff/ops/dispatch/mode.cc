#include "skiff/ops/dispatch/mode.h"

#include <algorithm>
#include <mutex>

#include "skiff/base/error.h"
#include "skiff/base/str.h"

namespace skiff::dispatch {

namespace detail {
thread_local ThreadModes t_modes;
std::atomic<uint32_t> g_everywhere{0};
}  // namespace detail

namespace {

constexpr size_t kMaxModes = 8;

// Autograd and kernel are always on the stack; what they do for an op is the op's generated
// typed step, so they are trampolines here.
class AutogradMode final : public Mode {
 public:
  std::string_view name() const override { return "autograd"; }
  int order() const override { return order::kAutograd; }
  void handle(OpCall& call, const Next& next) override { call.steps().autograd(call, next); }
};

class KernelMode final : public Mode {
 public:
  std::string_view name() const override { return "kernel"; }
  int order() const override { return order::kKernel; }
  void handle(OpCall& call, const Next&) override { call.run_kernel(); }
};

AutogradMode g_autograd;
KernelMode g_kernel;

// Process-wide modes: written under the mutex, read without it on the call path.
std::mutex g_mutex;
std::atomic<Mode*> g_modes[kMaxModes];

void insert_sorted(Mode** modes, size_t& size, Mode* mode) {
  size_t i = size;
  while (i > 0 && modes[i - 1]->order() > mode->order()) {
    modes[i] = modes[i - 1];
    --i;
  }
  modes[i] = mode;
  ++size;
}

// The stack a call on this thread passes through: thread modes, process-wide modes, autograd
// and kernel, ordered (equal orders: thread modes first, then in enabling order).
size_t collect(Mode** out) {
  size_t n = 0;
  const auto& t = detail::t_modes;
  for (uint32_t i = 0; i < t.size; ++i) insert_sorted(out, n, t.modes[i]);
  if (detail::g_everywhere.load(std::memory_order_acquire) != 0) {
    for (auto& slot : g_modes) {
      if (Mode* m = slot.load(std::memory_order_acquire)) insert_sorted(out, n, m);
    }
  }
  insert_sorted(out, n, &g_autograd);
  insert_sorted(out, n, &g_kernel);
  return n;
}

}  // namespace

const TensorLists& OpCall::inputs() const {
  if (!inputs_) {
    inputs_.emplace();
    steps_->box_inputs(*this, *inputs_);
  }
  return *inputs_;
}

const Attrs& OpCall::attrs() const {
  if (!attrs_) {
    attrs_.emplace();
    steps_->box_attrs(*this, *attrs_);
  }
  return *attrs_;
}

void OpCall::set_outputs(TensorLists&& outs) { steps_->unbox_outputs(*this, std::move(outs)); }

TensorLists OpCall::outputs() const {
  SKIFF_ENFORCE(done_, kPrecondition, steps_->name, "outputs", "a call that has run",
                "a call no mode has produced outputs for yet");
  TensorLists out;
  steps_->box_outputs(*this, out);
  return out;
}

void OpCall::run_kernel() {
  if (kernel_fn_ != nullptr) {
    kernel_fn_(*this, kernel_ctx_);
    SKIFF_ENFORCE(done_, kInternal, steps_->name, "kernel", "outputs from the replaced kernel",
                  "none");
    return;
  }
  steps_->kernel(*this);
}

void Next::operator()(OpCall& call) const {
  SKIFF_CHECK(index_ < size_);
  modes_[index_]->handle(call, Next(modes_, size_, index_ + 1));
}

void enable_on_thread(Mode& mode) {
  auto& t = detail::t_modes;
  SKIFF_ENFORCE(!enabled_on_thread(mode), kPrecondition, "dispatch", std::string(mode.name()),
                "a mode not yet enabled on this thread", "enabled already");
  SKIFF_ENFORCE(t.size < kMaxModes, kPrecondition, "dispatch", std::string(mode.name()),
                str("at most ", kMaxModes, " modes per thread"), t.size + 1);
  t.modes[t.size++] = &mode;
}

void disable_on_thread(Mode& mode) {
  auto& t = detail::t_modes;
  for (uint32_t i = 0; i < t.size; ++i) {
    if (t.modes[i] == &mode) {
      std::copy(t.modes + i + 1, t.modes + t.size, t.modes + i);
      t.modes[--t.size] = nullptr;
      return;
    }
  }
}

bool enabled_on_thread(const Mode& mode) {
  const auto& t = detail::t_modes;
  return std::find(t.modes, t.modes + t.size, &mode) != t.modes + t.size;
}

void enable_everywhere(Mode& mode) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto& slot : g_modes) {
    SKIFF_ENFORCE(slot.load() != &mode, kPrecondition, "dispatch", std::string(mode.name()),
                  "a mode not yet enabled everywhere", "enabled already");
  }
  for (auto& slot : g_modes) {
    if (slot.load() == nullptr) {
      slot.store(&mode, std::memory_order_release);
      detail::g_everywhere.fetch_add(1, std::memory_order_release);
      return;
    }
  }
  SKIFF_THROW(kPrecondition, "dispatch", std::string(mode.name()),
              str("at most ", kMaxModes, " process-wide modes"), kMaxModes + 1);
}

void disable_everywhere(Mode& mode) {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (auto& slot : g_modes) {
    if (slot.load() == &mode) {
      slot.store(nullptr, std::memory_order_release);
      detail::g_everywhere.fetch_sub(1, std::memory_order_release);
      return;
    }
  }
}

ThreadModeSuspension::ThreadModeSuspension(Mode& mode)
    : mode_(mode), was_enabled_(enabled_on_thread(mode)) {
  if (was_enabled_) disable_on_thread(mode);
}

ThreadModeSuspension::~ThreadModeSuspension() {
  if (was_enabled_ && !enabled_on_thread(mode_)) enable_on_thread(mode_);
}

std::vector<std::string> active_modes() {
  Mode* modes[2 * kMaxModes + 2];
  const size_t n = collect(modes);
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) names.emplace_back(modes[i]->name());
  return names;
}

namespace detail {

void run(OpCall& call) {
  Mode* modes[2 * kMaxModes + 2];
  const size_t n = collect(modes);
  Next(modes, n, 0)(call);
  SKIFF_ENFORCE(call.has_outputs(), kInternal, std::string(call.name()), "dispatch",
                "outputs from some mode or the kernel", "a call every mode returned from without");
}

void check_outputs(const OpCall& call, const TensorLists& outs,
                   std::initializer_list<bool> is_list) {
  const std::string op(call.name());
  SKIFF_ENFORCE(outs.size() == is_list.size(), kInvalidArgument, op, "outputs",
                str(is_list.size(), " outputs"), outs.size());
  size_t j = 0;
  for (bool list : is_list) {
    SKIFF_ENFORCE(list || outs[j].size() == 1, kInvalidArgument, op, str("output ", j),
                  "exactly one tensor", str(outs[j].size(), " tensors"));
    ++j;
  }
}

}  // namespace detail

}  // namespace skiff::dispatch
