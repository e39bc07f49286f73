#include "skiff/runtime/executor/executor.h"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/dense_elements.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/cf.h"
#include "skiff/ir/dialects/kernel.h"
#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ops/boxed.h"
#include "skiff/ops/dispatch.h"
#include "skiff/ops/inplace.h"
#include "skiff/ops/ir/bridge_util.h"
#include "skiff/ops/ir/kernel_call.h"
#include "skiff/ops/ir/op_bridge.h"
#include "skiff/profiler/record_event.h"
#include "skiff/runtime/executor/storage_counts.h"

namespace skiff::executor {

namespace br = ops::ir_bridge;

namespace {

enum class Kind {
  kParam,
  kData,
  kConst,
  kCombine,
  kSplit,
  kOutput,
  kTransfer,
  kOp,
  kIf,
  kWhile,
  kYield
};

// The tensor type of an unplaced or placed (kernel dialect) value.
ir::TensorType tensor_of(ir::Type t) {
  if (auto p = t.dyn_cast<ir::DenseTensorOnPlaceType>()) return p.tensor();
  return t.dyn_cast<ir::TensorType>();
}

struct Code;

// Spare buffers kept per size class (Note [Spare buffers]): one serves chains of same-sized
// results; more would hold memory that the caching allocator could give to other sizes.
constexpr int kSparesPerClass = 1;

struct Instr {
  Instr() = default;
  Instr(Instr&&) = default;  // move-only (nested blocks)
  Instr& operator=(Instr&&) = default;
  Instr(const Instr&) = delete;
  Kind kind;
  std::string name;   // op name (errors) or output name
  std::string where;  // the user code an op was captured from (file:line), if known
  const ops::OpSchema* schema = nullptr;
  ops::BoxedFn fn = nullptr;
  std::map<std::string, ops::AttrValue> attrs;  // unboxed once
  std::vector<int> inputs;                      // slots (-1: an absent optional input)
  std::vector<int> outputs;                     // slots
  std::vector<int64_t> out_bytes;               // planned bytes per output (-1: dynamic)
  bool view = false;                            // outputs share the first input's buffer
  std::optional<Backend> backend;               // kernel.call: the backend of its kernel key
  // kernel.call resolved at build (ops/ir/kernel_call.h); null: the boxed dense op runs.
  std::unique_ptr<const ops::ResolvedKernel> kernel;
  ops::OutputMetas metas;        // the results' metas, from their types
  DType kernel_dtype{};          // the key's
  bool dynamic = false;          // a result dim is known only at run time: infer-meta per run
  std::vector<int> spare_class;  // per output: its size class of spare buffers, or -1
  Place place;                   // kernel.transfer: the destination
  DenseTensor constant;          // kConst
  int index = 0;                 // parameter, feed or output index
  ir::TensorType data_type;      // kData: the declared type
  // Control flow: cf.if has a then and an else block, cf.while its body. `inputs` are the cf
  // op's operands, then the outer values its regions read (they stay alive until it finishes).
  std::vector<std::unique_ptr<Code>> blocks;
  Code* owner = nullptr;  // the block this instruction belongs to
  bool random = false;    // a random op, or a cf op with one inside (parallel mode orders them)
  // Scheduling (parallel mode).
  std::vector<int> successors;
  int num_deps = 0;
};

struct Slot {
  std::vector<DenseTensor> ts;
};

// The instructions of one block. Slots defined in it (op results, block arguments) are its
// `locals`: their use counts cover uses in this block only (a nested cf op counts as one use of
// each outer value its regions read), so they are reset and released per run of the block.
// Immutable once built: what a run changes lives in its Frame.
struct Code {
  std::vector<Instr> instrs;
  std::vector<int> locals;
  std::vector<int> args;  // block argument slots (cf.while body)
  int id = 0;             // index of its yield buffer in a Frame
};

// The state of one run. The program's instructions are shared by every run (they are not
// written after the build), so any number of threads may run one executor at once.
struct Frame {
  explicit Frame(bool parallel) : parallel(parallel) {}
  bool parallel;
  std::vector<Slot> slots;
  std::unique_ptr<std::atomic<int>[]> remaining;
  std::vector<DenseTensor> results;
  std::vector<std::vector<std::vector<DenseTensor>>> yielded;  // per block: its cf.yield's values
  std::mutex mem_mu;                                           // parallel mode only
  StorageCounts live;  // storage -> handles held by slots (-1: not the run's own)
  int64_t live_bytes = 0, peak = 0;
  // Note [Spare buffers]: a buffer of the run's own whose last handle a slot drops is kept
  // here (at most kSparesPerClass per size class) while a later instruction of the run will
  // still ask for that size (`wanted`: requests left), and that instruction's kernel writes into
  // it instead of a new allocation: no allocator call, Storage or control block per op. The
  // live-buffer accounting (planned and measured peaks) does not count spares; a spare holds at
  // most one buffer per class that the caching allocator could have lent to another size.
  // Spares left are freed when the run ends.
  std::vector<std::vector<std::shared_ptr<Storage>>> spare;
  std::vector<int> wanted;
};

// Values used inside `op`'s regions but defined outside it, in first-use order.
std::vector<ir::Value> captured_values(ir::Operation* op) {
  std::vector<ir::Value> out;
  std::unordered_set<const void*> seen;
  op->walk([&](ir::Operation* inner) {
    if (inner == op) return;
    for (ir::Value v : inner->operands()) {
      if (!v) continue;
      ir::Operation* def = v.defining_op();
      ir::Block* b = v.parent_block();
      bool inside =
          def ? def->is_inside(op) : (b && b->parent_op() && b->parent_op()->is_inside(op));
      if (!inside && seen.insert(v.impl()).second) out.push_back(v);
    }
  });
  return out;
}

// A feed or parameter must have the dtype and the static dims of its declared type.
void check_fits(const DenseTensor& x, const Instr& in) {
  ir::TensorType t = in.data_type;
  if (!t) return;
  bool ok = x.dtype() == br::from_ir(t.dtype()) && x.rank() == t.rank();
  for (int i = 0; ok && i < x.rank(); ++i) {
    ok = t.shape()[i] == ir::kDynamic || t.shape()[i] == x.dim(i);
  }
  if (ok) return;
  SKIFF_THROW(kInvalidArgument, "executor",
              in.kind == Kind::kParam ? str("parameter '", in.name, "'") : str("feed ", in.index),
              str("a tensor of ", ir::to_string(t)), str(dtype_name(x.dtype()), " ", x.dims()));
}

// Reads the bool scalar of a cf condition.
bool truth(const std::vector<DenseTensor>& ts, const char* op) {
  SKIFF_ENFORCE(
      ts.size() == 1 && ts[0].numel() == 1 && ts[0].dtype() == DType::kBool, kInvalidArgument,
      "executor", op, "a bool condition with one element",
      ts.empty() ? std::string("nothing") : str(dtype_name(ts[0].dtype()), " ", ts[0].dims()));
  DenseTensor c = ts[0].contiguous();
  return *static_cast<const bool*>(c.raw_data());
}

}  // namespace

struct Executor::Impl {
  Code top;                       // the program's block
  std::vector<const Code*> home;  // per slot: the block defining it
  std::vector<int> uses;          // per slot: operand occurrences in that block
  size_t num_slots = 0, num_feeds = 0, num_outputs = 0;
  std::vector<Tensor> params;
  std::vector<std::pair<size_t, Tensor>> updates;  // output index -> parameter
  size_t num_codes = 0;
  std::vector<const Code*> codes;  // every block, for not_owned
  // Spare buffer classes (Note [Spare buffers]): per class its bytes, place and requests per run.
  std::vector<std::pair<size_t, Place>> spare_classes;
  std::vector<int> spare_requests;
  std::unordered_map<size_t, int> spare_class_of;  // bytes -> class (-1: on several places)
  std::vector<DenseTensor> constants;              // kConst values (not the run's own buffers)
  ExecutorOptions options;
  int64_t planned = 0;
  std::atomic<int64_t> last_peak{0};  // measured on the most recent run to finish
  // Frames of finished runs, kept so that a run reuses their slot vectors instead of allocating
  // them again (each run still has a frame of its own).
  mutable std::mutex pool_mu;
  mutable std::vector<std::unique_ptr<Frame>> pool;
  struct FrameLease;

