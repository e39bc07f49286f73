// to_static for C++ callables: run a function once on symbolic tensors through the ordinary op
// API and keep the IR program it builds (see docs/ARCHITECTURE.md "Static graph").
//
//   jit::StaticFunction f = jit::to_static(
//       [&](const std::vector<Tensor>& in) { return std::vector<Tensor>{model(in[0])}; },
//       {jit::InputSpec{{-1, 784}, DType::kFloat32, "x"}});
//   std::vector<Tensor> out = f({x});               // runs the program with the executor
//
// Dense tensors a captured function touches (weights, buffers, closures) become
// builtin.parameter ops bound to those tensors, so a run always reads their current data.
// Inside a capture, jit::gradients appends the backward program with the eager VJP rules.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "skiff/core/tensor.h"
#include "skiff/ir/core/builder.h"
#include "skiff/ir/core/program.h"
#include "skiff/runtime/jit/capture_state.h"

namespace skiff::jit {

/// Paddle's InputSpec: shape with -1 (None) for dims known only at run time, dtype, name.
struct InputSpec {
  std::vector<int64_t> shape;
  DType dtype = DType::kFloat32;
  std::string name;
};

/// A captured program and what binds it to the world: inputs (op.data names, in order),
/// parameters (builtin.parameter name -> tensor), outputs (builtin.shadow_output names, in
/// order), and parameter updates (outputs whose values are written back into parameters after
/// each run: an optimizer step captured into the program).
struct CapturedProgram {
  std::shared_ptr<ir::IrContext> context;
  std::unique_ptr<ir::Program> program;
  std::vector<std::string> inputs;
  std::vector<std::pair<std::string, Tensor>> params;
  std::vector<std::string> outputs;
  std::vector<std::pair<std::string, Tensor>> updates;  // output name -> parameter to overwrite
};

/// The IR context captures use by default: every dialect loaded, op interfaces attached.
std::shared_ptr<ir::IrContext> default_context();

/// A deep copy (a fresh program; the same bound tensors).
CapturedProgram clone_program(const CapturedProgram& p);
/// A program from its text (Program::print) whose builtin.parameter ops are bound to `params`
/// by name; inputs and outputs are its op.data and builtin.shadow_output ops in order.
CapturedProgram parse_program(std::string_view text,
                              const std::vector<std::pair<std::string, Tensor>>& params);

/// A program under construction. Made with Activation::kNow it is this thread's capture for its
/// lifetime (RAII; nested captures are refused). Made with kLater it is activated and
/// deactivated explicitly, in stack order (Paddle's program_guard, the Python capture object).
class CaptureScope {
 public:
  enum class Activation { kNow, kLater };
  explicit CaptureScope(std::shared_ptr<ir::IrContext> ctx, Activation when = Activation::kNow);
  ~CaptureScope();
  CaptureScope(const CaptureScope&) = delete;
  CaptureScope& operator=(const CaptureScope&) = delete;

  static CaptureScope* current() { return detail::t_capture; }
  void activate();
  void deactivate();
  bool active() const { return active_; }

  ir::IrContext* context() const { return ctx_.get(); }
  ir::Builder& builder() { return builder_; }
  /// Where the op being captured was called from, in user code ({file, line}; an empty file
  /// when unknown): captured ops carry it as their location, and errors at run time name it.
  using Locator = std::function<std::pair<std::string, int64_t>()>;
  void set_locator(Locator locator) { locator_ = std::move(locator); }
  const Locator& locator() const { return locator_; }
  /// The program so far (null after finish()).
  const ir::Program* program() const { return program_.get(); }
  /// The dense tensors bound to the program's parameters so far, by parameter name.
  const std::vector<std::pair<std::string, Tensor>>& params() const { return result_.params; }
  /// The dense tensors the program writes back after each run, in first-write order.
  const std::vector<Tensor>& written() const { return written_order_; }

  /// An op.data input of the program.
  Tensor input(const InputSpec& spec);
  /// The IR value of `t`: its own for a symbolic tensor, else the parameter bound to it
  /// (created on first use), or the value an in-place op last wrote into it.
  ir::Value value_of(const Tensor& t);
  /// Wraps an IR value as a symbolic tensor.
  Tensor wrap(ir::Value v);
  /// Marks `t` as the program output `name`.
  void output(const Tensor& t, const std::string& name);
  /// After each run, the final `value` written into the dense tensor `param` is copied into it;
  /// until then, reads of `param` in this capture see `value`.
  void update(const Tensor& param, const Tensor& value);
  /// Ends the capture (deactivating it) and hands over the program.
  CapturedProgram finish();

