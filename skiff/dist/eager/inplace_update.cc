#include "skiff/dist/eager/inplace_update.h"

#include <set>
#include <string>

#include "skiff/base/error.h"
#include "skiff/dist/dist_tensor.h"
#include "skiff/dist/reshard/reshard.h"
#include "skiff/ops/inplace.h"
#include "skiff/runtime/eager/call_op.h"
#include "skiff/runtime/eager/grad_mode.h"

namespace skiff::dist {

namespace {

using dispatch::OpCall;
using dispatch::TensorLists;
using spmd::DistAttr;

int64_t sharded_dims(const DistAttr& a) {
  int64_t n = 0;
  for (int64_t m : a.dims_mapping()) n += m != spmd::kReplicated;
  return n;
}

struct ArgInfo {
  std::string name;
  bool is_list = false;
  bool written = false;
};

std::vector<ArgInfo> tensor_args(const OpCall& call) {
  std::set<std::string> written;
  if (const ops::InplaceInfo* info = ops::inplace_info(call.id())) {
    for (const auto& [in, out] : info->pairs) written.insert(in);
  }
  std::vector<ArgInfo> args;
  for (const auto& a : call.schema().args) {
    if (!ops::is_tensor_kind(a.kind)) continue;
    args.push_back({a.name, a.kind == ops::ArgKind::kTensorList, written.count(a.name) > 0});
  }
  return args;
}

// The layout element i of every list runs in: the most sharded written tensor's (no partial).
std::vector<DistAttr> update_layouts(const OpCall& call, const TensorLists& in,
                                     const std::vector<ArgInfo>& args) {
  std::vector<DistAttr> layouts;
  std::vector<int64_t> best;
  for (size_t k = 0; k < args.size(); ++k) {
    if (!args[k].is_list || !args[k].written) continue;
    for (size_t i = 0; i < in[k].size(); ++i) {
      const DistTensor* d = as_dist(in[k][i]);
      SKIFF_ENFORCE(d != nullptr, kUnimplemented, call.name(), args[k].name,
                    "distributed tensors in every written list (all parameters and states "
                    "distributed, or none)",
                    str("a dense tensor at position ", i));
      if (layouts.size() <= i) {
        layouts.resize(i + 1);
        best.resize(i + 1, -1);
      }
      DistAttr a(d->process_mesh(), d->dist_attr().dims_mapping());
      if (sharded_dims(a) > best[i]) {
        layouts[i] = a;
        best[i] = sharded_dims(a);
      }
    }
  }
  return layouts;
}

}  // namespace

bool is_inplace_update(const OpCall& call) {
  if (!call.inplace() || call.schema().differentiable) return false;
  for (const auto& a : call.schema().args) {
    if (a.kind == ops::ArgKind::kTensorList) return true;
  }
  return false;
}

void inplace_update_kernel(OpCall& call, void*) {
  const TensorLists& in = call.inputs();
  const auto args = tensor_args(call);
  const auto layouts = update_layouts(call, in, args);
  auto ctx = CommContext::global();
  TensorLists local(in.size());
  std::vector<std::pair<Tensor, Tensor>> write_back;  // (the caller's tensor, its resharded copy)
  for (size_t k = 0; k < in.size(); ++k) {
    for (size_t i = 0; i < in[k].size(); ++i) {
      const Tensor& t = in[k][i];
      const DistTensor* d = as_dist(t);
      if (!t.defined() || d == nullptr) {  // a dense scalar (learning rate, step) as it is
        local[k].push_back(t);
        continue;
      }
      DistAttr want = args[k].is_list && i < layouts.size()
                          ? layouts[i]
                          : DistAttr::replicated(d->process_mesh(), d->dims().size());
      if (d->dist_attr() == want) {  // the local value itself: the kernel writes into it
        local[k].push_back(Tensor(d->local_value()));
        continue;
      }
      SKIFF_ENFORCE(want.ndim() == d->dims().size(), kInvalidArgument, call.name(), args[k].name,
                    str("a tensor of ", want.ndim(), " dims at position ", i,
                        " (as the "
                        "parameter)"),
                    d->dims().size());
      Tensor r = reshard(t, want, ctx.get());
      local[k].push_back(Tensor(as_dist(r)->local_value()));
      if (args[k].written) write_back.emplace_back(t, r);
    }
  }
  {
    autograd::NoGradGuard no_grad;
    call_op(call.name(), local, call.attrs());
  }
  for (const auto& [t, r] : write_back) {
    Tensor back = reshard(r, as_dist(t)->dist_attr(), ctx.get());
    DenseTensor dst = as_dist(t)->local_value();
    dst.copy_from(as_dist(back)->local_value());
  }
  // The outputs are the written inputs, per the record's (input -> output) pairs.
  TensorLists outs;
  const ops::InplaceInfo* info = ops::inplace_info(call.id());
  for (const auto& [in_name, out_name] : info->pairs) {
    for (size_t k = 0; k < args.size(); ++k) {
      if (args[k].name == in_name) outs.push_back(in[k]);
    }
  }
  call.set_outputs(std::move(outs));
}

}  // namespace skiff::dist
