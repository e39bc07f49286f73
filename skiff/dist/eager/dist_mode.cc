// Rules are looked up by op name from a small table (matmul, elementwise add/subtract/multiply/
// divide/maximum/minimum, unary activations, sum) until the generator carries each record's
// `spmd_rule` into OpSchema with a boxed adapter; every other op falls back to replicate-all
// with a one-time warning naming it. A dense input of a dist op is taken as replicated on the
// op's mesh (every rank holds the same value, as for grad-engine zeros and constants).
#include "skiff/dist/eager/dist_mode.h"

#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "skiff/base/error.h"
#include "skiff/dist/dist_tensor.h"
#include "skiff/dist/reshard/reshard.h"
#include "skiff/dist/spmd/rules.h"
#include "skiff/ops/dispatch/mode.h"
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

const std::set<std::string>& unary_ops() {
  static const std::set<std::string> ops = {"relu", "gelu", "tanh", "sigmoid", "exp", "neg",
                                            "abs", "silu", "square", "sqrt", "log"};
  return ops;
}

const std::set<std::string>& binary_ops() {
  static const std::set<std::string> ops = {"add", "subtract", "multiply", "divide", "maximum",
                                            "minimum"};
  return ops;
}

template <typename T>
T attr_or(const Attrs& attrs, const char* name, T fallback) {
  auto it = attrs.find(name);
  if (it == attrs.end()) return fallback;
  const T* v = std::get_if<T>(&it->second);
  return v ? *v : fallback;
}

// The rule for `name` on `specs` (one per defined tensor input), or replicate-all.
SpmdInfo infer(const std::string& name, const std::vector<DistTensorSpec>& specs,
               const Attrs& attrs, size_t n_outputs, int64_t out_ndim_hint) {
  if (unary_ops().count(name) && specs.size() == 1) return spmd::elementwise_unary_spmd(specs[0]);
  if (binary_ops().count(name) && specs.size() == 2) {
    return spmd::elementwise_binary_spmd(specs[0], specs[1]);
  }
  if (name == "matmul" && specs.size() == 2) {
    return spmd::matmul_spmd(specs[0], specs[1], attr_or(attrs, "transpose_x", false),
                             attr_or(attrs, "transpose_y", false));
  }
  if (name == "sum" && specs.size() == 1) {
    return spmd::reduction_spmd(specs[0], attr_or(attrs, "axis", std::vector<int64_t>{}),
                                attr_or(attrs, "keepdim", false));
  }
  static std::mutex mu;
  static std::set<std::string> warned;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (warned.insert(name).second) {
      std::cerr << "skiff: warning: op '" << name
                << "' has no SPMD rule in the eager distributed mode; its inputs are replicated"
                << " (all-gathered) on every rank\n";
    }
  }
  return spmd::replicated_spmd(specs, std::vector<int64_t>(n_outputs, out_ndim_hint));
}

// Cache key: op, then per input its dims_mapping, partial axes and global shape.
using Key = std::pair<std::string, std::vector<std::vector<int64_t>>>;
std::mutex g_cache_mu;
std::map<Key, SpmdInfo> g_cache;

Key key_of(const std::string& name, const std::vector<DistTensorSpec>& specs, const Attrs& attrs) {
  Key k{name, {}};
  for (const auto& s : specs) {
    k.second.push_back(s.shape);
    k.second.push_back(s.dist_attr.dims_mapping());
    k.second.push_back(s.dist_attr.partial_axes());
    std::vector<int64_t> types;
    for (const auto& [axis, t] : s.dist_attr.partial_status()) types.push_back(static_cast<int64_t>(t));
    k.second.push_back(types);
  }
  for (const auto& [n, v] : attrs) k.first += "|" + n + "=" + ops::attr_to_string(v);
  return k;
}

// The global size of each output dim: a sharded dim takes the size of the input dim that the
// rule shards on the same mesh axis (rules shard one letter per mesh axis).
std::vector<int64_t> global_shape(const DenseTensor& local, const DistAttr& out,
                                  const std::vector<DistTensorSpec>& in_specs,
                                  const std::vector<DistAttr>& in_attrs) {
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
      SKIFF_ENFORCE(d->process_mesh() == mesh, kUnimplemented, name, "inputs",
                    str("every input on the mesh ", mesh.to_string()),
                    str("an input on ", d->process_mesh().to_string()));
      specs.push_back({t.shape(), d->dist_attr()});
    }
  }
  size_t n_outputs = call.schema().outputs.size();
  SpmdInfo info;
  {
    Key k = key_of(name, specs, attrs);
    std::lock_guard<std::mutex> lock(g_cache_mu);
    auto it = g_cache.find(k);
    if (it == g_cache.end()) {
      it = g_cache.emplace(k, infer(name, specs, attrs, n_outputs,
                                    specs.empty() ? 0 : specs[0].ndim())).first;
    }
    info = it->second;
  }
  // Reshard the inputs and run the dense op on the local values.
  TensorLists local = dist_inputs;
  size_t i = 0;
  for (auto& list : local) {
    for (auto& t : list) {
      if (!t.defined()) continue;
      Tensor r = reshard(t, info.inputs[i++], ctx.get());
      t = Tensor(as_dist(r)->local_value());
    }
  }
  TensorLists outs;
  {
    autograd::NoGradGuard no_grad;
    outs = call_op(name, local, attrs);
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
      auto shape = global_shape(value, attr, specs, info.inputs);
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
    SKIFF_ENFORCE(!call.inplace(), kUnimplemented, call.name(), "inputs",
                  "an out-of-place op on distributed tensors", "an in-place call");
    call.replace_kernel(&dist_kernel, nullptr);
    next(call);
  }
};

DistMode g_mode;

// A new DistTensor impl over the same local value, without autograd state.
Tensor detach_dist(const Tensor& t) { return Tensor(std::make_shared<DistTensor>(*as_dist(t))); }

}  // namespace

void enable_dist_mode() {
  static std::once_flag once;
  std::call_once(once, [] {
    autograd::set_detach_for_kind(TensorKind::kDist, &detach_dist);
    dispatch::enable_everywhere(g_mode);
  });
}

int64_t dist_mode_cache_size() {
  std::lock_guard<std::mutex> lock(g_cache_mu);
  return static_cast<int64_t>(g_cache.size());
}

}  // namespace skiff::dist
