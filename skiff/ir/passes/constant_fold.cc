// Constant folding. An op is folded when every tensor operand comes from a constant-like op
// (builtin.constant or op.full) and its result types are static. The op's FoldInterface is tried
// first: the ops layer attaches one that executes the real kernel (skiff/ops/ir/op_bridge.h) and
// returns dense<...> data. Without it, built-in folders evaluate elementwise arithmetic, scale,
// cast and unary math on splat or dense constants (in double precision; integer and bool results
// are rounded). Float splats become op.full, other results builtin.constant.
#include <cmath>
#include <functional>
#include <map>

#include "skiff/ir/core/dense_elements.h"
#include "skiff/ir/core/interfaces.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ir/passes/passes.h"

namespace skiff::ir {

namespace {

/// A constant tensor value: one element for a splat, numel elements otherwise.
struct Const {
  std::vector<double> data;
  bool splat = true;
};

bool to_double(Attribute a, double& out) {
  if (auto f = a.dyn_cast<FloatAttr>()) {
    out = f.value();
  } else if (auto i = a.dyn_cast<IntAttr>()) {
    out = static_cast<double>(i.value());
  } else if (auto b = a.dyn_cast<BoolAttr>()) {
    out = b.value() ? 1.0 : 0.0;
  } else {
    return false;
  }
  return true;
}

/// The constant attribute of a value: builtin.constant's `value` or op.full's `fill_value`.
Attribute constant_attr(Value v) {
  Operation* def = v ? v.defining_op() : nullptr;
  if (!def || !def->has_trait<ConstantLikeTrait>()) return Attribute();
  Attribute a = def->attr("value");
  return a ? a : def->attr("fill_value");
}

bool decode(Attribute a, Const& c) {
  if (auto d = a.dyn_cast<DenseElementsAttr>()) {
    c.splat = d.is_splat();
    c.data.resize(c.splat ? 1 : static_cast<size_t>(d.numel()));
    for (size_t i = 0; i < c.data.size(); ++i) c.data[i] = d.element_as_double(i);
    return true;
  }
  if (auto arr = a.dyn_cast<ArrayAttr>()) {
    c.splat = false;
    c.data.resize(arr.size());
    for (size_t i = 0; i < arr.size(); ++i) {
      if (!to_double(arr[i], c.data[i])) return false;
    }
    return true;
  }
  c.data.resize(1);
  return to_double(a, c.data[0]);
}

Attribute encode_scalar(IrContext* ctx, double v, DataType dt) {
  if (dt == DataType::kBool) return BoolAttr::get(ctx, v != 0.0);
  if (is_floating(dt)) return FloatAttr::get(ctx, v);  // kept in double; kernels round
  return IntAttr::get(ctx, static_cast<int64_t>(std::trunc(v)));
}

Attribute encode(IrContext* ctx, const Const& c, DataType dt) {
  if (c.splat) return encode_scalar(ctx, c.data[0], dt);
  std::vector<Attribute> elems;
  elems.reserve(c.data.size());
  for (double v : c.data) elems.push_back(encode_scalar(ctx, v, dt));
  return ArrayAttr::get(ctx, elems);
}

using Unary = std::function<double(double)>;
using Binary = std::function<double(double, double)>;

const std::map<std::string, Unary, std::less<>>& unary_folders() {
  static const std::map<std::string, Unary, std::less<>> m = {
      {"op.exp", [](double x) { return std::exp(x); }},
      {"op.sqrt", [](double x) { return std::sqrt(x); }},
      {"op.rsqrt", [](double x) { return 1.0 / std::sqrt(x); }},
      {"op.sigmoid", [](double x) { return 1.0 / (1.0 + std::exp(-x)); }},
      {"op.silu", [](double x) { return x / (1.0 + std::exp(-x)); }},
      {"op.sin", [](double x) { return std::sin(x); }},
      {"op.cos", [](double x) { return std::cos(x); }},
      {"op.relu", [](double x) { return x > 0 ? x : 0.0; }},
      {"op.assign", [](double x) { return x; }},
      {"op.cast", [](double x) { return x; }},
  };
  return m;
}
const std::map<std::string, Binary, std::less<>>& binary_folders() {
  static const std::map<std::string, Binary, std::less<>> m = {
      {"op.add", [](double a, double b) { return a + b; }},
      {"op.subtract", [](double a, double b) { return a - b; }},
      {"op.multiply", [](double a, double b) { return a * b; }},
      {"op.divide", [](double a, double b) { return a / b; }},
  };
  return m;
}

/// Built-in folding of one-result elementwise ops; false when not applicable.
bool builtin_fold(Operation* op, std::span<const Attribute> operands, Attribute& result) {
  auto rt = op->result_type(0).dyn_cast<TensorType>();
  if (!rt || rt.is_dynamic()) return false;
  std::vector<Const> in(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!operands[i] || !decode(operands[i], in[i])) return false;
    auto t = op->operand(static_cast<uint32_t>(i)).type().dyn_cast<TensorType>();
    // Dense operands must already have the result's shape (no broadcasting of dense data).
    if (!in[i].splat && (!t || t.shape().size() != rt.shape().size() ||
                         static_cast<int64_t>(in[i].data.size()) != rt.numel())) {
      return false;
    }
  }
  Const out;
  std::string_view name = op->name();
  if (auto u = unary_folders().find(name); u != unary_folders().end() && in.size() == 1) {
    out = in[0];
    for (double& v : out.data) v = u->second(v);
  } else if (auto b = binary_folders().find(name); b != binary_folders().end() && in.size() == 2) {
    out.splat = in[0].splat && in[1].splat;
    size_t n = out.splat ? 1 : static_cast<size_t>(rt.numel());
    out.data.resize(n);
    for (size_t i = 0; i < n; ++i) {
      double x = in[0].data[in[0].splat ? 0 : i], y = in[1].data[in[1].splat ? 0 : i];
      out.data[i] = b->second(x, y);
    }
  } else if (name == op::ScaleOp::kName && in.size() == 1) {
    double s = attr_double(op, "scale"), bias = attr_double(op, "bias");
    bool after = attr_bool(op, "bias_after_scale");
    out = in[0];
    for (double& v : out.data) v = after ? v * s + bias : (v + bias) * s;
  } else {
    return false;
  }
  result = encode(op->context(), out, rt.dtype());
  return true;
}

class ConstantFoldPass : public Pass {
 public:
  ConstantFoldPass() : Pass("constant-fold", 1) {}
  void run(Operation* module) override {
    std::vector<Operation*> ops;
    module->walk([&](Operation* op) {
      if (op != module) ops.push_back(op);
    });
    Builder b(module->context());
    int64_t folded = 0;
    for (Operation* op : ops) {  // program order, so folded results feed later folds
      if (op->has_trait<ConstantLikeTrait>() || op->num_regions() || op->num_operands() == 0 ||
          op->num_results() == 0) {
        continue;
      }
      std::vector<Attribute> operands(op->num_operands());
      bool all_const = true;
      for (uint32_t i = 0; i < op->num_operands(); ++i) {
        operands[i] = constant_attr(op->operand(i));
        all_const = all_const && (operands[i] || !op->operand(i));  // null: absent optional
      }
      if (!all_const) continue;
      std::vector<Attribute> results;
      if (!fold(op, operands, results)) continue;
      b.set_insertion_point(op);
      b.set_loc(op->loc());
      std::vector<Value> values;
      for (uint32_t i = 0; i < op->num_results(); ++i) {
        values.push_back(materialize(b, results[i], op->result_type(i)));
      }
      op->replace_all_uses_with(values);
      op->erase();
      ++folded;
    }
    add_statistic("folded", folded);
  }

