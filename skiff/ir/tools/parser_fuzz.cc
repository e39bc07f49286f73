// libFuzzer target for the IR parser: any input must either parse (then verify, print, and
// re-parse to the same text) or throw skiff::Error, never crash, hang or leak.
// Build: CC=clang-14 CXX=clang++-14 cmake -B build-fuzz -DSKIFF_FUZZ=ON ... && ninja ir_parser_fuzz
// Run:   build-fuzz/bin/ir_parser_fuzz -max_total_time=600 tests/ir/fuzz_corpus
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "skiff/base/error.h"
#include "skiff/ir/core/context.h"
#include "skiff/ir/core/program.h"
#include "skiff/ir/dialects/register.h"

namespace {

// The context, made afresh every kInputsPerContext inputs: it interns every type and attribute
// it meets, so one context for the whole run grows past libFuzzer's RSS limit within an hour;
// a fresh one per input costs 15x the throughput (loading the dialects).
constexpr int kInputsPerContext = 256;

skiff::ir::IrContext* context() {
  static std::unique_ptr<skiff::ir::IrContext> ctx;
  static int uses = 0;
  if (!ctx || ++uses == kInputsPerContext) {
    ctx = std::make_unique<skiff::ir::IrContext>();
    skiff::ir::load_all_dialects(ctx.get());
    uses = 0;
  }
  return ctx.get();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  skiff::ir::IrContext* ctx = context();
  std::unique_ptr<skiff::ir::Program> program;
  try {
    program = skiff::ir::Program::parse(ctx, text);
  } catch (const skiff::Error&) {
    return 0;
  }
  std::string printed = program->print();
  try {
    program->verify();
  } catch (const skiff::Error&) {
  }
  // Whatever parses must print to text that parses back to the same text.
  auto again = skiff::ir::Program::parse(ctx, printed);
  if (again->print() != printed) std::abort();
  return 0;
}
