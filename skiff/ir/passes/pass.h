// Passes and the PassManager. A pass transforms a program's module op; the manager runs a flat
// list of passes, skips those above its opt level, verifies after each pass (on by default) and
// calls instrumentations around every pass (timing, IR dumps before/after chosen passes).
// Opt levels follow Paddle: 0 required, 1 cleanup (DCE, CSE, folding), 2 fusion, 3 layout,
// 4 aggressive.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace skiff::ir {

class IrContext;
class Operation;
class Program;

class Pass {
 public:
  Pass(std::string name, int opt_level) : name_(std::move(name)), opt_level_(opt_level) {}
  virtual ~Pass() = default;
  const std::string& name() const { return name_; }
  int opt_level() const { return opt_level_; }
  /// Transforms the module op (and everything nested in it).
  virtual void run(Operation* module) = 0;

  /// Counters reported by the statistics instrumentation ("rewrites", "erased", ...).
  void add_statistic(const std::string& key, int64_t n) { stats_[key] += n; }
  const std::map<std::string, int64_t>& statistics() const { return stats_; }

 private:
  std::string name_;
  int opt_level_;
  std::map<std::string, int64_t> stats_;
};

class PassInstrumentation {
 public:
  virtual ~PassInstrumentation() = default;
  virtual void before_pass(Pass&, Operation*) {}
  virtual void after_pass(Pass&, Operation*) {}
  /// Called once after the whole pipeline.
  virtual void after_pipeline() {}
};

class PassManager {
 public:
  explicit PassManager(IrContext* ctx, int opt_level = 2) : ctx_(ctx), opt_level_(opt_level) {}
  IrContext* context() const { return ctx_; }
  void add_pass(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }
  /// Adds passes by registered name, comma separated ("canonicalize,cse,dce").
  void add_pipeline(std::string_view names);
  void enable_verifier(bool on) { verify_ = on; }
  void add_instrumentation(std::unique_ptr<PassInstrumentation> inst) {
    instrumentations_.push_back(std::move(inst));
  }
  /// Reports the wall time of each pass to `os` after the pipeline.
  void enable_timing(std::ostream& os);
  /// Dumps the IR before/after the named passes ("*" or empty set with `all` for every pass).
  void enable_ir_printing(std::ostream& os, std::set<std::string> before,
                          std::set<std::string> after);
  /// Prints each pass's statistics after the pipeline.
  void enable_statistics(std::ostream& os);
  /// Runs the pipeline; throws skiff::Error when a pass or the verifier fails.
  void run(Program& program);
  size_t size() const { return passes_.size(); }

 private:
  IrContext* ctx_;
  int opt_level_;
  bool verify_ = true;
  std::vector<std::unique_ptr<Pass>> passes_;
  std::vector<std::unique_ptr<PassInstrumentation>> instrumentations_;
};

/// Name -> factory for the passes skiff-opt and pipelines can name. Filled explicitly by
/// register_standard_passes() (and by higher layers' register functions), never statically.
class PassRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Pass>()>;
  static PassRegistry& global();
  void add(const std::string& name, std::string description, Factory f);
  bool contains(std::string_view name) const;
  std::unique_ptr<Pass> create(std::string_view name) const;
  /// (name, description) sorted by name.
  std::vector<std::pair<std::string, std::string>> list() const;

 private:
  struct Entry {
    std::string description;
    Factory factory;
  };
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace skiff::ir
