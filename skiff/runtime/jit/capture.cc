#include "skiff/runtime/jit/capture.h"

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ir/dialects/register.h"
#include "skiff/ops/dispatch.h"
#include "skiff/ops/generated/api.h"
#include "skiff/ops/inplace.h"
#include "skiff/ops/ir/convert.h"
#include "skiff/ops/ir/op_bridge.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/jit/symbolic_tensor.h"

namespace skiff::jit {

namespace detail {
thread_local CaptureScope* t_capture = nullptr;
}

namespace br = ops::ir_bridge;

std::shared_ptr<ir::IrContext> default_context() {
  static const std::shared_ptr<ir::IrContext> ctx = [] {
    auto c = std::make_shared<ir::IrContext>();
    ir::load_all_dialects(c.get());
    br::attach_op_interfaces(c.get());
    return c;
  }();
  return ctx;
}

CaptureScope::CaptureScope(std::shared_ptr<ir::IrContext> ctx, Activation when)
    : ctx_(std::move(ctx)),
      program_(std::make_unique<ir::Program>(ctx_.get())),
      builder_(ctx_.get(), program_->block()) {
  result_.context = ctx_;
  if (when == Activation::kNow) {
    SKIFF_ENFORCE(detail::t_capture == nullptr, kPrecondition, "to_static", "capture",
                  "no capture already running on this thread", "a nested capture");
    activate();
  }
}

CaptureScope::~CaptureScope() {
  if (active_ && detail::t_capture == this) detail::set_capture(previous_);
  restore_grads();
}

void CaptureScope::restore_grads() {
  for (auto& [param, grad] : grads_before_) {
    if (auto* m = autograd::autograd_meta(param)) m->grad = std::move(grad);
  }
  grads_before_.clear();
}

void CaptureScope::activate() {
  SKIFF_ENFORCE(!active_ && program_, kPrecondition, "capture", "activate",
                "an inactive, unfinished capture", active_ ? "an active one" : "a finished one");
  previous_ = detail::t_capture;
  detail::set_capture(this);
  active_ = true;
}

void CaptureScope::deactivate() {
  SKIFF_ENFORCE(
      active_ && detail::t_capture == this, kPrecondition, "capture", "deactivate",
      "the innermost active capture of this thread",
      active_ ? "a capture activated before another still active one" : "an inactive one");
  detail::set_capture(previous_);
  previous_ = nullptr;
  active_ = false;
}

Tensor CaptureScope::input(const InputSpec& spec) {
  std::string name = spec.name.empty() ? str("input", result_.inputs.size()) : spec.name;
  ir::Type t = ir::TensorType::get(ctx_.get(), br::to_ir(spec.dtype), spec.shape);
  ir::Value v =
      ir::op::DataOp::build_typed(builder_, {&t, 1}, name, spec.shape, br::to_ir(spec.dtype)).out();
  result_.inputs.push_back(name);
  return wrap(v);
}

namespace {
// True when `v` is defined in `block` or in a region nested in it.
bool defined_inside(ir::Value v, const ir::Block* block) {
  for (ir::Block* b = v.parent_block(); b;) {
    if (b == block) return true;
    ir::Operation* p = b->parent_op();
    b = p ? p->parent_block() : nullptr;
  }
  return false;
}
}  // namespace

ir::Value CaptureScope::value_of(const Tensor& t) {
  if (const SymbolicTensor* s = as_symbolic(t)) {
    // Inside this program (at the top or in a region of a cf op), not another one's.
    SKIFF_ENFORCE(defined_inside(s->value(), program_->block()), kInvalidArgument, "capture",
                  "tensor", "a tensor of the program being built",
                  "a tensor of another program (made under another program_guard)");
    if (!regions_.empty()) note_free_variable(t, s->value());
    return s->value();
  }
  ir::Value v = parameter_of(t);
  if (!regions_.empty()) note_free_variable(t, v);
  return v;
}

void CaptureScope::note_free_variable(const Tensor& t, ir::Value v) {
  // Innermost first: a value defined inside a region is inside every enclosing one too.
  for (auto it = regions_.rbegin(); it != regions_.rend(); ++it) {
    if (defined_inside(v, it->block)) return;
    bool seen = false;
    for (const FreeVariable& f : it->free) seen = seen || f.tensor.impl() == t.impl();
    if (!seen) it->free.push_back({t, v});
  }
}

bool CaptureScope::from_outside_region(const Tensor& t) const {
  if (regions_.empty()) return false;
  const SymbolicTensor* s = as_symbolic(t);
  return s == nullptr || !defined_inside(s->value(), regions_.back().block);
}

void CaptureScope::push_region(ir::Block* block) {
  regions_.push_back({block, builder_.insertion_block(), builder_.insertion_point(), {}});
  builder_.set_insertion_point_to_end(block);
}

std::vector<CaptureScope::FreeVariable> CaptureScope::pop_region() {
  SKIFF_CHECK(!regions_.empty());
  RegionFrame f = std::move(regions_.back());
  regions_.pop_back();
  if (f.saved_before) {
    builder_.set_insertion_point(f.saved_before);
  } else {
    builder_.set_insertion_point_to_end(f.saved_block);
  }
  return std::move(f.free);
}

ir::Value CaptureScope::parameter_of(const Tensor& t) {
  SKIFF_ENFORCE(t.is_dense(), kUnimplemented, "to_static", "tensor", "a dense or symbolic tensor",
                "another kind");
  if (auto w = written_.find(t.impl()); w != written_.end()) return w->second;
  auto it = params_.find(t.impl());
  if (it != params_.end()) return it->second;
  // Parameters sit at the top of the program so every later op may use them.
  ir::Builder b(ctx_.get());
  ir::Block* block = program_->block();
  ir::Operation* first_non_param = block->front();
  while (first_non_param && first_non_param->name() == ir::ParameterOp::kName) {
    first_non_param = first_non_param->next();
  }
  if (first_non_param) {
    b.set_insertion_point(first_non_param);
  } else {
    b.set_insertion_point_to_end(block);
  }
  std::string name = str("param", result_.params.size());
  ir::Value v = ir::ParameterOp::build(b, name, br::to_ir_type(ctx_.get(), t.dense().meta()))
                    .operation()
                    ->result(0);
  params_.emplace(t.impl(), v);
  result_.params.emplace_back(name, t);
  const auto* m = autograd::autograd_meta(t);
  grads_before_.emplace_back(t, m != nullptr ? m->grad : Tensor());
  return v;
}

Tensor CaptureScope::wrap(ir::Value v) {
  auto t = v.type().dyn_cast<ir::TensorType>();
  SKIFF_ENFORCE(t, kTypeError, "to_static", "value", "a tensor", ir::to_string(v.type()));
  // A captured program runs on the current device (its parameters and inputs live there), so a
  // value's place is that device: code that places its own tensors (`t.to(x.place)`) agrees.
  return Tensor(std::make_shared<SymbolicTensor>(v, br::to_meta(t), ops::default_place()));
}

void CaptureScope::output(const Tensor& t, const std::string& name) {
  ir::ShadowOutputOp::build(builder_, value_of(t), name);
  result_.outputs.push_back(name);
}

void CaptureScope::update(const Tensor& param, const Tensor& value) {
  SKIFF_ENFORCE(param.is_dense(), kInvalidArgument, "to_static", "param",
                "a dense tensor (a parameter of the program)", "a symbolic tensor");
  SKIFF_ENFORCE(param.dtype() == value.dtype() && param.dims() == value.dims(), kInvalidArgument,
                "to_static", "update",
                str("a value of the parameter's ", dtype_name(param.dtype()), " ", param.dims()),
                str(dtype_name(value.dtype()), " ", value.dims()));
  ir::Value v = value_of(value);
  if (written_.emplace(param.impl(), v).second) {
    written_order_.push_back(param);
  } else {
    written_[param.impl()] = v;
  }
}

CapturedProgram CaptureScope::finish() {
  SKIFF_ENFORCE(program_ != nullptr, kPrecondition, "capture", "finish", "an unfinished capture",
                "a finished one");
  // Only the last value written into each dense tensor goes back to it.
  for (const Tensor& param : written_order_) {
    std::string name = str("update", result_.updates.size());
    ir::ShadowOutputOp::build(builder_, written_.at(param.impl()), name);
    result_.outputs.push_back(name);
    result_.updates.emplace_back(name, param);
  }
  if (active_) deactivate();
  restore_grads();
  result_.program = std::move(program_);
  result_.program->verify();
  return std::move(result_);
}

bool CaptureScope::owns(const Tensor& t) const {
  const SymbolicTensor* s = as_symbolic(t);
  return s != nullptr && program_ != nullptr && defined_inside(s->value(), program_->block());
}

size_t CaptureScope::num_ops() const {
  SKIFF_ENFORCE(program_ != nullptr, kPrecondition, "capture", "program", "an unfinished capture",
                "a finished one");
  size_t n = 0;
  for (ir::Operation* op = program_->block()->front(); op; op = op->next()) {
    n += op->name() != ir::ParameterOp::kName;
  }
  return n;
}

namespace {
// Paddle's clone(for_test=True): every op whose record has `bool is_test` (dropout, batch_norm)
// gets is_test = true, nested ops of control flow included. No op is named here.
void set_test_mode(ir::Operation* root) {
  root->walk([](ir::Operation* op) {
    const ops::OpSchema* s = br::schema_of(op);
    if (s == nullptr) return;
    for (const ops::ArgSchema& a : s->args) {
      if (a.name == "is_test" && a.kind == ops::ArgKind::kBool) {
        op->set_attr("is_test", ir::BoolAttr::get(op->context(), true));
      }
    }
  });
}
}  // namespace

CapturedProgram CaptureScope::snapshot(const std::vector<Tensor>& fetch,
                                       const std::vector<std::string>& names, bool with_updates,
                                       size_t max_ops, bool for_test) const {
  SKIFF_ENFORCE(program_ != nullptr, kPrecondition, "capture", "snapshot", "an unfinished capture",
                "a finished one");
  SKIFF_ENFORCE(fetch.size() == names.size(), kInvalidArgument, "capture", "names",
                str(fetch.size(), " names (one per fetched tensor)"), names.size());
  CapturedProgram r;
  r.context = ctx_;
  r.program = std::make_unique<ir::Program>(ctx_.get());
  ir::Builder b(ctx_.get(), r.program->block());
  ir::IrMapping map;
  size_t kept = 0;
  for (ir::Operation* op = program_->block()->front(); op; op = op->next()) {
    const bool param = op->name() == ir::ParameterOp::kName;
    if (!param && kept == max_ops) continue;
    kept += !param;
    ir::Operation* copy = b.clone(op, map);
    if (for_test) set_test_mode(copy);
  }
  for (size_t i = 0; i < fetch.size(); ++i) {
    const SymbolicTensor* s = as_symbolic(fetch[i]);
    SKIFF_ENFORCE(s != nullptr, kInvalidArgument, "Executor.run", str("fetch_list[", i, "]"),
                  "a tensor of the program", "a dense tensor");
    SKIFF_ENFORCE(owns(fetch[i]) && map.contains(s->value()), kInvalidArgument, "Executor.run",
                  str("fetch_list[", i, "] (", names[i], ")"), "a tensor of the program being run",
                  owns(fetch[i]) ? "a tensor added after the program was cloned"
                                 : "a tensor of another program");
    ir::ShadowOutputOp::build(b, map.lookup_or_self(s->value()), names[i]);
  }
  for (ir::Operation* op = r.program->block()->front(); op; op = op->next()) {
    if (op->name() == "op.data") r.inputs.push_back(ir::op::DataOp(op).name());
    if (op->name() == ir::ShadowOutputOp::kName) {
      r.outputs.push_back(op->attr_of<ir::StrAttr>("name").value());
    }
  }
  r.params = result_.params;
  for (const Tensor& param : with_updates ? written_order_ : std::vector<Tensor>{}) {
    ir::Value v = written_.at(param.impl());
    if (!map.contains(v)) continue;  // written after the copy's last op
    std::string name = str("update", r.updates.size());
    ir::ShadowOutputOp::build(b, map.lookup_or_self(v), name);
    r.outputs.push_back(name);
    r.updates.emplace_back(name, param);
  }
  r.program->verify();
  return r;
}

std::vector<std::vector<Tensor>> capture_op(std::string_view name,
                                            const std::vector<std::vector<Tensor>>& inputs,
                                            const std::map<std::string, ops::AttrValue>& attrs) {
  CaptureScope* scope = CaptureScope::current();
  SKIFF_CHECK(scope != nullptr);
  const ops::OpSchema& s = ops::op_schema(name);
  ir::Builder& b = scope->builder();
  if (scope->locator()) {
    auto [file, line] = scope->locator()();
    b.set_loc(file.empty() ? ir::LocAttr() : ir::LocAttr::get(scope->context(), file, line, 0));
  }
  // An in-place-only op (a fused optimizer update) writes into the inputs it is given: it gets
  // copies, so that the program stays functional (the caller rebinds the targets to the results).
  const ops::InplaceInfo* inplace = ops::inplace_info(s.id);
  const bool writes_inputs = inplace != nullptr && inplace->api == s.name;
  auto written = [&](const std::string& arg) {
    if (!writes_inputs) return false;
    for (const auto& [in, out] : inplace->pairs) {
      if (in == arg) return true;
    }
    return false;
  };
  auto operand = [&](const Tensor& t, bool copy) {
    ir::Value v = scope->value_of(t);
    return copy ? b.create_inferred("op.assign", {&v, 1}, {})->result(0) : v;
  };
  std::vector<ir::Value> operands;
  size_t k = 0;
  for (const ops::ArgSchema& arg : s.args) {
    if (!ops::is_tensor_kind(arg.kind)) continue;
    const std::vector<Tensor>& list = inputs[k++];
    const bool copy = written(arg.name);
    if (arg.kind == ops::ArgKind::kTensorList) {
      std::vector<ir::Value> vals;
      for (const Tensor& t : list) vals.push_back(operand(t, copy));
      operands.push_back(ir::CombineOp::build(b, vals).out());
    } else {
      operands.push_back(list.empty() ? ir::Value() : operand(list[0], copy));
    }
  }
  ir::Operation* op =
      b.create_inferred(str("op.", name), operands, br::to_ir_attrs(scope->context(), s, attrs));
  std::vector<std::vector<Tensor>> out(op->num_results());
  for (uint32_t j = 0; j < op->num_results(); ++j) {
    if (s.outputs[j].is_list) {
      ir::Operation* split = ir::SplitOp::build(b, op->result(j)).operation();
      for (ir::Value v : split->results()) out[j].push_back(scope->wrap(v));
    } else {
      out[j].push_back(scope->wrap(op->result(j)));
    }
  }
  return out;
}

void rebind_inplace(const char* op, const char* arg, const Tensor& target, const Tensor& value) {
  CaptureScope* scope = CaptureScope::current();
  SKIFF_CHECK(scope != nullptr);
  // A region cannot rebind an outer tensor: the new value exists only inside the region.
  SKIFF_ENFORCE(!scope->from_outside_region(target), kUnimplemented, op, arg,
                "a tensor created inside the cond branch or while_loop body it is written in "
                "(return the new value from the branch or body instead)",
                "a tensor from outside the region");
  SKIFF_ENFORCE(target.dims() == value.dims(), kInvalidArgument, op, arg,
                str("a result of its own shape ", target.dims()), value.dims());
  // The result is stored in the target's dtype, as the eager in-place kernels do.
  Tensor v = value;
  if (value.dtype() != target.dtype()) {
    ops::inplace_dtype(op, arg, target.dtype(), value.dtype());
    v = cast(value, target.dtype());
  }
  if (as_symbolic(target) != nullptr) {
    ir::Operation* def = as_symbolic(target)->value().defining_op();
    const ops::OpSchema* producer = def ? br::schema_of(def) : nullptr;
    SKIFF_ENFORCE(producer == nullptr || !producer->is_view, kUnimplemented, op, arg,
                  "a tensor that is not a view inside to_static (write the whole tensor, or use "
                  "an out-of-place op such as paddle.where or scatter)",
                  str("a view made by ", producer ? producer->name : ""));
    const_cast<Tensor&>(target) = v;
    return;
  }
  scope->update(target, v);
}

void rebind_inplace(const char* op, const char* arg, const std::vector<Tensor>& targets,
                    const std::vector<Tensor>& values) {
  SKIFF_ENFORCE(targets.size() == values.size(), kInvalidArgument, op, arg,
                str(values.size(), " tensors"), targets.size());
  for (size_t i = 0; i < targets.size(); ++i) rebind_inplace(op, arg, targets[i], values[i]);
}

void remember_outputs(const std::shared_ptr<const void>& owner,
                      const std::vector<Tensor*>& outputs) {
  CaptureScope* scope = CaptureScope::current();
  if (scope == nullptr) return;
  bool dynamic = false;
  for (const Tensor* t : outputs) {
    for (int d = 0; t->defined() && d < t->rank(); ++d) dynamic = dynamic || t->dims()[d] < 0;
  }
  if (!dynamic) return;
  std::vector<Tensor> outs;
  for (const Tensor* t : outputs) {
    const SymbolicTensor* s = as_symbolic(*t);
    outs.push_back(s ? symbolic_copy(*s) : Tensor());  // no autograd state: no reference cycle
  }
  scope->node_outputs_[owner.get()] = {owner, std::move(outs)};
}

Tensor remembered_output(const void* node, size_t i) {
  CaptureScope* scope = CaptureScope::current();
  if (scope == nullptr) return Tensor();
  auto it = scope->node_outputs_.find(node);
  if (it == scope->node_outputs_.end() || it->second.first.lock().get() != node) return Tensor();
  return i < it->second.second.size() ? it->second.second[i] : Tensor();
}

std::vector<Tensor> gradients(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                              const std::vector<Tensor>& grad_outputs) {
  SKIFF_ENFORCE(capturing(), kPrecondition, "gradients", "capture",
                "a function being captured (to_static)", "eager mode; use autograd::grad");
  // create_graph: the backward ops record history too, so gradients can be taken again.
  autograd::GradOptions options;
  options.retain_graph = true;
  options.create_graph = true;
  options.allow_unused = true;
  return autograd::grad(outputs, inputs, grad_outputs, options);
}

void update_parameter(const Tensor& param, const Tensor& value) {
  SKIFF_ENFORCE(capturing(), kPrecondition, "update_parameter", "capture",
                "a function being captured (to_static)", "eager mode");
  CaptureScope::current()->update(param, value);
}

CapturedProgram capture(const Function& fn, const std::vector<InputSpec>& specs) {
  CaptureScope scope(default_context());
  std::vector<Tensor> in;
  in.reserve(specs.size());
  for (const InputSpec& spec : specs) in.push_back(scope.input(spec));
  std::vector<Tensor> out = fn(in);
  for (size_t i = 0; i < out.size(); ++i) scope.output(out[i], str("out", i));
  return scope.finish();
}

}  // namespace skiff::jit
