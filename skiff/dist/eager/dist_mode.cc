// The rule comes from rule_table.h (by op name); an op without one falls back to replicate-all
// with a one-time warning naming it. A dense input of a dist op is taken as replicated on the
// op's mesh (every rank holds the same value, as for grad-engine seeds and constants). Partial
// inputs pass through ops linear in them (Note [Partial through linear ops] in rule_table.h);
// reduce_as and linear run as compositions of table ops, so their backward and forward keep
// sharding too. A dist leaf's accumulated gradient is resharded to the leaf's layout (its
// pending reductions bucketed at the end of backward: grad_buckets.h). Optimizer
// updates (in-place, with tensor lists) run through inplace_update.h.
#include "skiff/dist/eager/dist_mode.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "skiff/base/error.h"
#include "skiff/dist/dist_tensor.h"
#include "skiff/dist/eager/grad_buckets.h"
#include "skiff/dist/eager/inplace_update.h"
#include "skiff/dist/eager/rule_table.h"
#include "skiff/dist/reshard/reshard.h"
#include "skiff/dist/shard_layout.h"
#include "skiff/dist/spmd/rules.h"
#include "skiff/ops/dispatch/mode.h"
#include "skiff/ops/grad/vjp_helpers.h"
#include "skiff/runtime/eager/call_op.h"
#include "skiff/runtime/eager/detach_hook.h"
#include "skiff/runtime/eager/grad_mode.h"

namespace skiff::dist {

namespace {

using dispatch::Attrs;
using dispatch::OpCall;
using dispatch::TensorLists;
using spmd::DistAttr;
using spmd::DistTensorSpec;
using spmd::SpmdInfo;

void warn_fallback(const std::string& name) {
  static std::mutex mu;
  static std::set<std::string> warned;
  std::lock_guard<std::mutex> lock(mu);
  if (warned.insert(name).second) {
    std::cerr << "skiff: warning: op '" << name
              << "' has no SPMD rule in the eager distributed mode; its inputs are replicated"
              << " (all-gathered) on every rank\n";
  }
}

bool linear_partial(ReduceType t) { return t == ReduceType::kRedSum || t == ReduceType::kRedAvg; }

// True when `info` (inferred on the inputs without their partial status) may keep the Partial
// inputs of `specs` unreduced: the op is linear in them and no layout uses their mesh axes.
bool partial_passes(const std::optional<Linearity>& lin, const std::vector<DistTensorSpec>& specs,
                    const SpmdInfo& info) {
  if (!lin) return false;
  std::vector<size_t> partial;
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].dist_attr.is_partial()) partial.push_back(i);
  }
  const auto& status = specs[partial.front()].dist_attr.partial_status();
  for (const auto& [axis, type] : status) {
    if (!linear_partial(type)) return false;
  }
  if (lin->together) {
    if (partial.size() != specs.size()) return false;
    for (size_t i : partial) {
      if (specs[i].dist_attr.partial_status() != status) return false;
    }
  } else if (partial.size() != 1 ||
             std::find(lin->args.begin(), lin->args.end(), partial[0]) == lin->args.end()) {
    return false;
  }
  auto uses_axis = [&](const DistAttr& a) {
    for (int64_t m : a.dims_mapping()) {
      if (status.count(m)) return true;
    }
    return a.is_partial();
  };
  for (const auto& a : info.inputs) {
    if (uses_axis(a)) return false;
  }
  for (const auto& a : info.outputs) {
    if (uses_axis(a)) return false;
  }
  return true;
}

