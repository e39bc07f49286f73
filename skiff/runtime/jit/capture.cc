#include "skiff/runtime/jit/capture.h"

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ir/dialects/register.h"
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

namespace {
std::shared_ptr<ir::IrContext> default_context() {
  static const std::shared_ptr<ir::IrContext> ctx = [] {
    auto c = std::make_shared<ir::IrContext>();
    ir::load_all_dialects(c.get());
    br::attach_op_interfaces(c.get());
    return c;
  }();
  return ctx;
}
}  // namespace

CaptureScope::CaptureScope(std::shared_ptr<ir::IrContext> ctx)
    : ctx_(std::move(ctx)),
      program_(std::make_unique<ir::Program>(ctx_.get())),
      builder_(ctx_.get(), program_->block()) {
  SKIFF_ENFORCE(detail::t_capture == nullptr, kPrecondition, "to_static", "capture",
                "no capture already running on this thread", "a nested capture");
  result_.context = ctx_;
  previous_ = detail::t_capture;
  detail::t_capture = this;
}

CaptureScope::~CaptureScope() { detail::t_capture = previous_; }

Tensor CaptureScope::input(const InputSpec& spec) {
  std::string name = spec.name.empty() ? str("input", result_.inputs.size()) : spec.name;
  ir::Type t = ir::TensorType::get(ctx_.get(), br::to_ir(spec.dtype), spec.shape);
  ir::Value v =
      ir::op::DataOp::build_typed(builder_, {&t, 1}, name, spec.shape, br::to_ir(spec.dtype)).out();
  result_.inputs.push_back(name);
  return wrap(v);
}

ir::Value CaptureScope::value_of(const Tensor& t) {
  if (const SymbolicTensor* s = as_symbolic(t)) {
    if (!regions_.empty()) note_free_variable(t, s->value());
    return s->value();
  }
  ir::Value v = parameter_of(t);
  if (!regions_.empty()) note_free_variable(t, v);
  return v;
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

void CaptureScope::note_free_variable(const Tensor& t, ir::Value v) {
  // Innermost first: a value defined inside a region is inside every enclosing one too.
  for (auto it = regions_.rbegin(); it != regions_.rend(); ++it) {
    if (defined_inside(v, it->block)) return;
    bool seen = false;
    for (const Tensor& f : it->free) seen = seen || f.impl() == t.impl();
    if (!seen) it->free.push_back(t);
  }
}

void CaptureScope::push_region(ir::Block* block) {
  regions_.push_back({block, builder_.insertion_block(), builder_.insertion_point(), {}});
  builder_.set_insertion_point_to_end(block);
}

std::vector<Tensor> CaptureScope::pop_region() {
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
  return v;
}

Tensor CaptureScope::wrap(ir::Value v) {
  auto t = v.type().dyn_cast<ir::TensorType>();
  SKIFF_ENFORCE(t, kTypeError, "to_static", "value", "a tensor", ir::to_string(v.type()));
  return Tensor(std::make_shared<SymbolicTensor>(v, br::to_meta(t), Place::cpu()));
}

void CaptureScope::output(const Tensor& t, const std::string& name) {
  ir::ShadowOutputOp::build(builder_, value_of(t), name);
  result_.outputs.push_back(name);
}

void CaptureScope::update(const Tensor& param, const Tensor& value) {
  SKIFF_ENFORCE(param.is_dense(), kInvalidArgument, "to_static", "param",
                "a dense tensor (a parameter of the program)", "a symbolic tensor");
  std::string name = str("update", result_.updates.size());
  output(value, name);
  result_.updates.emplace_back(name, param);
}

CapturedProgram CaptureScope::finish() {
  result_.program = std::move(program_);
  result_.program->verify();
  return std::move(result_);
}

std::vector<std::vector<Tensor>> capture_op(std::string_view name,
                                            const std::vector<std::vector<Tensor>>& inputs,
                                            const std::map<std::string, ops::AttrValue>& attrs) {
  CaptureScope* scope = CaptureScope::current();
  SKIFF_CHECK(scope != nullptr);
  const ops::OpSchema& s = ops::op_schema(name);
  ir::Builder& b = scope->builder();
  std::vector<ir::Value> operands;
  size_t k = 0;
  for (const ops::ArgSchema& arg : s.args) {
    if (!ops::is_tensor_kind(arg.kind)) continue;
    const std::vector<Tensor>& list = inputs[k++];
    if (arg.kind == ops::ArgKind::kTensorList) {
      std::vector<ir::Value> vals;
      for (const Tensor& t : list) vals.push_back(scope->value_of(t));
      operands.push_back(ir::CombineOp::build(b, vals).out());
    } else {
      operands.push_back(list.empty() ? ir::Value() : scope->value_of(list[0]));
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
