#include "skiff/runtime/jit/static_function.h"

#include "skiff/base/error.h"
#include "skiff/core/generator.h"
#include "skiff/ir/passes/pass.h"
#include "skiff/ir/passes/passes.h"
#include "skiff/ops/generated/api.h"
#include "skiff/ops/ir/lower_to_kernel.h"
#include "skiff/runtime/jit/inplace_updates.h"

namespace skiff::jit {

namespace {
bool matches(const std::vector<InputSpec>& specs, const std::vector<Tensor>& inputs) {
  if (specs.size() != inputs.size()) return false;
  for (size_t i = 0; i < specs.size(); ++i) {
    const InputSpec& s = specs[i];
    const Tensor& t = inputs[i];
    if (t.dtype() != s.dtype || t.rank() != static_cast<int>(s.shape.size())) return false;
    for (int d = 0; d < t.rank(); ++d) {
      if (s.shape[d] != -1 && s.shape[d] != t.dims()[d]) return false;
    }
  }
  return true;
}
}  // namespace

CompiledProgram::CompiledProgram(CapturedProgram p, executor::ExecutorOptions options,
                                 bool in_place_updates)
    : program_(std::move(p)), in_place_updates_(in_place_updates) {
  // The pipeline of docs/ARCHITECTURE.md: capture -> optimization passes -> kernel dialect.
  // Simplification first (identity reshapes and scales that autodiff leaves, duplicate ops,
  // dead ops), then in-place updates, then kernel choice.
  ir::register_standard_passes();
  ir::PassManager simplify(program_.context.get());
  simplify.add_pipeline("canonicalize,cse,dce");
  simplify.run(*program_.program);
  if (in_place_updates_) write_updates_in_place(program_);
  ir::PassManager lower(program_.context.get());
  // On the place of the program's parameters (where a device's model lives), else the default.
  std::optional<Place> place;
  if (!program_.params.empty()) place = program_.params.front().second.place();
  ops::ir_bridge::add_lowering(lower, place);
  lower.run(*program_.program);
  exec_ = std::make_unique<executor::Executor>(program_, options);
  for (const std::string& name : program_.outputs) {
    bool update = false;
    for (const auto& u : program_.updates) update = update || u.first == name;
    is_update_.push_back(update);
  }
}

std::vector<DenseTensor> CompiledProgram::feeds(const std::vector<Tensor>& inputs) const {
  std::vector<DenseTensor> f;
  f.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    SKIFF_ENFORCE(inputs[i].is_dense(), kInvalidArgument, "executor", str("input ", i),
                  "a dense tensor", "a symbolic tensor (a program runs on data)");
    f.push_back(inputs[i].dense());
  }
  return f;
}

std::vector<Tensor> CompiledProgram::results(std::vector<DenseTensor> out) const {
  std::vector<Tensor> r;
  for (size_t k = 0; k < out.size(); ++k) {
    if (!is_update_[k]) r.emplace_back(std::move(out[k]));
  }
  return r;
}

std::vector<Tensor> CompiledProgram::run(const std::vector<Tensor>& inputs) {
  return results(exec_->run(feeds(inputs)));
}

std::optional<std::vector<Tensor>> CompiledProgram::run_guarded(
    const std::vector<Tensor>& inputs, const std::vector<std::pair<size_t, double>>& guards) {
  SKIFF_ENFORCE(!in_place_updates_ || program_.updates.empty(), kPrecondition, "executor",
                "run_guarded", "a program compiled without in-place updates",
                "one whose updates are written during the run");
  Generator& gen = default_generator(Place::cpu());
  const PhiloxState before = gen.state();
  std::vector<DenseTensor> out = exec_->run(feeds(inputs), /*write_updates=*/false);
  for (const auto& [k, want] : guards) {
    SKIFF_ENFORCE(k < out.size() && out[k].numel() == 1, kInvalidArgument, "executor",
                  str("guard on output ", k), "a one-element output",
                  k < out.size() ? str(out[k].dims()) : std::string("no such output"));
    const double got = cast(Tensor(out[k]), DType::kFloat64).dense().data<double>()[0];
    if (got != want) {
      gen.set_state(before);
      return std::nullopt;
    }
  }
  exec_->write_updates(out);
  return results(std::move(out));
}

StaticFunction::StaticFunction(Function fn, std::vector<InputSpec> specs,
                               executor::ExecutorOptions options)
    : fn_(std::move(fn)), specs_(std::move(specs)), options_(options) {}

std::vector<Tensor> StaticFunction::operator()(const std::vector<Tensor>& inputs) {
  for (const Tensor& t : inputs) {
    SKIFF_ENFORCE(t.is_dense(), kInvalidArgument, "to_static", "inputs", "dense tensors",
                  "a symbolic tensor");
  }
  Entry* e = nullptr;
  std::unique_lock<std::mutex> lock(mu_);
  for (auto& c : entries_) {
    if (matches(c->specs, inputs)) e = c.get();
  }
  if (!e) {
    auto entry = std::make_unique<Entry>();
    if (!specs_.empty() && specs_.size() == inputs.size()) {
      entry->specs = specs_;
      for (size_t i = 0; i < specs_.size(); ++i) {
        if (entry->specs[i].name.empty()) entry->specs[i].name = str("input", i);
      }
    }
    if (!matches(entry->specs, inputs)) {
      entry->specs.clear();
      for (size_t i = 0; i < inputs.size(); ++i) {
        entry->specs.push_back({inputs[i].shape(), inputs[i].dtype(), str("input", i)});
      }
    }
    entry->compiled = std::make_unique<CompiledProgram>(capture(fn_, entry->specs), options_);
    entries_.push_back(std::move(entry));
    e = entries_.back().get();
  }
  lock.unlock();
  last_ = e;
  return e->compiled->run(inputs);
}

const CapturedProgram& StaticFunction::last_program() const {
  Entry* e = last_.load();
  SKIFF_ENFORCE(e != nullptr, kPrecondition, "to_static", "program", "a call first", "none");
  return e->compiled->program();
}
const executor::Executor& StaticFunction::last_executor() const {
  Entry* e = last_.load();
  SKIFF_ENFORCE(e != nullptr, kPrecondition, "to_static", "program", "a call first", "none");
  return e->compiled->executor();
}

}  // namespace skiff::jit