// The layouts op `name` runs with: the table's rule (Partial kept through linear ops), the
// shape-only layout, or replicate-all.
SpmdInfo infer(const std::string& name, const std::vector<DistTensorSpec>& specs,
               const Attrs& attrs, size_t n_outputs, int64_t out_ndim_hint) {
  if (shape_only(name) && specs.size() == 1) {  // only x's shape is read: x is left as it is
    const DistAttr& x = specs[0].dist_attr;
    return {{x}, {DistAttr(x.process_mesh(), x.dims_mapping())}};
  }
  std::vector<DistTensorSpec> plain = specs;
  for (auto& s : plain) s.dist_attr.clear_partial();
  std::optional<SpmdInfo> rule = table_rule(name, plain, attrs);
  if (!rule) {
    warn_fallback(name);
    return spmd::replicated_spmd(specs, std::vector<int64_t>(n_outputs, out_ndim_hint));
  }
  bool any_partial = false;
  for (const auto& s : specs) any_partial = any_partial || s.dist_attr.is_partial();
  if (!any_partial || !partial_passes(linearity(name, attrs, specs.size()), specs, *rule)) {
    return *rule;  // Partial inputs are reduced by the reshard to the rule's layouts
  }
  std::map<int64_t, ReduceType> status;
  for (size_t i = 0; i < specs.size(); ++i) {
    for (const auto& [axis, type] : specs[i].dist_attr.partial_status()) {
      rule->inputs[i].set_partial(axis, type);
      status[axis] = type;
    }
  }
  for (auto& out : rule->outputs) {
    for (const auto& [axis, type] : status) out.set_partial(axis, type);
  }
  return *rule;
}

// SKIFF_DIST_LOG=1: one stderr line per dist op with its input layouts, the layouts the rule
// reshards them to (marked "->" where they differ) and the output layouts.
bool log_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("SKIFF_DIST_LOG");
    return v != nullptr && *v != '\0' && std::string(v) != "0";
  }();
  return on;
}

void log_op(const std::string& name, const std::vector<DistTensorSpec>& specs,
            const SpmdInfo& info) {
  std::string line = "skiff dist: " + name + " (";
  for (size_t i = 0; i < specs.size(); ++i) {
    line += (i ? ", " : "") + specs[i].dist_attr.to_string();
    if (i < info.inputs.size() && !(info.inputs[i] == specs[i].dist_attr)) {
      line += " -> " + info.inputs[i].to_string();
    }
  }
  line += ") = (";
  for (size_t o = 0; o < info.outputs.size(); ++o) {
    line += (o ? ", " : "") + info.outputs[o].to_string();
  }
  std::cerr << line + ")\n";
}

// Cache key: op and mesh, then per input its dims_mapping, partial axes and global shape (the
// cached layouts name the mesh, so two meshes of the same ranks must not share an entry).
using Key = std::pair<std::string, std::vector<std::vector<int64_t>>>;
std::mutex g_cache_mu;
std::map<Key, SpmdInfo> g_cache;

Key key_of(const std::string& name, const std::vector<DistTensorSpec>& specs, const Attrs& attrs) {
  Key k{name, {}};
  if (!specs.empty()) {  // the mesh by its parts (to_string per op call costs more)
    const ProcessMesh& mesh = specs[0].process_mesh();
    k.second.push_back(mesh.shape());
    k.second.push_back(mesh.process_ids());
    for (const auto& dim : mesh.dim_names()) k.first += "|" + dim;
  }
  for (const auto& s : specs) {
    k.second.push_back(s.shape);
    k.second.push_back(s.dist_attr.dims_mapping());
    k.second.push_back(s.dist_attr.partial_axes());
    std::vector<int64_t> types;
    for (const auto& [axis, t] : s.dist_attr.partial_status())
      types.push_back(static_cast<int64_t>(t));
    k.second.push_back(types);
  }
  for (const auto& [n, v] : attrs) k.first += "|" + n + "=" + ops::attr_to_string(v);
  return k;
}

// The global shape an op with a `shape` attribute gives (reshape: 0 copies x's dim, one -1 is
// inferred; broadcast_to/expand: right-aligned, -1 keeps x's size); empty for other ops.
std::vector<int64_t> shape_from_attr(const std::string& name, const Attrs& attrs,
                                     const std::vector<int64_t>& x) {
  auto it = attrs.find("shape");
  const auto* attr = it == attrs.end() ? nullptr : std::get_if<std::vector<int64_t>>(&it->second);
  if (attr == nullptr) return {};
  std::vector<int64_t> shape = *attr;
  if (name == "reshape") {
    int64_t numel = 1, known = 1;
    for (int64_t d : x) numel *= d;
    int64_t infer = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] == 0 && i < x.size()) shape[i] = x[i];
      if (shape[i] == -1) {
        infer = static_cast<int64_t>(i);
      } else {
        known *= shape[i];
      }
    }
    if (infer >= 0 && known > 0) shape[static_cast<size_t>(infer)] = numel / known;
    return shape;
  }
  if (name == "broadcast_to" || name == "expand") {
    const size_t lead = shape.size() - std::min(shape.size(), x.size());
    for (size_t i = lead; i < shape.size(); ++i) {
      if (shape[i] == -1) shape[i] = x[i - lead];
    }
    return shape;
  }
  return {};
}

