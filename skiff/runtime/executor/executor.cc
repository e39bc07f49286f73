#include "skiff/runtime/executor/executor.h"

#include <atomic>
#include <condition_variable>
#include <exception>
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
#include "skiff/ops/boxed.h"
#include "skiff/ops/dispatch.h"
#include "skiff/ops/inplace.h"
#include "skiff/ops/ir/bridge_util.h"
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
  ops::BoxedInputs boxed;          // attributes unboxed once; tensors filled per run
  std::vector<int> inputs;         // slots (-1: an absent optional input)
  std::vector<int> outputs;        // slots
  std::vector<int64_t> out_bytes;  // planned bytes per output (-1: dynamic)
  bool view = false;               // outputs share the first input's buffer
  std::optional<Backend> backend;  // kernel.call: the backend of its kernel key
  DenseTensor constant;            // kConst
  int index = 0;                   // parameter, feed or output index
  ir::TensorType data_type;        // kData: the declared type
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
struct Code {
  std::vector<Instr> instrs;
  std::vector<int> locals;
  std::vector<int> args;                          // block argument slots (cf.while body)
  std::vector<std::vector<DenseTensor>> yielded;  // what its cf.yield gave on the last run
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
  ExecutorOptions options;
  int64_t planned = 0;

  // Run state.
  std::vector<Slot> slots;
  std::unique_ptr<std::atomic<int>[]> remaining;
  std::vector<DenseTensor> results;
  std::mutex mem_mu;   // parallel mode only
  StorageCounts live;  // storage -> handles held by slots (-1: not the run's own)
  int64_t live_bytes = 0, peak = 0;

