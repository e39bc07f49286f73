// One explicit entry point that loads every dialect of skiff_ir (no static registration).
#pragma once

namespace skiff::ir {

class IrContext;

/// Loads the builtin, cf, kernel, dist and op dialects.
void load_all_dialects(IrContext* ctx);

}  // namespace skiff::ir
