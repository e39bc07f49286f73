#include "skiff/ir/core/program.h"

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/builder.h"
#include "skiff/ir/core/verifier.h"
#include "skiff/ir/dialects/builtin.h"

namespace skiff::ir {

Program::Program(IrContext* ctx) : ctx_(ctx) {
  module_ = Operation::create(ctx->op_info(ModuleOp::kName), {}, {}, {}, 1);
  module_->region(0).add_block();
}

Program::~Program() { module_->destroy(); }

std::unique_ptr<Program> Program::adopt(IrContext* ctx, Operation* module) {
  SKIFF_ENFORCE(
      module->isa<ModuleOp>() && module->num_regions() == 1 && module->region(0).size() == 1,
      kInvalidArgument, "program", "module", "a builtin.module op with one block", module->name());
  return std::unique_ptr<Program>(new Program(ctx, module));
}

Block* Program::block() const { return module_->region(0).front(); }

std::unique_ptr<Program> Program::clone() const {
  Builder b(ctx_);
  IrMapping map;
  return adopt(ctx_, b.clone(module_, map));
}

size_t Program::num_ops() const {
  size_t n = 0;
  module_->walk([&](Operation*) { ++n; });
  return n - 1;
}

std::string Program::print() const { return to_string(module_); }

std::unique_ptr<Program> Program::parse(IrContext* ctx, std::string_view text) {
  AsmParser p(ctx, text);
  return p.parse_program();
}

void Program::verify() const { ir::verify(module_); }

}  // namespace skiff::ir