  void build(const jit::CapturedProgram& p);
  void build_code(ir::Block* block, Code& code, std::unordered_map<const void*, int>& slot_of,
                  const std::unordered_map<std::string, Tensor>& bound);
  void count_uses(const Code& code);
  void plan();
  void execute(Instr& in, const std::vector<DenseTensor>& feeds);
  void run_block(Code& code, const std::vector<DenseTensor>& feeds);
  void run_if(Instr& in, const std::vector<DenseTensor>& feeds);
  void run_while(Instr& in, const std::vector<DenseTensor>& feeds);
  void set_slot(int s, std::vector<DenseTensor> ts);
  void retain(const std::vector<DenseTensor>& ts);
  void release_slot(int s);
  void finish(const Instr& in);
  void run_sequential(const std::vector<DenseTensor>& feeds);
  void run_parallel(const std::vector<DenseTensor>& feeds);
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

void Executor::Impl::build_code(ir::Block* block, Code& code,
                                std::unordered_map<const void*, int>& slot_of,
                                const std::unordered_map<std::string, Tensor>& bound) {
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
    std::string_view name = op->name();
    std::vector<ir::Value> operands = op->operands();
    if (name == ir::ParameterOp::kName) {
      const std::string& pname = ir::ParameterOp(op).param_name();
      auto it = bound.find(pname);
      SKIFF_ENFORCE(it != bound.end(), kNotFound, "executor", "parameter",
                    "a tensor bound to every builtin.parameter", pname);
      in.kind = Kind::kParam;
      in.index = static_cast<int>(params.size());
      params.push_back(it->second);
    } else if (name == "op.data") {
      in.kind = Kind::kData;
      in.index = static_cast<int>(num_feeds++);
      in.data_type = tensor_of(op->result_type(0));
    } else if (name == ir::ConstantOp::kName) {
      in.kind = Kind::kConst;
      in.constant = br::to_dense(op->attr("value"), op->result_type(0).cast<ir::TensorType>());
    } else if (name == ir::CombineOp::kName) {
      in.kind = Kind::kCombine;
    } else if (name == ir::SplitOp::kName) {
      in.kind = Kind::kSplit;
    } else if (name == ir::TransferOp::kName) {
      // One place (CPU) for now: placing a value moves the handle.
      SKIFF_ENFORCE(op->attr_of<ir::StrAttr>("dst_place").value() == "cpu", kUnimplemented,
                    "executor", "kernel.transfer", "a transfer to cpu", op->describe());
      in.kind = Kind::kTransfer;
    } else if (name == ir::IfOp::kName || name == ir::WhileOp::kName) {
      in.kind = name == ir::IfOp::kName ? Kind::kIf : Kind::kWhile;
      for (ir::Value v : captured_values(op)) operands.push_back(v);
    } else if (name == ir::YieldOp::kName) {
      in.kind = Kind::kYield;
    } else if (name == ir::KernelCallOp::kName) {
      ir::KernelCallOp call(op);
      const std::string op_name = call.op_name();
      in.schema = op_name.substr(0, 3) == "op." ? ops::find_op_schema(op_name.substr(3)) : nullptr;
      SKIFF_ENFORCE(in.schema != nullptr, kUnimplemented, "executor", "kernel.call",
                    "a call of an op with a record", op_name);
      in.kind = Kind::kOp;
      in.fn = ops::boxed_fn(in.schema->id);
      in.boxed.attrs = br::attr_map(*in.schema, op->attrs());
      in.boxed.tensors.resize(op->num_operands());
      in.view = in.schema->is_view;
      in.backend = parse_backend(call.kernel_key().backend());
    } else if (name == ir::ShadowOutputOp::kName) {
      in.kind = Kind::kOutput;
      in.index = static_cast<int>(num_outputs++);
      in.name = op->attr_of<ir::StrAttr>("name").value();
    } else {
      in.schema = br::schema_of(op);
      SKIFF_ENFORCE(in.schema != nullptr && op->num_regions() == 0, kUnimplemented, "executor",
                    "op", "an op with a kernel (fused ops come later)", op->describe());
      in.kind = Kind::kOp;
      in.fn = ops::boxed_fn(in.schema->id);
      in.boxed.attrs = br::attr_map(*in.schema, op->attrs());
      in.boxed.tensors.resize(op->num_operands());
      in.view = in.schema->is_view;
    }
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

void Executor::Impl::retain(const std::vector<DenseTensor>& ts) {
  std::unique_lock<std::mutex> lock(mem_mu, std::defer_lock);
  if (options.parallel) lock.lock();
  for (const DenseTensor& t : ts) {
    const Storage* st = t.storage().get();
    if (st == nullptr) continue;
    int& count = live.at(st);
    if (count < 0) continue;  // an input, parameter or constant
    if (count++ == 0) {
      live_bytes += static_cast<int64_t>(st->nbytes());
      peak = std::max(peak, live_bytes);
    }
  }
}

void Executor::Impl::release_slot(int s) {
  std::vector<DenseTensor> ts = std::move(slots[s].ts);
  slots[s].ts.clear();
  std::unique_lock<std::mutex> lock(mem_mu, std::defer_lock);
  if (options.parallel) lock.lock();
  for (const DenseTensor& t : ts) {
    const Storage* st = t.storage().get();
    int* count = st != nullptr ? live.find(st) : nullptr;
    if (count == nullptr || *count < 0) continue;
    if (--*count == 0) {
      live_bytes -= static_cast<int64_t>(st->nbytes());
      live.erase(st);
    }
  }
  // `ts` goes out of scope here: the buffers return to the caching allocator.
}

void Executor::Impl::execute(Instr& in, const std::vector<DenseTensor>& feeds) {
  profiler::RecordEvent ev;  // op instructions are Operator events while a profiler runs
  if (in.kind == Kind::kOp && profiler::is_enabled()) [[unlikely]] {
    ev.begin(in.schema != nullptr ? in.schema->name : in.name, profiler::EventType::kOperator);
    if (in.schema != nullptr) ev.set_op_id(static_cast<int>(in.schema->id));
  }
  switch (in.kind) {
    case Kind::kParam:
      slots[in.outputs[0]].ts = {params[in.index].dense()};
      break;
    case Kind::kData: {
      const DenseTensor& f = feeds[in.index];
      auto t = in.data_type;
      bool ok = f.dtype() == br::from_ir(t.dtype()) && f.rank() == t.rank();
      for (int i = 0; ok && i < f.rank(); ++i) {
        ok = t.shape()[i] == ir::kDynamic || t.shape()[i] == f.dim(i);
      }
      SKIFF_ENFORCE(ok, kInvalidArgument, "executor", str("feed ", in.index),
                    str("a tensor of ", ir::to_string(t)),
                    str(dtype_name(f.dtype()), " ", f.dims()));
      slots[in.outputs[0]].ts = {f};
      break;
    }
    case Kind::kConst:
      slots[in.outputs[0]].ts = {in.constant};
      break;
    case Kind::kCombine: {
      std::vector<DenseTensor> all;
      for (int s : in.inputs) all.insert(all.end(), slots[s].ts.begin(), slots[s].ts.end());
      retain(all);
      slots[in.outputs[0]].ts = std::move(all);
      break;
    }
    case Kind::kSplit: {
      const auto& src = slots[in.inputs[0]].ts;
      SKIFF_ENFORCE(src.size() == in.outputs.size(), kInvalidArgument, "executor", "builtin.split",
                    str(in.outputs.size(), " tensors"), src.size());
      for (size_t j = 0; j < in.outputs.size(); ++j) {
        retain({src[j]});
        slots[in.outputs[j]].ts = {src[j]};
      }
      break;
    }
    case Kind::kOutput:
      results[in.index] = slots[in.inputs[0]].ts.at(0);
      break;
    case Kind::kYield: {
      std::vector<std::vector<DenseTensor>> vals;
      for (int s : in.inputs) vals.push_back(slots[s].ts);
      in.owner->yielded = std::move(vals);
      break;
    }
    case Kind::kIf:
      run_if(in, feeds);
      break;
    case Kind::kWhile:
      run_while(in, feeds);
      break;
    case Kind::kTransfer:
      retain(slots[in.inputs[0]].ts);
      slots[in.outputs[0]].ts = slots[in.inputs[0]].ts;
      break;
    case Kind::kOp: {
      for (size_t k = 0; k < in.inputs.size(); ++k) {
        if (in.inputs[k] < 0) {
          in.boxed.tensors[k].clear();
        } else {
          in.boxed.tensors[k] = slots[in.inputs[k]].ts;
        }
      }
      std::optional<ops::ScopedBackend> scoped;
      if (in.backend) scoped.emplace(*in.backend);
      ops::BoxedOutputs outs;
      try {
        outs = in.fn(*in.schema, in.boxed);
      } catch (const Error& e) {
        if (in.where.empty()) throw;
        ErrorInfo info = e.info();
        info.hint =
            str(info.hint.empty() ? "" : info.hint + "; ", "the op was captured at ", in.where);
        throw Error(std::move(info));
      }
      for (auto& list : in.boxed.tensors) list.clear();  // drop references: frees stay timely
      for (size_t j = 0; j < in.outputs.size(); ++j) {
        retain(outs[j]);
        slots[in.outputs[j]].ts = std::move(outs[j]);
      }
      break;
    }
  }
}

// Releases what `in` was the last user of, and its outputs nobody uses.
void Executor::Impl::finish(const Instr& in) {
  for (int s : in.inputs) {
    // Values from enclosing blocks are released by the cf op that brought them in.
    if (s >= 0 && home[s] == in.owner && remaining[s].fetch_sub(1) == 1) release_slot(s);
  }
  for (int s : in.outputs) {
    if (uses[s] == 0) release_slot(s);
  }
}

void Executor::Impl::set_slot(int s, std::vector<DenseTensor> ts) {
  retain(ts);
  slots[s].ts = std::move(ts);
}

// One run of a block: fresh use counts for its values, its instructions in order, then what is
// left of its values released (block arguments nobody used, results of a run cut short).
void Executor::Impl::run_block(Code& code, const std::vector<DenseTensor>& feeds) {
  for (int s : code.locals) remaining[s] = uses[s];
  for (Instr& in : code.instrs) {
    execute(in, feeds);
    finish(in);
  }
  for (int s : code.locals) {
    if (!slots[s].ts.empty()) release_slot(s);
  }
}

void Executor::Impl::run_if(Instr& in, const std::vector<DenseTensor>& feeds) {
  Code& branch = *in.blocks[truth(slots[in.inputs[0]].ts, "cf.if") ? 0 : 1];
  run_block(branch, feeds);
  for (size_t j = 0; j < in.outputs.size(); ++j) set_slot(in.outputs[j], branch.yielded[j]);
  branch.yielded.clear();
}

void Executor::Impl::run_while(Instr& in, const std::vector<DenseTensor>& feeds) {
  Code& body = *in.blocks[0];
  const size_t n = in.outputs.size();
  std::vector<std::vector<DenseTensor>> state;
  for (size_t k = 0; k < n; ++k) state.push_back(slots[in.inputs[1 + k]].ts);
  bool go = truth(slots[in.inputs[0]].ts, "cf.while");
  while (go) {
    for (size_t k = 0; k < n; ++k) set_slot(body.args[k], std::move(state[k]));
    run_block(body, feeds);
    go = truth(body.yielded[0], "cf.while");
    for (size_t k = 0; k < n; ++k) state[k] = std::move(body.yielded[1 + k]);
    body.yielded.clear();
  }
  for (size_t k = 0; k < n; ++k) set_slot(in.outputs[k], std::move(state[k]));
}

void Executor::Impl::run_sequential(const std::vector<DenseTensor>& feeds) {
  for (Instr& in : top.instrs) {
    execute(in, feeds);
    finish(in);
  }
}

void Executor::Impl::run_parallel(const std::vector<DenseTensor>& feeds) {
  std::vector<Instr>& instrs = top.instrs;
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
      Instr& in = instrs[i];
      try {
        execute(in, feeds);
        finish(in);
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
}

Executor::~Executor() = default;

std::vector<DenseTensor> Executor::run(const std::vector<DenseTensor>& feeds, bool write_updates) {
  Impl& m = *impl_;
  SKIFF_ENFORCE(feeds.size() == m.num_feeds, kInvalidArgument, "executor", "feeds",
                str(m.num_feeds, " tensors (one per program input)"), feeds.size());
  m.slots.assign(m.num_slots, Slot{});
  m.remaining.reset(new std::atomic<int>[m.num_slots]);
  for (size_t s = 0; s < m.num_slots; ++s) m.remaining[s] = m.uses[s];
  m.results.assign(m.num_outputs, DenseTensor());
  m.live.reset(m.num_slots + m.params.size() + feeds.size());
  auto not_owned = [&](const DenseTensor& t) {
    if (t.storage()) m.live.at(t.storage().get()) = -1;
  };
  for (const DenseTensor& f : feeds) not_owned(f);
  for (const Tensor& p : m.params) not_owned(p.dense());
  std::vector<const Code*> codes{&m.top};
  while (!codes.empty()) {
    const Code* c = codes.back();
    codes.pop_back();
    for (const Instr& in : c->instrs) {
      if (in.kind == Kind::kConst) not_owned(in.constant);
      for (const auto& sub : in.blocks) codes.push_back(sub.get());
    }
  }
  m.live_bytes = m.peak = 0;
  if (m.options.parallel) {
    m.run_parallel(feeds);
  } else {
    m.run_sequential(feeds);
  }
  m.slots.clear();
  if (write_updates) this->write_updates(m.results);
  return std::move(m.results);
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
int64_t Executor::measured_peak_bytes() const { return impl_->peak; }

}  // namespace skiff::executor