// The global size of each output dim: a sharded dim takes the size of the input dim that the
// rule shards on the same mesh axis (rules shard one letter per mesh axis); ops with a shape
// attribute give it directly (a merged, sharded dim is not an input dim).
std::vector<int64_t> global_shape(const std::string& name, const Attrs& attrs,
                                  const DenseTensor& local, const DistAttr& out,
                                  const std::vector<DistTensorSpec>& in_specs,
                                  const std::vector<DistAttr>& in_attrs) {
  if (!in_specs.empty()) {
    auto from_attr = shape_from_attr(name, attrs, in_specs[0].shape);
    if (static_cast<int64_t>(from_attr.size()) == local.rank()) return from_attr;
  }
  auto shape = local.dims().to_vector();
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t axis = out.dims_mapping()[d];
    if (axis == spmd::kReplicated) continue;
    for (size_t i = 0; i < in_attrs.size(); ++i) {
      const auto& m = in_attrs[i].dims_mapping();
      for (size_t j = 0; j < m.size(); ++j) {
        if (m[j] == axis) shape[d] = in_specs[i].shape[j];
      }
    }
  }
  return shape;
}

// One op on DistTensors from inside the mode (it re-enters the mode), below autograd.
Tensor dist_op(const char* name, const TensorLists& inputs, const Attrs& attrs) {
  autograd::NoGradGuard no_grad;
  return call_op(name, inputs, attrs)[0][0];
}

// reduce_as(x, target) as sums over x's leading dims and the dims target has as 1, so a
// sharded reduced dim gives Partial (the bias gradient of a dp-sharded batch) and target,
// whose values are not read, is never resharded.
Tensor reduce_as_composed(const Tensor& x, const Tensor& target) {
  const auto xs = x.shape(), ts = target.shape();
  const int64_t lead = static_cast<int64_t>(xs.size()) - static_cast<int64_t>(ts.size());
  Tensor out = x;
  std::vector<int64_t> axes;
  for (int64_t i = 0; i < lead; ++i) axes.push_back(i);
  if (!axes.empty()) {
    out = dist_op("sum", {{out}}, {{"axis", axes}, {"keepdim", false}, {"dtype", x.dtype()}});
  }
  axes.clear();
  for (size_t i = 0; i < ts.size(); ++i) {
    if (ts[i] == 1 && xs[lead + static_cast<int64_t>(i)] != 1)
      axes.push_back(static_cast<int64_t>(i));
  }
  if (!axes.empty()) {
    out = dist_op("sum", {{out}}, {{"axis", axes}, {"keepdim", true}, {"dtype", x.dtype()}});
  }
  // The output must be a new handle even when nothing is reduced (autograd records on it).
  return out.impl() == x.impl() ? Tensor(std::make_shared<DistTensor>(*as_dist(x))) : out;
}

// The ops the mode runs as compositions of table ops; false for the others.
bool run_composed(OpCall& call, const std::string& name, const TensorLists& in) {
  if (name == "reduce_as" && in.size() == 2) {
    call.set_outputs({{reduce_as_composed(in[0][0], in[1][0])}});
    return true;
  }
  if (name == "linear" && in.size() == 3) {  // x @ weight + bias
    Tensor out = dist_op("matmul", {{in[0][0]}, {in[1][0]}},
                         {{"transpose_x", false}, {"transpose_y", false}});
    if (!in[2].empty() && in[2][0].defined()) out = dist_op("add", {{out}, {in[2][0]}}, {});
    call.set_outputs({{out}});
    return true;
  }
  return false;
}

