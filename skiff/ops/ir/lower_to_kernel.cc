#include "skiff/ops/ir/lower_to_kernel.h"

#include <optional>
#include <string>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/kernel.h"
#include "skiff/ops/ir/assign_places.h"
#include "skiff/ops/ir/convert.h"
#include "skiff/ops/ir/kernel_call.h"
#include "skiff/ops/ir/op_bridge.h"
#include "skiff/ops/kernel_registry.h"

namespace skiff::ops::ir_bridge {

namespace {

ir::TensorType tensor_of(ir::Type t) {
  if (auto p = t.dyn_cast<ir::DenseTensorOnPlaceType>()) return p.tensor();
  return t.dyn_cast<ir::TensorType>();
}

// The place of a placed tensor or of a vec's first element; none for anything else.
std::optional<ir::Place> place_of(ir::Type t) {
  if (auto p = t.dyn_cast<ir::DenseTensorOnPlaceType>()) return p.place();
  if (auto vt = t.dyn_cast<ir::VectorType>()) {
    for (ir::Type e : vt.elements()) {
      if (auto p = place_of(e)) return p;
    }
  }
  return std::nullopt;
}

// Lowering reads places; assign-places writes them.
void check_placed(ir::Operation* op, ir::Type t, const char* what) {
  const bool unplaced =
      t.isa<ir::TensorType>() ||
      (t.isa<ir::VectorType>() && !t.cast<ir::VectorType>().elements().empty() && !place_of(t));
  SKIFF_ENFORCE(!unplaced, kPrecondition, "lower-to-kernel", what,
                "a placed tensor (run assign-places first)",
                str(op->describe(), ": ", ir::to_string(t)));
}

// The place an op computes on: that of its results (assign-places gave every result one).
ir::Place op_place(ir::Operation* op) {
  for (ir::Value r : op->results()) {
    check_placed(op, r.type(), "result");
    if (auto p = place_of(r.type())) return *p;
  }
  SKIFF_THROW(kPrecondition, "lower-to-kernel", "op", "an op with a placed tensor result",
              op->describe());
}

void check_kernel(ir::Operation* op, const OpSchema& s, const Place& place, DType dtype) {
  const Backend backend = backend_of(place);
  if (KernelRegistry::global().find(s.id, backend, dtype)) return;
  std::string have;
  for (const auto& k : KernelRegistry::global().kernels_of(s.id)) {
    if (k.backend == backend) have += str(have.empty() ? "" : ", ", dtype_name(k.dtype));
  }
  SKIFF_THROW(kNotFound, op->describe(), "kernel",
              str("a ", backend_name(backend), " kernel for ", dtype_name(dtype), " on ", place),
              str(backend_name(backend), " kernels for: ", have.empty() ? "none" : have));
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
      // Control flow, data, parameters, constants' transfers, combine/split: they stay, on the
      // types assign-places gave them (constants themselves are host data).
      if (op->num_regions() > 0 || name.substr(0, 3) != "op." || name == "op.data") {
        if (name == ir::ConstantOp::kName) continue;
        for (ir::Value r : op->results()) check_placed(op, r.type(), "result");
        continue;
      }
      const OpSchema* s = schema_of(op);
      SKIFF_ENFORCE(s != nullptr, kUnimplemented, "lower-to-kernel", "op",
                    "an op with a kernel (fused ops get kernels later)", op->describe());
      const DType dtype = kernel_dtype(op);
      const ir::Place place = op_place(op);
      const Place device = to_place(place);
      const std::string backend = backend_name(backend_of(device));
      check_kernel(op, *s, device, dtype);
      b.set_insertion_point(op);
      b.set_loc(op->loc());
      std::vector<ir::Value> operands = op->operands();
      const uint32_t promote = promote_mask(op);
      for (size_t k = 0; k < operands.size(); ++k) {
        ir::TensorType t = operands[k] ? tensor_of(operands[k].type()) : ir::TensorType();
        if (!(promote >> k & 1) || !t || from_ir(t.dtype()) == dtype) continue;
        ir::Type out = ir::DenseTensorOnPlaceType::get(
            ctx, place_of(operands[k].type()).value_or(place), t.with_dtype(to_ir(dtype)));
        std::vector<ir::NamedAttribute> attrs = {b.named("dtype", b.dtype_attr(to_ir(dtype)))};
        ir::Value in = operands[k];
        operands[k] = ir::KernelCallOp::build(b, "op.cast", "cast",
                                              ir::KernelKeyAttr::get(ctx, backend, t.dtype()),
                                              {&in, 1}, {&out, 1}, std::move(attrs))
                          .operation()
                          ->result(0);
        ++casts;
      }
      std::vector<ir::Type> results = op->result_types();
      const auto* ks = op->info()->interface<ir::KernelSelectInterface>();
      std::string kernel = ks ? ks->kernel_name : s->name;
      std::vector<ir::NamedAttribute> attrs = op->attrs();
      ir::Operation* call = ir::KernelCallOp::build(
                                b, name, kernel, ir::KernelKeyAttr::get(ctx, backend, to_ir(dtype)),
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

void add_lowering(ir::PassManager& pm, std::optional<Place> place) {
  pm.add_pass(place ? create_assign_places_pass(*place) : create_assign_places_pass());
  pm.add_pass(create_lower_to_kernel_pass());
}

void register_lowering_pass() {
  ir::PassRegistry& r = ir::PassRegistry::global();
  if (r.contains("lower-to-kernel")) return;
  r.add("lower-to-kernel", "op dialect -> kernel dialect: kernel keys and casts on placed types",
        create_lower_to_kernel_pass);
  if (!r.contains("assign-places")) {
    r.add("assign-places", "places every tensor value on the default place (constants by transfer)",
          [] { return create_assign_places_pass(); });
  }
}

}  // namespace skiff::ops::ir_bridge