  void build(const jit::CapturedProgram& p);
  void build_code(ir::Block* block, Code& code, std::unordered_map<const void*, int>& slot_of,
                  const std::unordered_map<std::string, Tensor>& bound);
  void count_uses(const Code& code);
  void plan();
  void assign_spare_classes();
  void prefill(Frame& f, const Instr& in, const ops::OutSlot* outs) const;
  void execute(Frame& f, const Instr& in, const std::vector<DenseTensor>& feeds) const;
  void call_kernel(Frame& f, const Instr& in) const;
  void call_boxed(Frame& f, const Instr& in) const;
  void run_block(Frame& f, const Code& code, const std::vector<DenseTensor>& feeds) const;
  void run_if(Frame& f, const Instr& in, const std::vector<DenseTensor>& feeds) const;
  void run_while(Frame& f, const Instr& in, const std::vector<DenseTensor>& feeds) const;
  void set_slot(Frame& f, int s, std::vector<DenseTensor> ts) const;
  void retain(Frame& f, const std::vector<DenseTensor>& ts) const;
  void release_slot(Frame& f, int s) const;
  void finish(Frame& f, const Instr& in) const;
  void run_sequential(Frame& f, const std::vector<DenseTensor>& feeds) const;
  void run_parallel(Frame& f, const std::vector<DenseTensor>& feeds) const;
};

// A frame for one run: taken from the pool (or made), emptied and returned when the run ends,
// whether it ends normally or by an error.
struct Executor::Impl::FrameLease {
  explicit FrameLease(const Executor::Impl& m) : m(m) {
    {
      std::lock_guard<std::mutex> lock(m.pool_mu);
      if (!m.pool.empty()) {
        frame = std::move(m.pool.back());
        m.pool.pop_back();
      }
    }
    if (!frame) {
      frame = std::make_unique<Frame>(m.options.parallel);
      frame->slots.resize(m.num_slots);
      frame->remaining.reset(new std::atomic<int>[m.num_slots]);
      frame->yielded.resize(m.num_codes);
      frame->spare.resize(m.spare_classes.size());
    }
  }
  ~FrameLease() { give_back(); }
  void give_back() {
    if (!frame) return;
    for (Slot& s : frame->slots) s.ts.clear();  // a run cut short by an error leaves values
    for (auto& y : frame->yielded) y.clear();
    for (auto& s : frame->spare) s.clear();
    frame->results.clear();
    std::lock_guard<std::mutex> lock(m.pool_mu);
    m.pool.push_back(std::move(frame));
  }
  const Executor::Impl& m;
  std::unique_ptr<Frame> frame;
};

void Executor::Impl::build(const jit::CapturedProgram& p) {
  std::unordered_map<const void*, int> slot_of;
  std::unordered_map<std::string, Tensor> bound(p.params.begin(), p.params.end());
  build_code(p.program->block(), top, slot_of, bound);
  uses.assign(num_slots, 0);
  count_uses(top);
  std::vector<Instr>& instrs = top.instrs;
  // Dependencies: producers of the inputs; program order among random ops (the generator is
  // consumed in the same order as in sequential mode); and an op that writes its inputs' buffers
  // (an in-place-only op on parameters, see jit/inplace_updates.h) after every earlier reader of
  // those buffers, views and lists of them included.
  std::vector<int> producer(num_slots, -1);
  std::vector<int> root(num_slots);  // the slot whose buffers a slot holds (views, lists)
  for (size_t s = 0; s < num_slots; ++s) root[s] = static_cast<int>(s);
  std::unordered_map<int, std::vector<int>> readers;  // root slot -> instructions
  int last_random = -1;
  for (size_t i = 0; i < instrs.size(); ++i) {
    Instr& in = instrs[i];
    std::unordered_set<int> deps;
    for (int s : in.inputs) {
      if (s >= 0 && producer[s] >= 0) deps.insert(producer[s]);
    }
    if (in.random) {
      if (last_random >= 0) deps.insert(last_random);
      last_random = static_cast<int>(i);
    }
    const ops::InplaceInfo* writes =
        in.schema != nullptr ? ops::inplace_info(in.schema->id) : nullptr;
    if (writes != nullptr && writes->api == in.schema->name) {
      for (int s : in.inputs) {
        std::vector<int> written = {s};
        if (s >= 0 && producer[s] >= 0 && instrs[producer[s]].kind == Kind::kCombine) {
          written = instrs[producer[s]].inputs;
        }
        for (int w : written) {
          if (w < 0) continue;
          for (int r : readers[root[w]]) {
            if (r != static_cast<int>(i)) deps.insert(r);
          }
        }
      }
    }
    for (int s : in.inputs) {
      if (s >= 0) readers[root[s]].push_back(static_cast<int>(i));
    }
    if ((in.view || in.kind == Kind::kTransfer) && !in.inputs.empty() && in.inputs[0] >= 0) {
      for (int s : in.outputs) root[s] = root[in.inputs[0]];
    }
    for (int d : deps) instrs[d].successors.push_back(static_cast<int>(i));
    in.num_deps = static_cast<int>(deps.size());
    for (int s : in.outputs) producer[s] = static_cast<int>(i);
  }
  for (const auto& [name, param] : p.updates) {
    size_t k = std::find(p.outputs.begin(), p.outputs.end(), name) - p.outputs.begin();
    SKIFF_ENFORCE(k < p.outputs.size(), kNotFound, "executor", "update", "a program output", name);
    updates.emplace_back(k, param);
  }
}

// Each slot's uses in the block that defines it.
void Executor::Impl::count_uses(const Code& code) {
  for (const Instr& in : code.instrs) {
    for (int s : in.inputs) {
      if (s >= 0 && home[s] == &code) ++uses[s];
    }
    for (const auto& sub : in.blocks) count_uses(*sub);
  }
}

namespace {

// What building one instruction needs besides the op.
struct BuildCtx {
  const std::unordered_map<std::string, Tensor>& bound;  // parameter name -> tensor
  std::vector<Tensor>& params;
  size_t& num_feeds;
  size_t& num_outputs;
  std::vector<ir::Value>& operands;  // the instruction's inputs (cf ops add their free values)
};

using BuildFn = void (*)(ir::Operation*, Instr&, BuildCtx&);

void build_param(ir::Operation* op, Instr& in, BuildCtx& c) {
  const std::string& pname = ir::ParameterOp(op).param_name();
  auto it = c.bound.find(pname);
  SKIFF_ENFORCE(it != c.bound.end(), kNotFound, "executor", "parameter",
                "a tensor bound to every builtin.parameter", pname);
  in.index = static_cast<int>(c.params.size());
  in.name = pname;
  in.data_type = tensor_of(op->result_type(0));
  c.params.push_back(it->second);
}

void build_data(ir::Operation* op, Instr& in, BuildCtx& c) {
  in.index = static_cast<int>(c.num_feeds++);
  in.data_type = tensor_of(op->result_type(0));
}

void build_const(ir::Operation* op, Instr& in, BuildCtx&) {
  in.constant = br::to_dense(op->attr("value"), op->result_type(0).cast<ir::TensorType>());
}

void build_transfer(ir::Operation* op, Instr& in, BuildCtx&) {
  in.place = Place::parse(op->attr_of<ir::StrAttr>("dst_place").value());
}

void build_region_op(ir::Operation* op, Instr&, BuildCtx& c) {
  for (ir::Value v : captured_values(op)) c.operands.push_back(v);
}

void build_output(ir::Operation* op, Instr& in, BuildCtx& c) {
  in.index = static_cast<int>(c.num_outputs++);
  in.name = op->attr_of<ir::StrAttr>("name").value();
}

void build_boxed(const ops::OpSchema* schema, ir::Operation* op, Instr& in) {
  in.schema = schema;
  in.fn = ops::boxed_fn(schema->id);
  in.attrs = br::attr_map(*schema, op->attrs());
  in.view = schema->is_view;
}

// kernel.call: its kernel resolved once (the boxed op under the key's backend where it cannot
// be).
void build_kernel_call(ir::Operation* op, Instr& in, BuildCtx&) {
  br::ResolvedCall r = br::resolve_call(ir::KernelCallOp(op));
  in.schema = r.schema;
  in.fn = ops::boxed_fn(r.schema->id);
  in.attrs = std::move(r.attrs);
  in.view = r.schema->is_view;
  in.backend = r.backend;
  in.kernel = std::move(r.kernel);
  in.metas = std::move(r.metas);
  in.dynamic = r.dynamic;
  in.kernel_dtype = r.dtype;
}

// An op of the op dialect (an unlowered program): the boxed dense op.
void build_op(ir::Operation* op, Instr& in, BuildCtx&) {
  const ops::OpSchema* schema = br::schema_of(op);
  SKIFF_ENFORCE(schema != nullptr && op->num_regions() == 0, kUnimplemented, "executor", "op",
                "an op with a kernel (fused ops come later)", op->describe());
  build_boxed(schema, op, in);
}

void build_nothing(ir::Operation*, Instr&, BuildCtx&) {}

struct InstrKind {
  std::string_view op;  // the IR op name
  Kind kind;
  BuildFn build;
};

// The instruction kind of every op the executor knows by name; any other op is an op of the
// op dialect (kOp through build_op).
constexpr InstrKind kInstrKinds[] = {
    {ir::ParameterOp::kName, Kind::kParam, build_param},
    {ir::op::DataOp::kName, Kind::kData, build_data},
    {ir::ConstantOp::kName, Kind::kConst, build_const},
    {ir::CombineOp::kName, Kind::kCombine, build_nothing},
    {ir::SplitOp::kName, Kind::kSplit, build_nothing},
    {ir::ShadowOutputOp::kName, Kind::kOutput, build_output},
    {ir::TransferOp::kName, Kind::kTransfer, build_transfer},
    {ir::IfOp::kName, Kind::kIf, build_region_op},
    {ir::WhileOp::kName, Kind::kWhile, build_region_op},
    {ir::YieldOp::kName, Kind::kYield, build_nothing},
    {ir::KernelCallOp::kName, Kind::kOp, build_kernel_call},
};

const InstrKind& instr_kind(std::string_view name) {
  static const std::unordered_map<std::string_view, const InstrKind*> table = [] {
    std::unordered_map<std::string_view, const InstrKind*> t;
    for (const InstrKind& k : kInstrKinds) t.emplace(k.op, &k);
    return t;
  }();
  static constexpr InstrKind kOpDialect{"", Kind::kOp, build_op};
  auto it = table.find(name);
  return it != table.end() ? *it->second : kOpDialect;
}

}  // namespace

void Executor::Impl::build_code(ir::Block* block, Code& code,
                                std::unordered_map<const void*, int>& slot_of,
                                const std::unordered_map<std::string, Tensor>& bound) {
  code.id = static_cast<int>(num_codes++);
  codes.push_back(&code);
  auto new_slot = [&](ir::Value v) {
    int s = static_cast<int>(num_slots++);
    slot_of[v.impl()] = s;
    home.push_back(&code);
    code.locals.push_back(s);
    return s;
  };
  auto slot = [&](ir::Value v) { return v ? slot_of.at(v.impl()) : -1; };
  for (ir::Value a : block->args()) code.args.push_back(new_slot(a));
  for (ir::Operation* op = block->front(); op; op = op->next()) {
    Instr in;
    in.name = std::string(op->name());
    if (ir::LocAttr loc = op->loc(); loc && !loc.file().empty()) {
      in.where = str(loc.file(), ":", loc.line());
    }
    std::vector<ir::Value> operands = op->operands();
    const InstrKind& kind = instr_kind(op->name());
    in.kind = kind.kind;
    BuildCtx ctx{bound, params, num_feeds, num_outputs, operands};
    kind.build(op, in, ctx);
    if (in.kind == Kind::kConst) constants.push_back(in.constant);
    in.owner = &code;
    in.random = in.schema && in.schema->is_random;
    for (ir::Value v : operands) in.inputs.push_back(slot(v));
    // Regions before results: their values are defined before the op's results exist.
    for (uint32_t r = 0; r < op->num_regions(); ++r) {
      in.blocks.push_back(std::make_unique<Code>());
      build_code(op->region(r).front(), *in.blocks.back(), slot_of, bound);
      for (const Instr& inner : in.blocks.back()->instrs) in.random = in.random || inner.random;
    }
    for (uint32_t j = 0; j < op->num_results(); ++j) {
      in.outputs.push_back(new_slot(op->result(j)));
      auto t = tensor_of(op->result_type(j));
      in.out_bytes.push_back(
          t && !t.is_dynamic() ? t.numel() * static_cast<int64_t>(ir::dtype_size(t.dtype())) : -1);
    }
    code.instrs.push_back(std::move(in));
  }
}

// The sequential schedule over static sizes: buffers appear when an op outputs them (views
// share their source's) and disappear after the last use of every value holding them.
void Executor::Impl::plan() {
  std::vector<std::vector<int>> bufs(num_slots);  // slot -> buffer ids (-1: not ours)
  std::vector<int64_t> size;
  std::vector<int> refs;
  std::vector<int> left = uses;
  int64_t cur = 0;
  planned = 0;
  auto hold = [&](int s, std::vector<int> ids) {
    for (int b : ids) {
      if (b >= 0 && refs[b]++ == 0) cur += size[b];
    }
    bufs[s] = std::move(ids);
  };
  auto drop = [&](int s) {
    for (int b : bufs[s]) {
      if (b >= 0 && --refs[b] == 0) cur -= size[b];
    }
    bufs[s].clear();
  };
  for (const Instr& in : top.instrs) {
    switch (in.kind) {
      case Kind::kParam:
      case Kind::kData:
      case Kind::kConst:
        hold(in.outputs[0], {-1});
        break;
      case Kind::kCombine: {
        std::vector<int> all;
        for (int s : in.inputs) all.insert(all.end(), bufs[s].begin(), bufs[s].end());
        hold(in.outputs[0], all);
        break;
      }
      case Kind::kSplit:
        for (size_t j = 0; j < in.outputs.size(); ++j) {
          const auto& src = bufs[in.inputs[0]];
          hold(in.outputs[j], j < src.size() ? std::vector<int>{src[j]} : src);
        }
        break;
      case Kind::kOutput:
      case Kind::kYield:
        break;
      case Kind::kTransfer:
        hold(in.outputs[0], bufs[in.inputs[0]]);
        break;
      case Kind::kIf:
      case Kind::kWhile:
        planned = -1;  // which buffers exist depends on the data
        return;
      case Kind::kOp:
        for (size_t j = 0; j < in.outputs.size(); ++j) {
          if (in.view && !in.inputs.empty() && in.inputs[0] >= 0) {
            hold(in.outputs[j], bufs[in.inputs[0]]);
            continue;
          }
          if (in.out_bytes[j] < 0) {
            planned = -1;
            return;
          }
          size.push_back(in.out_bytes[j]);
          refs.push_back(0);
          hold(in.outputs[j], {static_cast<int>(size.size()) - 1});
        }
        break;
    }
    planned = std::max(planned, cur);
    for (int s : in.inputs) {
      if (s >= 0 && --left[s] == 0) drop(s);
    }
    for (int s : in.outputs) {
      if (uses[s] == 0) drop(s);
    }
  }
}

// Size classes of spare buffers (Note [Spare buffers]): the single-tensor results of the
// program's resolved kernel calls with static shapes that allocate them (no views, no in-place
// updates, no dynamic dims), by bytes; a size allocated on two places gets no class.
void Executor::Impl::assign_spare_classes() {
  for (Instr& in : top.instrs) {
    if (in.kind != Kind::kOp || !in.kernel || in.dynamic || in.view) continue;
    const ops::InplaceInfo* writes = ops::inplace_info(in.schema->id);
    if (writes != nullptr && writes->api == in.schema->name) continue;
    in.spare_class.assign(in.outputs.size(), -1);
    for (size_t j = 0; j < in.outputs.size(); ++j) {
      if (in.metas[j].size() != 1 || in.out_bytes[j] <= 0) continue;
      const size_t bytes = static_cast<size_t>(in.out_bytes[j]);
      const Place& place = in.kernel->context().place;
      auto [it, fresh] = spare_class_of.emplace(bytes, static_cast<int>(spare_classes.size()));
      if (fresh) {
        spare_classes.emplace_back(bytes, place);
        spare_requests.push_back(0);
      } else if (it->second >= 0 && spare_classes[it->second].second != place) {
        it->second = -1;
      }
      if (it->second < 0) continue;
      in.spare_class[j] = it->second;
      ++spare_requests[it->second];
    }
  }
}

void Executor::Impl::retain(Frame& f, const std::vector<DenseTensor>& ts) const {
  std::unique_lock<std::mutex> lock(f.mem_mu, std::defer_lock);
  if (f.parallel) lock.lock();
  for (const DenseTensor& t : ts) {
    const Storage* st = t.storage().get();
    if (st == nullptr) continue;
    int& count = f.live.at(st);
    if (count < 0) continue;  // an input, parameter or constant
    if (count++ == 0) {
      f.live_bytes += static_cast<int64_t>(st->nbytes());
      f.peak = std::max(f.peak, f.live_bytes);
    }
  }
}

void Executor::Impl::release_slot(Frame& f, int s) const {
  std::vector<DenseTensor>& ts = f.slots[s].ts;
  {
    std::unique_lock<std::mutex> lock(f.mem_mu, std::defer_lock);
    if (f.parallel) lock.lock();
    for (const DenseTensor& t : ts) {
      const Storage* st = t.storage().get();
      int* count = st != nullptr ? f.live.find(st) : nullptr;
      if (count == nullptr || *count < 0) continue;
      if (--*count == 0) {
        f.live_bytes -= static_cast<int64_t>(st->nbytes());
        f.live.erase(st);
        // No handle left beyond this one: the buffer may serve a later request of its size.
        if (t.storage().use_count() != 1 || spare_classes.empty()) continue;
        auto c = spare_class_of.find(st->nbytes());
        if (c == spare_class_of.end() || c->second < 0) continue;
        auto& spares = f.spare[c->second];
        if (static_cast<int>(spares.size()) < std::min(f.wanted[c->second], kSparesPerClass) &&
            st->place() == spare_classes[c->second].second) {
          spares.push_back(t.storage());
        }
      }
    }
  }
  // The buffers return to the caching allocator; the slot keeps its capacity for later runs
  // of its frame.
  ts.clear();
}

namespace {
// Adds where the op was captured to the hint of an error it raised.
[[noreturn]] void rethrow_with_location(const Error& e, const std::string& where) {
  if (where.empty()) throw e;
  ErrorInfo info = e.info();
  info.hint = str(info.hint.empty() ? "" : info.hint + "; ", "the op was captured at ", where);
  throw Error(std::move(info));
}
}  // namespace

void Executor::Impl::execute(Frame& f, const Instr& in,
                             const std::vector<DenseTensor>& feeds) const {
  profiler::RecordEvent ev;  // op instructions are Operator events while a profiler runs
  if (in.kind == Kind::kOp && profiler::is_enabled()) [[unlikely]] {
    ev.begin(in.schema != nullptr ? in.schema->name : in.name, profiler::EventType::kOperator);
    if (in.schema != nullptr) ev.set_op_id(static_cast<int>(in.schema->id));
  }
  std::vector<Slot>& slots = f.slots;
  switch (in.kind) {
    case Kind::kParam: {
      const DenseTensor& p = params[in.index].dense();
      // Kernels were resolved, and outputs are allocated, for the captured type.
      check_fits(p, in);
      slots[in.outputs[0]].ts = {p};
      break;
    }
    case Kind::kData: {
      const DenseTensor& x = feeds[in.index];
      check_fits(x, in);
      slots[in.outputs[0]].ts = {x};
      break;
    }
    case Kind::kConst:
      slots[in.outputs[0]].ts = {in.constant};
      break;
    case Kind::kCombine: {
      std::vector<DenseTensor> all;
      for (int s : in.inputs) all.insert(all.end(), slots[s].ts.begin(), slots[s].ts.end());
      retain(f, all);
      slots[in.outputs[0]].ts = std::move(all);
      break;
    }
    case Kind::kSplit: {
      const auto& src = slots[in.inputs[0]].ts;
      SKIFF_ENFORCE(src.size() == in.outputs.size(), kInvalidArgument, "executor", "builtin.split",
                    str(in.outputs.size(), " tensors"), src.size());
      for (size_t j = 0; j < in.outputs.size(); ++j) {
        retain(f, {src[j]});
        slots[in.outputs[j]].ts = {src[j]};
      }
      break;
    }
    case Kind::kOutput:
      f.results[in.index] = slots[in.inputs[0]].ts.at(0);
      break;
    case Kind::kYield: {
      std::vector<std::vector<DenseTensor>> vals;
      for (int s : in.inputs) vals.push_back(slots[s].ts);
      f.yielded[in.owner->id] = std::move(vals);
      break;
    }
    case Kind::kIf:
      run_if(f, in, feeds);
      break;
    case Kind::kWhile:
      run_while(f, in, feeds);
      break;
    case Kind::kTransfer: {
      // A value already on the destination moves as a handle; others are copied there.
      std::vector<DenseTensor> ts = slots[in.inputs[0]].ts;
      for (DenseTensor& t : ts) {
        if (t.place() != in.place) t = t.copy_to(in.place);
      }
      retain(f, ts);
      slots[in.outputs[0]].ts = std::move(ts);
      break;
    }
    case Kind::kOp:
      if (in.kernel) {
        call_kernel(f, in);
      } else {
        call_boxed(f, in);
      }
      break;
  }
}

// A resolved kernel.call: the kernel reads its inputs from their slots and writes its outputs
// into theirs, allocated from the metas of the IR types (inferred here only when dynamic).
namespace {
// Where a run's op actually computes: its first tensor input's place, or for an op without
// tensor inputs (creation ops) the default place, as the dense op decides.
Place run_place(const ops::ArgSlot* args, size_t n) {
  for (size_t k = 0; k < n; ++k) {
    if (args[k] != nullptr && !args[k]->empty() && (*args[k])[0].defined()) {
      return (*args[k])[0].place();
    }
  }
  return ops::default_place();
}
}  // namespace

void Executor::Impl::call_kernel(Frame& f, const Instr& in) const {
  constexpr size_t kInline = 8;
  const size_t n_in = in.inputs.size(), n_out = in.outputs.size();
  ops::ArgSlot in_small[kInline];
  ops::OutSlot out_small[kInline];
  std::vector<ops::ArgSlot> in_big;
  std::vector<ops::OutSlot> out_big;
  ops::ArgSlot* args = in_small;
  ops::OutSlot* outs = out_small;
  if (n_in > kInline) args = (in_big.resize(n_in), in_big.data());
  if (n_out > kInline) outs = (out_big.resize(n_out), out_big.data());
  for (size_t k = 0; k < n_in; ++k) {
    args[k] = in.inputs[k] >= 0 ? &f.slots[in.inputs[k]].ts : nullptr;
  }
  // The kernel was resolved for the place of the program's types; tensors elsewhere (a program
  // not placed for the device its data is on) take the dense op, which follows their place.
  if (run_place(args, n_in) != in.kernel->context().place) return call_boxed(f, in);
  for (size_t j = 0; j < n_out; ++j) outs[j] = &f.slots[in.outputs[j]].ts;
  const Backend backend = *in.backend;
  std::optional<ops::ScopedBackend> scoped;
  if (backend != backend_of(in.kernel->context().place)) scoped.emplace(backend);
  if (profiler::is_enabled()) [[unlikely]] {
    ops::note_kernel(in.schema->id, backend, in.kernel_dtype);
  }
  try {
    if (in.dynamic) {
      ops::OutputMetas metas;
      in.kernel->infer(args, metas);
      in.kernel->run(args, metas, outs);
    } else {
      if (!in.spare_class.empty()) prefill(f, in, outs);
      in.kernel->run(args, in.metas, outs);
    }
  } catch (const Error& e) {
    rethrow_with_location(e, in.where);
  }
  for (size_t j = 0; j < n_out; ++j) retain(f, *outs[j]);
}

// Hands the kernel spare buffers for its outputs (Note [Spare buffers]).
void Executor::Impl::prefill(Frame& f, const Instr& in, const ops::OutSlot* outs) const {
  std::unique_lock<std::mutex> lock(f.mem_mu, std::defer_lock);
  if (f.parallel) lock.lock();
  for (size_t j = 0; j < in.spare_class.size(); ++j) {
    const int c = in.spare_class[j];
    if (c < 0) continue;
    --f.wanted[c];
    auto& spares = f.spare[c];
    if (spares.empty()) continue;
    const TensorMeta& m = in.metas[j][0];
    outs[j]->assign(
        1, DenseTensor(std::move(spares.back()), m.dtype, m.dims, contiguous_strides(m.dims), 0));
    spares.pop_back();
  }
}

// An op run as the boxed dense op (infer-meta, promotion and kernel selection per call).
void Executor::Impl::call_boxed(Frame& f, const Instr& in) const {
  ops::BoxedInputs boxed;
  boxed.tensors.resize(in.inputs.size());
  for (size_t k = 0; k < in.inputs.size(); ++k) {
    if (in.inputs[k] >= 0) boxed.tensors[k] = f.slots[in.inputs[k]].ts;
  }
  boxed.attrs = in.attrs;
  std::optional<ops::ScopedBackend> scoped;
  if (in.backend) scoped.emplace(*in.backend);
  ops::BoxedOutputs outs;
  try {
    outs = in.fn(*in.schema, boxed);
  } catch (const Error& e) {
    rethrow_with_location(e, in.where);
  }
  boxed.tensors.clear();  // drop references: frees stay timely
  for (size_t j = 0; j < in.outputs.size(); ++j) {
    retain(f, outs[j]);
    f.slots[in.outputs[j]].ts = std::move(outs[j]);
  }
}

// Releases what `in` was the last user of, and its outputs nobody uses.
void Executor::Impl::finish(Frame& f, const Instr& in) const {
  for (int s : in.inputs) {
    // Values from enclosing blocks are released by the cf op that brought them in.
    if (s >= 0 && home[s] == in.owner && f.remaining[s].fetch_sub(1) == 1) release_slot(f, s);
  }
  for (int s : in.outputs) {
    if (uses[s] == 0) release_slot(f, s);
  }
}

void Executor::Impl::set_slot(Frame& f, int s, std::vector<DenseTensor> ts) const {
  retain(f, ts);
  f.slots[s].ts = std::move(ts);
}

// One run of a block: fresh use counts for its values, its instructions in order, then what is
// left of its values released (block arguments nobody used, results of a run cut short).
void Executor::Impl::run_block(Frame& f, const Code& code,
                               const std::vector<DenseTensor>& feeds) const {
  for (int s : code.locals) f.remaining[s] = uses[s];
  for (const Instr& in : code.instrs) {
    execute(f, in, feeds);
    finish(f, in);
  }
  for (int s : code.locals) {
    if (!f.slots[s].ts.empty()) release_slot(f, s);
  }
}

void Executor::Impl::run_if(Frame& f, const Instr& in,
                            const std::vector<DenseTensor>& feeds) const {
  const Code& branch = *in.blocks[truth(f.slots[in.inputs[0]].ts, "cf.if") ? 0 : 1];
  run_block(f, branch, feeds);
  auto& yielded = f.yielded[branch.id];
  for (size_t j = 0; j < in.outputs.size(); ++j) set_slot(f, in.outputs[j], yielded[j]);
  yielded.clear();
}

void Executor::Impl::run_while(Frame& f, const Instr& in,
                               const std::vector<DenseTensor>& feeds) const {
  const Code& body = *in.blocks[0];
  const size_t n = in.outputs.size();
  std::vector<std::vector<DenseTensor>> state;
  for (size_t k = 0; k < n; ++k) state.push_back(f.slots[in.inputs[1 + k]].ts);
  bool go = truth(f.slots[in.inputs[0]].ts, "cf.while");
  auto& yielded = f.yielded[body.id];
  while (go) {
    for (size_t k = 0; k < n; ++k) set_slot(f, body.args[k], std::move(state[k]));
    run_block(f, body, feeds);
    go = truth(yielded[0], "cf.while");
    for (size_t k = 0; k < n; ++k) state[k] = std::move(yielded[1 + k]);
    yielded.clear();
  }
  for (size_t k = 0; k < n; ++k) set_slot(f, in.outputs[k], std::move(state[k]));
}

void Executor::Impl::run_sequential(Frame& f, const std::vector<DenseTensor>& feeds) const {
  for (const Instr& in : top.instrs) {
    execute(f, in, feeds);
    finish(f, in);
  }
}

void Executor::Impl::run_parallel(Frame& f, const std::vector<DenseTensor>& feeds) const {
  const std::vector<Instr>& instrs = top.instrs;
  std::unique_ptr<std::atomic<int>[]> deps(new std::atomic<int>[instrs.size()]);
  std::vector<int> ready;
  for (size_t i = 0; i < instrs.size(); ++i) {
    deps[i] = instrs[i].num_deps;
    if (instrs[i].num_deps == 0) ready.push_back(static_cast<int>(i));
  }
  std::mutex mu;
  std::condition_variable cv;
  size_t done = 0;
  std::exception_ptr error;
  auto worker = [&] {
    while (true) {
      int i;
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return !ready.empty() || done == instrs.size() || error; });
        if (done == instrs.size() || error) return;
        i = ready.back();
        ready.pop_back();
      }
      const Instr& in = instrs[i];
      try {
        execute(f, in, feeds);
        finish(f, in);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
        cv.notify_all();
        return;
      }
      std::lock_guard<std::mutex> lock(mu);
      ++done;
      for (int s : in.successors) {
        if (deps[s].fetch_sub(1) == 1) ready.push_back(s);
      }
      cv.notify_all();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::max(1, options.num_threads); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

Executor::Executor(const jit::CapturedProgram& p, ExecutorOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->build(p);
  impl_->plan();
  impl_->assign_spare_classes();
}

Executor::~Executor() = default;

std::vector<DenseTensor> Executor::run(const std::vector<DenseTensor>& feeds,
                                       bool write_updates) const {
  const Impl& m = *impl_;
  SKIFF_ENFORCE(feeds.size() == m.num_feeds, kInvalidArgument, "executor", "feeds",
                str(m.num_feeds, " tensors (one per program input)"), feeds.size());
  Impl::FrameLease lease(m);
  Frame& f = *lease.frame;
  for (size_t s = 0; s < m.num_slots; ++s) f.remaining[s] = m.uses[s];
  f.results.assign(m.num_outputs, DenseTensor());
  f.live.reset(m.num_slots + m.params.size() + feeds.size() + m.constants.size());
  f.live_bytes = f.peak = 0;
  f.wanted = m.spare_requests;
  auto not_owned = [&](const DenseTensor& t) {
    if (t.storage()) f.live.at(t.storage().get()) = -1;
  };
  for (const DenseTensor& x : feeds) not_owned(x);
  for (const Tensor& p : m.params) not_owned(p.dense());
  for (const DenseTensor& c : m.constants) not_owned(c);
  if (m.options.parallel) {
    m.run_parallel(f, feeds);
  } else {
    m.run_sequential(f, feeds);
  }
  std::vector<DenseTensor> results = std::move(f.results);
  impl_->last_peak.store(f.peak, std::memory_order_relaxed);
  lease.give_back();
  if (write_updates) this->write_updates(results);
  return results;
}

void Executor::write_updates(const std::vector<DenseTensor>& outputs) const {
  for (const auto& [k, param] : impl_->updates) {
    SKIFF_ENFORCE(k < outputs.size(), kInvalidArgument, "executor", "outputs",
                  "the outputs of a run of this program", str(outputs.size(), " tensors"));
    // An update written in place (jit/inplace_updates.h) is already in the parameter.
    if (outputs[k].raw_data() != param.dense().raw_data()) {
      Tensor(param).mutable_dense().copy_from(outputs[k]);
    }
  }
}

size_t Executor::num_instructions() const { return impl_->top.instrs.size(); }
int64_t Executor::planned_peak_bytes() const { return impl_->planned; }
int64_t Executor::measured_peak_bytes() const {
  return impl_->last_peak.load(std::memory_order_relaxed);
}

}  // namespace skiff::executor
