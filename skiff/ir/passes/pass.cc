#include "skiff/ir/passes/pass.h"

#include <iomanip>
#include <mutex>

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/program.h"
#include "skiff/ir/core/verifier.h"
#include "skiff/profiler/record_event.h"

namespace skiff::ir {

namespace {
class TimingInstrumentation : public PassInstrumentation {
 public:
  explicit TimingInstrumentation(std::ostream& os) : os_(os) {}
  void before_pass(Pass&, Operation*) override { start_ = std::chrono::steady_clock::now(); }
  void after_pass(Pass& p, Operation*) override {
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
                    .count();
    rows_.emplace_back(p.name(), ms);
  }
  void after_pipeline() override {
    double total = 0;
    os_ << "// ----- pass timing -----\n";
    for (const auto& [name, ms] : rows_) {
      os_ << "//  " << std::left << std::setw(24) << name << std::right << std::fixed
          << std::setprecision(3) << ms << " ms\n";
      total += ms;
    }
    os_ << "//  " << std::left << std::setw(24) << "total" << std::right << total << " ms\n";
    rows_.clear();
  }

 private:
  std::ostream& os_;
  std::chrono::steady_clock::time_point start_;
  std::vector<std::pair<std::string, double>> rows_;
};

class IrPrintingInstrumentation : public PassInstrumentation {
 public:
  IrPrintingInstrumentation(std::ostream& os, std::set<std::string> before,
                            std::set<std::string> after)
      : os_(os), before_(std::move(before)), after_(std::move(after)) {}
  void before_pass(Pass& p, Operation* module) override {
    if (match(before_, p.name())) dump("Before", p, module);
  }
  void after_pass(Pass& p, Operation* module) override {
    if (match(after_, p.name())) dump("After", p, module);
  }

 private:
  static bool match(const std::set<std::string>& s, const std::string& n) {
    return s.count("*") || s.count(n);
  }
  void dump(const char* when, Pass& p, Operation* module) {
    os_ << "// ----- IR Dump " << when << " " << p.name() << " -----\n" << to_string(module);
  }
  std::ostream& os_;
  std::set<std::string> before_, after_;
};

class StatisticsInstrumentation : public PassInstrumentation {
 public:
  explicit StatisticsInstrumentation(std::ostream& os) : os_(os) {}
  void after_pass(Pass& p, Operation*) override {
    for (const auto& [k, v] : p.statistics())
      os_ << "// " << p.name() << "." << k << " = " << v << "\n";
  }

 private:
  std::ostream& os_;
};
}  // namespace

void PassManager::enable_timing(std::ostream& os) {
  add_instrumentation(std::make_unique<TimingInstrumentation>(os));
}
void PassManager::enable_ir_printing(std::ostream& os, std::set<std::string> before,
                                     std::set<std::string> after) {
  add_instrumentation(
      std::make_unique<IrPrintingInstrumentation>(os, std::move(before), std::move(after)));
}
void PassManager::enable_statistics(std::ostream& os) {
  add_instrumentation(std::make_unique<StatisticsInstrumentation>(os));
}

void PassManager::add_pipeline(std::string_view names) {
  size_t start = 0;
  while (start <= names.size()) {
    size_t end = names.find(',', start);
    if (end == std::string_view::npos) end = names.size();
    std::string_view n = names.substr(start, end - start);
    while (!n.empty() && n.front() == ' ') n.remove_prefix(1);
    while (!n.empty() && n.back() == ' ') n.remove_suffix(1);
    if (!n.empty()) add_pass(PassRegistry::global().create(n));
    start = end + 1;
  }
}

void PassManager::run(Program& program) {
  Operation* module = program.module();
  for (auto& pass : passes_) {
    if (pass->opt_level() > opt_level_) continue;
    for (auto& inst : instrumentations_) inst->before_pass(*pass, module);
    {
      profiler::RecordEvent ev(pass->name(), profiler::EventType::kIrPass);
      pass->run(module);
    }
    for (auto& inst : instrumentations_) inst->after_pass(*pass, module);
    if (verify_) {
      try {
        verify(module);
      } catch (const Error& e) {
        SKIFF_THROW(kInternal, "pass manager", pass->name(), "a valid program after the pass",
                    e.what());
      }
    }
  }
  for (auto& inst : instrumentations_) inst->after_pipeline();
}

PassRegistry& PassRegistry::global() {
  static PassRegistry r;
  return r;
}

namespace {
std::mutex& registry_mu() {
  static std::mutex mu;
  return mu;
}
}  // namespace

void PassRegistry::add(const std::string& name, std::string description, Factory f) {
  std::lock_guard lock(registry_mu());
  entries_[name] = Entry{std::move(description), std::move(f)};
}
bool PassRegistry::contains(std::string_view name) const {
  std::lock_guard lock(registry_mu());
  return entries_.find(name) != entries_.end();
}
std::unique_ptr<Pass> PassRegistry::create(std::string_view name) const {
  std::lock_guard lock(registry_mu());
  auto it = entries_.find(name);
  SKIFF_ENFORCE(it != entries_.end(), kNotFound, "pass registry", "pass", "a registered pass",
                str("'", name, "'"));
  return it->second.factory();
}
std::vector<std::pair<std::string, std::string>> PassRegistry::list() const {
  std::lock_guard lock(registry_mu());
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [n, e] : entries_) out.emplace_back(n, e.description);
  return out;
}

}  // namespace skiff::ir
