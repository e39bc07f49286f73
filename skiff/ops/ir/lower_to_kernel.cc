#include "skiff/ops/ir/lower_to_kernel.h"

#include <string>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/kernel.h"
#include "skiff/ops/ir/convert.h"
#include "skiff/ops/ir/op_bridge.h"
#include "skiff/ops/kernel_registry.h"

namespace skiff::ops::ir_bridge {

namespace {

const ir::Place kCpu{"cpu", -1};

ir::Type placed(ir::IrContext* ctx, ir::Type t) {
  if (auto tt = t.dyn_cast<ir::TensorType>()) return ir::DenseTensorOnPlaceType::get(ctx, kCpu, tt);
  if (auto vt = t.dyn_cast<ir::VectorType>()) {
    std::vector<ir::Type> elems;
    for (ir::Type e : vt.elements()) elems.push_back(placed(ctx, e));
    return ir::VectorType::get(ctx, elems);
  }
  return t;
}

ir::TensorType tensor_of(ir::Type t) {
  if (auto p = t.dyn_cast<ir::DenseTensorOnPlaceType>()) return p.tensor();
  return t.dyn_cast<ir::TensorType>();
}

void check_kernel(ir::Operation* op, const OpSchema& s, DType dtype) {
  if (KernelRegistry::global().find(s.id, Backend::kCPU, dtype)) return;
  std::string have;
  for (const auto& k : KernelRegistry::global().kernels_of(s.id)) {
    if (k.backend == Backend::kCPU) have += str(have.empty() ? "" : ", ", dtype_name(k.dtype));
  }
  SKIFF_THROW(kNotFound, op->describe(), "kernel", str("a cpu kernel for ", dtype_name(dtype)),
              str("cpu kernels for: ", have.empty() ? "none" : have));
}

class LowerToKernelPass : public ir::Pass {
 public:
  LowerToKernelPass() : Pass("lower-to-kernel", 0) {}
  void run(ir::Operation* module) override {
    ir::IrContext* ctx = module->context();
    // Every op, nested ones too (regions of cf.if / cf.while), in program order.
    std::vector<ir::Operation*> ops;
    module->walk([&](ir::Operation* op) {
      if (op != module) ops.push_back(op);
    });
    ir::Builder b(ctx);
    int64_t calls = 0, casts = 0;
    for (ir::Operation* op : ops) {
      std::string_view name = op->name();
      if (op->num_regions() > 0) {
        // Control flow stays; its results and block arguments become placed tensors.
        for (ir::Value r : op->results()) r.set_type(placed(ctx, r.type()));
        for (uint32_t i = 0; i < op->num_regions(); ++i) {
          for (ir::Block* blk : op->region(i)) {
            for (ir::Value a : blk->args()) a.set_type(placed(ctx, a.type()));
          }
        }
        continue;
      }
      if (name == ir::ConstantOp::kName) {
        b.set_insertion_point_after(op);
        b.set_loc(op->loc());
        ir::Value c = op->result(0);
        ir::Operation* t = ir::TransferOp::build(b, c, kCpu).operation();
        c.replace_uses_if(t->result(0), [t](ir::OpOperand& u) { return u.owner() != t; });
        continue;
      }
      if (name.substr(0, 3) != "op." || name == "op.data") {
        // data, parameters, combine/split: the same op on placed types.
        for (ir::Value r : op->results()) r.set_type(placed(ctx, r.type()));
        continue;
      }
      const OpSchema* s = schema_of(op);
      SKIFF_ENFORCE(s != nullptr, kUnimplemented, "lower-to-kernel", "op",
                    "an op with a kernel (fused ops get kernels later)", op->describe());
      const DType dtype = kernel_dtype(op);
      check_kernel(op, *s, dtype);
      b.set_insertion_point(op);
      b.set_loc(op->loc());
      std::vector<ir::Value> operands = op->operands();
      const uint32_t promote = promote_mask(op);
      for (size_t k = 0; k < operands.size(); ++k) {
        ir::TensorType t = operands[k] ? tensor_of(operands[k].type()) : ir::TensorType();
        if (!(promote >> k & 1) || !t || from_ir(t.dtype()) == dtype) continue;
        ir::Type out = placed(ctx, t.with_dtype(to_ir(dtype)));
        std::vector<ir::NamedAttribute> attrs = {b.named("dtype", b.dtype_attr(to_ir(dtype)))};
        ir::Value in = operands[k];
        operands[k] = ir::KernelCallOp::build(b, "op.cast", "cast",
                                              ir::KernelKeyAttr::get(ctx, "cpu", t.dtype()),
                                              {&in, 1}, {&out, 1}, std::move(attrs))
                          .operation()
                          ->result(0);
        ++casts;
      }
      std::vector<ir::Type> results;
      for (ir::Value r : op->results()) results.push_back(placed(ctx, r.type()));
      const auto* ks = op->info()->interface<ir::KernelSelectInterface>();
      std::string kernel = ks ? ks->kernel_name : s->name;
      std::vector<ir::NamedAttribute> attrs = op->attrs();
      ir::Operation* call =
          ir::KernelCallOp::build(b, name, kernel, ir::KernelKeyAttr::get(ctx, "cpu", to_ir(dtype)),
                                  operands, results, std::move(attrs))
              .operation();
      op->replace_all_uses_with(call->results());
      op->erase();
      ++calls;
    }
    add_statistic("kernel calls", calls);
    add_statistic("casts", casts);
  }
};

}  // namespace

std::unique_ptr<ir::Pass> create_lower_to_kernel_pass() {
  return std::make_unique<LowerToKernelPass>();
}

void register_lowering_pass() {
  ir::PassRegistry& r = ir::PassRegistry::global();
  if (r.contains("lower-to-kernel")) return;
  r.add("lower-to-kernel", "op dialect -> kernel dialect (CPU): kernel keys, casts, placed types",
        create_lower_to_kernel_pass);
}

}  // namespace skiff::ops::ir_bridge