void dist_kernel(OpCall& call, void*) {
  const TensorLists& inputs = call.inputs();
  const Attrs& attrs = call.attrs();
  std::string name(call.name());
  const DistTensor* first = nullptr;
  for (const auto& list : inputs) {
    for (const auto& t : list) {
      if (!first) first = as_dist(t);
    }
  }
  const ProcessMesh& mesh = first->process_mesh();
  int64_t rank = first->rank();
  auto ctx = CommContext::global();
  // Every defined input as a DistTensor on the mesh.
  TensorLists dist_inputs = inputs;
  std::vector<DistTensorSpec> specs;
  for (auto& list : dist_inputs) {
    for (auto& t : list) {
      if (!t.defined()) continue;
      if (!as_dist(t)) {
        SKIFF_ENFORCE(t.is_dense(), kInvalidArgument, name, "inputs",
                      "distributed or dense tensors", "a symbolic tensor");
        t = shard_dense(name.c_str(), t.dense().contiguous(), mesh,
                        std::vector<Placement>(mesh.ndim(), Placement::replicate()), rank);
      }
      const DistTensor* d = as_dist(t);
      if (d->dist_attr().is_partial()) {  // reduced once already: use that (Note [Partial
        // reductions are memoized], dist_tensor.h), so a later reader reduces nothing again
        DistAttr plain(d->process_mesh(), d->dist_attr().dims_mapping());
        if (auto memo = d->reduced(plain)) {
          t = Tensor(std::make_shared<DistTensor>(d->dims(), plain, *memo, d->rank()));
          d = as_dist(t);
        }
      }
      SKIFF_ENFORCE(d->process_mesh() == mesh, kUnimplemented, name, "inputs",
                    str("every input on the mesh ", mesh.to_string()),
                    str("an input on ", d->process_mesh().to_string()));
      specs.push_back({t.shape(), d->dist_attr()});
    }
  }
  if (run_composed(call, name, dist_inputs)) return;
  size_t n_outputs = call.schema().outputs.size();
  const SpmdInfo* cached = nullptr;  // entries are never erased, so the pointer stays valid
  {
    Key k = key_of(name, specs, attrs);
    std::lock_guard<std::mutex> lock(g_cache_mu);
    auto it = g_cache.find(k);
    if (it == g_cache.end()) {
      it = g_cache
               .emplace(std::move(k),
                        infer(name, specs, attrs, n_outputs, specs.empty() ? 0 : specs[0].ndim()))
               .first;
    }
    cached = &it->second;
  }
  const SpmdInfo& info = *cached;
  if (log_enabled()) log_op(name, specs, info);
  // Reshard the inputs and run the dense op on the local values.
  TensorLists local = dist_inputs;
  size_t i = 0;
  for (auto& list : local) {
    for (auto& t : list) {
      if (!t.defined()) continue;
      const DistAttr& want = info.inputs[i++];
      const DistTensor* d = as_dist(t);
      // Most inputs already have the rule's layout: take the local value without a reshard.
      t = Tensor(d->dist_attr() == want ? d->local_value()
                                        : as_dist(reshard(t, want, ctx.get()))->local_value());
    }
  }
  // A shape attribute is global: the local op gets this process's piece of it.
  Attrs local_attrs = attrs;
  if (first->in_mesh() && !specs.empty() && !info.outputs.empty()) {
    auto global = shape_from_attr(name, attrs, specs[0].shape);
    if (!global.empty() && info.outputs[0].ndim() == static_cast<int64_t>(global.size())) {
      local_attrs["shape"] = local_shape(global, info.outputs[0], mesh.coord(rank));
    }
  }
  TensorLists outs;
  {
    autograd::NoGradGuard no_grad;
    outs = call_op(name, local, local_attrs);
  }
  size_t o = 0;
  for (auto& list : outs) {
    for (auto& t : list) {
      if (!t.defined() || o >= info.outputs.size()) continue;
      const DistAttr& attr = info.outputs[o++];
      const DenseTensor& value = t.dense();
      if (attr.ndim() != value.rank()) {  // a fallback rule guessed the rank: all replicated
        DistAttr rep = DistAttr::replicated(mesh, value.rank());
        t = Tensor(std::make_shared<DistTensor>(value.dims(), rep, value, rank));
        continue;
      }
      auto shape = global_shape(name, attrs, value, attr, specs, info.inputs);
      t = Tensor(std::make_shared<DistTensor>(Dims(shape), attr, value, rank));
    }
  }
  call.set_outputs(std::move(outs));
}

