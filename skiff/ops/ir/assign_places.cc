#include "skiff/ops/ir/assign_places.h"

#include <optional>
#include <vector>

#include "skiff/ir/core/builder.h"
#include "skiff/ir/core/builtin_types.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ops/dispatch.h"

namespace skiff::ops::ir_bridge {

ir::Place to_ir_place(const Place& place) {
  // Paddle's spelling: "cpu" has no device number, devices have one ("gpu:0", "npu:1").
  const std::string text = place.to_string();
  const size_t colon = text.find(':');
  if (colon == std::string::npos) return ir::Place{text, -1};
  return ir::Place{text.substr(0, colon), std::stoll(text.substr(colon + 1))};
}

namespace {

ir::Type placed(ir::IrContext* ctx, const ir::Place& place, ir::Type t) {
  if (auto tt = t.dyn_cast<ir::TensorType>())
    return ir::DenseTensorOnPlaceType::get(ctx, place, tt);
  if (auto vt = t.dyn_cast<ir::VectorType>()) {
    std::vector<ir::Type> elems;
    for (ir::Type e : vt.elements()) elems.push_back(placed(ctx, place, e));
    return ir::VectorType::get(ctx, elems);
  }
  return t;  // already placed, or not a tensor
}

class AssignPlacesPass : public ir::Pass {
 public:
  explicit AssignPlacesPass(std::optional<Place> place) : Pass("assign-places", 0), place_(place) {}

  void run(ir::Operation* module) override {
    ir::IrContext* ctx = module->context();
    const ir::Place place = to_ir_place(place_.value_or(default_place()));
    std::vector<ir::Operation*> ops;
    module->walk([&](ir::Operation* op) {
      if (op != module) ops.push_back(op);
    });
    ir::Builder b(ctx);
    int64_t values = 0, transfers = 0;
    for (ir::Operation* op : ops) {
      for (uint32_t i = 0; i < op->num_regions(); ++i) {
        for (ir::Block* blk : op->region(i)) {
          for (ir::Value a : blk->args()) values += retype(ctx, place, a);
        }
      }
      if (op->name() == ir::ConstantOp::kName) {
        // Host data: users read its transfer to the place.
        b.set_insertion_point_after(op);
        b.set_loc(op->loc());
        ir::Value c = op->result(0);
        ir::Operation* t = ir::TransferOp::build(b, c, place).operation();
        c.replace_uses_if(t->result(0), [t](ir::OpOperand& u) { return u.owner() != t; });
        ++transfers;
        continue;
      }
      for (ir::Value r : op->results()) values += retype(ctx, place, r);
    }
    add_statistic("placed values", values);
    add_statistic("transfers", transfers);
  }

 private:
  static int retype(ir::IrContext* ctx, const ir::Place& place, ir::Value v) {
    ir::Type t = placed(ctx, place, v.type());
    if (t == v.type()) return 0;
    v.set_type(t);
    return 1;
  }

  std::optional<Place> place_;
};

}  // namespace

std::unique_ptr<ir::Pass> create_assign_places_pass(const Place& place) {
  return std::make_unique<AssignPlacesPass>(place);
}

std::unique_ptr<ir::Pass> create_assign_places_pass() {
  return std::make_unique<AssignPlacesPass>(std::nullopt);
}

}  // namespace skiff::ops::ir_bridge