 private:
  // Splats of floating tensors become op.full (what the fusion rules match), the rest
  // builtin.constant.
  static Value materialize(Builder& b, Attribute value, Type type) {
    auto t = type.dyn_cast<TensorType>();
    if (auto d = value.dyn_cast<DenseElementsAttr>();
        d && t && (d.is_splat() || d.numel() == 1) && is_floating(t.dtype())) {
      value = FloatAttr::get(b.context(), d.element_as_double(0));
    }
    if (t && value.isa<FloatAttr>() && is_floating(t.dtype()) &&
        b.context()->find_op(op::FullOp::kName)) {
      return op::FullOp::build_typed(b, {&type, 1},
                                     std::vector<int64_t>(t.shape().begin(), t.shape().end()),
                                     value.cast<FloatAttr>().value(), t.dtype())
          .out();
    }
    return ConstantOp::build(b, value, type).out();
  }

  static bool fold(Operation* op, std::span<const Attribute> operands,
                   std::vector<Attribute>& results) {
    if (const auto* f = op->info()->interface<FoldInterface>(); f && f->fold) {
      if (f->fold(op, operands, results) && results.size() == op->num_results()) return true;
      results.clear();
    }
    if (op->num_results() != 1) return false;
    Attribute r;
    if (!builtin_fold(op, operands, r)) return false;
    results.push_back(r);
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> create_constant_fold_pass() { return std::make_unique<ConstantFoldPass>(); }

}  // namespace skiff::ir