  /// Control flow: ops go into `block` (a region of a cf op) until the matching pop_region,
  /// which restores the insertion point. Tensors from outside the region that it reads (through
  /// value_of) are its free variables: the outer tensors a branch or loop body uses, which
  /// autodiff through cf ops needs. Regions nest.
  void push_region(ir::Block* block);
  /// An outer tensor a region read, and the IR value it was read as.
  struct FreeVariable {
    Tensor tensor;
    ir::Value value;
  };
  /// Closes the innermost region; returns its free variables in first-use order.
  std::vector<FreeVariable> pop_region();
  /// Inside a region: whether `t` comes from outside the innermost one (a parameter or a value
  /// defined before it).
  bool from_outside_region(const Tensor& t) const;
  /// A finished copy of the program so far, the capture going on unchanged
  /// (paddle.static.Executor.run on a program still being built): the first `max_ops` ops that
  /// are not parameters (all by default; a Program.clone taken earlier keeps fewer), the
  /// symbolic tensors `fetch` as extra outputs named `names`, and, with `with_updates`, the
  /// parameter updates whose values lie in the copy. A fetched tensor of another program, or
  /// one made after the first `max_ops` ops, is an error naming `names[i]`. `for_test` switches
  /// dropout to inference (Paddle's Program.clone(for_test=True)).
  CapturedProgram snapshot(const std::vector<Tensor>& fetch, const std::vector<std::string>& names,
                           bool with_updates = true, size_t max_ops = SIZE_MAX,
                           bool for_test = false) const;
  /// True when `t` is a symbolic tensor of this program.
  bool owns(const Tensor& t) const;
  /// Number of ops so far that are not parameters (the `max_ops` of snapshot).
  size_t num_ops() const;

 private:
  std::shared_ptr<ir::IrContext> ctx_;
  std::unique_ptr<ir::Program> program_;
  ir::Builder builder_;
  CapturedProgram result_;
  std::unordered_map<const TensorImpl*, ir::Value> params_;
  std::unordered_map<const TensorImpl*, ir::Value> written_;  // dense tensor -> its new value
  std::vector<Tensor> written_order_;
  // grad node -> (the node, its symbolic outputs): see jit::remember_outputs
  std::unordered_map<const void*, std::pair<std::weak_ptr<const void>, std::vector<Tensor>>>
      node_outputs_;
  friend void remember_outputs(const std::shared_ptr<const void>&, const std::vector<Tensor*>&);
  friend Tensor remembered_output(const void*, size_t);
  // The gradients parameters had when the capture first saw them: a backward inside the
  // capture gives them symbolic gradients, which must not outlive it.
  std::vector<std::pair<Tensor, Tensor>> grads_before_;
  void restore_grads();
  CaptureScope* previous_ = nullptr;
  bool active_ = false;
  Locator locator_;

  struct RegionFrame {
    ir::Block* block;
    ir::Block* saved_block;  // the insertion point to restore
    ir::Operation* saved_before;
    std::vector<FreeVariable> free;
  };
  std::vector<RegionFrame> regions_;
  void note_free_variable(const Tensor& t, ir::Value v);
  ir::Value parameter_of(const Tensor& t);
};

/// Gradients of `outputs` with respect to `inputs` (symbolic tensors or parameters), appended
/// to the program being captured by running the eager VJP rules on symbolic tensors
/// (paddle.static.gradients). The result is differentiable again (higher orders).
std::vector<Tensor> gradients(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                              const std::vector<Tensor>& grad_outputs = {});

/// Inside a capture: after each run of the program, `value` is written into the dense tensor
/// `param` (an optimizer step captured with the forward and backward passes).
void update_parameter(const Tensor& param, const Tensor& value);

using Function = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

/// Captures `fn` on symbolic inputs of `specs`; its results become the outputs out0, out1, ...
CapturedProgram capture(const Function& fn, const std::vector<InputSpec>& specs);

}  // namespace skiff::jit