class DistMode final : public dispatch::Mode {
 public:
  std::string_view name() const override { return "distributed"; }
  int order() const override { return dispatch::order::kDistributed; }

  void handle(OpCall& call, const dispatch::Next& next) override {
    bool any = false;
    for (const auto& list : call.inputs()) {
      for (const auto& t : list) any = any || as_dist(t) != nullptr;
    }
    if (!any) return next(call);
    if (is_inplace_update(call)) {
      call.replace_kernel(&inplace_update_kernel, nullptr);
      return next(call);
    }
    SKIFF_ENFORCE(!call.inplace(), kUnimplemented, call.name(), "inputs",
                  "an out-of-place op on distributed tensors", "an in-place call");
    call.replace_kernel(&dist_kernel, nullptr);
    next(call);
  }
};

DistMode g_mode;

// A new DistTensor impl over the same local value, without autograd state.
Tensor detach_dist(const Tensor& t) { return Tensor(std::make_shared<DistTensor>(*as_dist(t))); }

// The gradient a dist leaf keeps: laid out as the leaf (a Partial gradient of a replicated
// parameter is all-reduced, as Paddle does) or as its grad_dist_attr, a dense one taken as
// replicated first.
Tensor leaf_grad_dist(const Tensor& leaf, const Tensor& grad) {
  const DistTensor* l = as_dist(leaf);
  Tensor g = grad;
  if (!as_dist(g)) {
    if (!g.is_dense()) return grad;
    g = shard_dense("backward", g.dense().contiguous(), l->process_mesh(),
                    std::vector<Placement>(l->process_mesh().ndim(), Placement::replicate()),
                    l->rank());
  }
  DistAttr want = l->grad_dist_attr() != nullptr
                      ? *l->grad_dist_attr()
                      : DistAttr(l->process_mesh(), l->dist_attr().dims_mapping());
  if (as_dist(g)->dist_attr() == want) return g;
  if (can_defer_leaf_reduction(g, want)) {  // Note [Leaf gradients are reduced in buckets]
    defer_leaf_reduction(leaf, g, want);
    return g;
  }
  auto ctx = CommContext::global();
  return reshard(g, want, ctx.get());
}

// The version of the local value's memory (0 for the empty value of a process outside the mesh).
uint32_t dist_data_version(const Tensor& t) {
  const DenseTensor& local = as_dist(t)->local_value();
  return local.storage() ? local.storage()->version() : 0;
}

// linear_weight_grad's row order (vjp_helpers.h): the leading dims sharded on some mesh axis
// first, in order, then the others.
std::vector<int64_t> sharded_dims_first(const Tensor& x) {
  const auto& m = as_dist(x)->dist_attr().dims_mapping();
  std::vector<int64_t> order;
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t d = 0; d + 1 < m.size(); ++d) {
      if ((m[d] != spmd::kReplicated) == (pass == 0)) order.push_back(static_cast<int64_t>(d));
    }
  }
  return order;
}

}  // namespace

void enable_dist_mode() {
  static std::once_flag once;
  std::call_once(once, [] {
    set_flatten_order_for_kind(TensorKind::kDist, &sharded_dims_first);
    autograd::set_detach_for_kind(TensorKind::kDist, &detach_dist);
    autograd::set_leaf_grad_for_kind(TensorKind::kDist, &leaf_grad_dist);
    autograd::set_data_version_for_kind(TensorKind::kDist, &dist_data_version);
    dispatch::enable_everywhere(g_mode);
  });
}

int64_t dist_mode_cache_size() {
  std::lock_guard<std::mutex> lock(g_cache_mu);
  return static_cast<int64_t>(g_cache.size());
}

}  // namespace skiff::dist
