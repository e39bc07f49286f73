#include "skiff/ir/dialects/register.h"

#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/cf.h"
#include "skiff/ir/dialects/dist.h"
#include "skiff/ir/dialects/kernel.h"
#include "skiff/ir/dialects/op_dialect.h"

namespace skiff::ir {

void load_all_dialects(IrContext* ctx) {
  ctx->load_dialect<BuiltinDialect>();
  ctx->load_dialect<CfDialect>();
  ctx->load_dialect<KernelDialect>();
  ctx->load_dialect<DistDialect>();
  ctx->load_dialect<OpDialect>();
}

}  // namespace skiff::ir
