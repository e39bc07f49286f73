// skiff-opt: parses a program, verifies it, runs a pass list and prints the result (like mlir-opt).
//   skiff-opt [options] FILE|-
//     --passes=canonicalize,cse,dce   passes by registered name (see --list-passes)
//     --opt-level=N                   skip passes above level N (default 4: run all listed)
//     --no-verify                     skip verification (after parsing and after each pass)
//     --timing                        report per-pass wall time on stderr
//     --statistics                    report per-pass statistics on stderr
//     --print-ir-before=a,b|*         dump the IR before the named passes on stderr
//     --print-ir-after=a,b|*          dump the IR after the named passes on stderr
//     --list-passes                   print the registered passes
// Errors print as "error: <message>" on stderr with exit status 1. Ops get the ops layer's
// infer-meta, kernel-executing folding and kernel selection (skiff/ops/ir/op_bridge.h).
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "skiff/base/error.h"
#include "skiff/ir/core/program.h"
#include "skiff/ir/core/verifier.h"
#include "skiff/ir/dialects/register.h"
#include "skiff/ir/passes/passes.h"
#include "skiff/ops/ir/lower_to_kernel.h"
#include "skiff/ops/ir/op_bridge.h"

namespace {

std::set<std::string> split_set(const std::string& s) {
  std::set<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (!item.empty()) out.insert(item);
  }
  return out;
}

/// --opt-level's value: a whole number 0..4 (Paddle's levels), else nullopt.
std::optional<int> parse_opt_level(const std::string& s) {
  if (s.empty() || s.size() > 1 || s[0] < '0' || s[0] > '4') return std::nullopt;
  return s[0] - '0';
}

bool starts_with(const std::string& s, const char* p, std::string* rest) {
  std::string prefix(p);
  if (s.compare(0, prefix.size(), prefix) != 0) return false;
  *rest = s.substr(prefix.size());
  return true;
}

int run(int argc, char** argv) {
  using namespace skiff::ir;
  std::string file = "-", passes, before, after, v;
  int opt_level = 4;
  bool verify_ir = true, timing = false, stats = false;
  register_standard_passes();
  skiff::ops::ir_bridge::register_lowering_pass();
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (starts_with(a, "--passes=", &v)) {
      passes = v;
    } else if (starts_with(a, "--opt-level=", &v)) {
      std::optional<int> level = parse_opt_level(v);
      if (!level) {
        std::cerr << "error: skiff-opt: argument '--opt-level' expected an integer in [0, 4], got '"
                  << v << "'\n";
        return 2;
      }
      opt_level = *level;
    } else if (a == "--no-verify") {
      verify_ir = false;
    } else if (a == "--timing") {
      timing = true;
    } else if (a == "--statistics") {
      stats = true;
    } else if (starts_with(a, "--print-ir-before=", &v)) {
      before = v;
    } else if (starts_with(a, "--print-ir-after=", &v)) {
      after = v;
    } else if (a == "--list-passes") {
      for (const auto& [name, desc] : PassRegistry::global().list()) {
        std::cout << name << "\t" << desc << "\n";
      }
      return 0;
    } else if (a == "--help" || a == "-h") {
      std::cout << "usage: skiff-opt [--passes=a,b] [--opt-level=N] [--no-verify] [--timing] "
                   "[--statistics] [--print-ir-before=..] [--print-ir-after=..] FILE|-\n";
      return 0;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      std::cerr << "error: unknown option " << a << "\n";
      return 2;
    } else {
      file = a;
    }
  }
  std::stringstream text;
  if (file == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(file);
    if (!in) {
      std::cerr << "error: cannot open " << file << "\n";
      return 2;
    }
    text << in.rdbuf();
  }
  IrContext ctx;
  load_all_dialects(&ctx);
  skiff::ops::ir_bridge::attach_op_interfaces(&ctx);
  std::unique_ptr<Program> program = Program::parse(&ctx, text.str());
  if (verify_ir) program->verify();
  PassManager pm(&ctx, opt_level);
  pm.enable_verifier(verify_ir);
  pm.add_pipeline(passes);
  if (!before.empty() || !after.empty())
    pm.enable_ir_printing(std::cerr, split_set(before), split_set(after));
  if (timing) pm.enable_timing(std::cerr);
  if (stats) pm.enable_statistics(std::cerr);
  pm.run(*program);
  std::cout << program->print();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const skiff::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {  // e.g. bad_alloc: still an error line, not an abort
    std::cerr << "error: skiff-opt: " << e.what() << "\n";
    return 1;
  }
}
