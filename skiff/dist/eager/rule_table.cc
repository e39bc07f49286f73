#include "skiff/dist/eager/rule_table.h"

#include <set>

#include "skiff/base/error.h"
#include "skiff/dist/spmd/rules.h"

namespace skiff::dist {

namespace {

using dispatch::Attrs;
using spmd::DistTensorSpec;
using spmd::SpmdInfo;

const std::set<std::string>& unary_ops() {
  static const std::set<std::string> ops = {
      "relu", "gelu",  "tanh", "sigmoid", "exp",  "neg",   "abs", "silu",   "square", "sqrt",
      "log",  "rsqrt", "sin",  "cos",     "cast", "scale", "pow", "assign", "clone"};
  return ops;
}

const std::set<std::string>& binary_ops() {
  static const std::set<std::string> ops = {
      "add",           "subtract",   "multiply",        "divide",       "maximum",
      "minimum",       "relu_grad",  "elementwise_pow", "greater_than", "less_than",
      "greater_equal", "less_equal", "equal",           "not_equal"};
  return ops;
}

template <typename T>
T attr_or(const Attrs& attrs, const char* name, T fallback) {
  auto it = attrs.find(name);
  if (it == attrs.end()) return fallback;
  const T* v = std::get_if<T>(&it->second);
  return v ? *v : fallback;
}

std::vector<int64_t> axes_of(const Attrs& attrs) {
  return attr_or(attrs, "axis", std::vector<int64_t>{});
}

// The rules of ops that move, cut or normalize along axes (RoPE's slice/concat or roll,
// rms_norm and the split/pad their backward passes call).
std::optional<SpmdInfo> shape_rule(const std::string& name,
                                   const std::vector<DistTensorSpec>& specs, const Attrs& attrs) {
  const size_t n = specs.size();
  const int64_t axis = attr_or(attrs, "axis", int64_t{0});
  if (name == "slice" && n == 1) {
    return spmd::slice_spmd(specs[0], attr_or(attrs, "axes", std::vector<int64_t>{}),
                            attr_or(attrs, "decrease_axis", std::vector<int64_t>{}));
  }
  if (name == "concat" && n >= 1) return spmd::concat_spmd(specs, axis);
  if (name == "split" && n == 1) {
    const auto sections = attr_or(attrs, "sections", std::vector<int64_t>{});
    return spmd::split_spmd(specs[0], static_cast<int64_t>(sections.size()), axis);
  }
  if (name == "split_with_num" && n == 1) {
    return spmd::split_spmd(specs[0], attr_or(attrs, "num", int64_t{1}), axis);
  }
  if (name == "pad" && n == 1) {
    return spmd::pad_spmd(specs[0], attr_or(attrs, "paddings", std::vector<int64_t>{}));
  }
  if (name == "rms_norm" && (n == 1 || n == 2)) {
    return spmd::rms_norm_spmd(specs[0], n == 2 ? &specs[1] : nullptr,
                               static_cast<float>(attr_or(attrs, "epsilon", 1e-6)),
                               attr_or(attrs, "begin_norm_axis", int64_t{-1}));
  }
  if (name == "roll" && n == 1) {
    return spmd::roll_spmd(specs[0], attr_or(attrs, "shifts", std::vector<int64_t>{}),
                           attr_or(attrs, "axis", std::vector<int64_t>{}));
  }
  return std::nullopt;
}

// unsqueeze and squeeze as the reshape to their output shape (Paddle's axis semantics:
// unsqueeze inserts each axis into the shape grown so far; squeeze without axes drops every
// size-1 dim).
std::vector<int64_t> squeezed_shape(const std::string& name, std::vector<int64_t> shape,
                                    const std::vector<int64_t>& axis) {
  if (name == "unsqueeze") {
    for (int64_t a : axis) {
      const int64_t rank = static_cast<int64_t>(shape.size()) + 1;
      const int64_t at = a < 0 ? a + rank : a;
      SKIFF_ENFORCE(at >= 0 && at < rank, kInvalidArgument, name, "axis",
                    str("axes in [", -rank, ", ", rank, ")"), axis);
      shape.insert(shape.begin() + at, 1);
    }
    return shape;
  }
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<bool> drop(shape.size(), axis.empty());
  for (int64_t a : axis) {
    const int64_t at = a < 0 ? a + rank : a;
    if (at >= 0 && at < rank) drop[static_cast<size_t>(at)] = true;
  }
  std::vector<int64_t> out;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!(drop[d] && shape[d] == 1)) out.push_back(shape[d]);
  }
  return out;
}

// The rules of neural-network and indexing ops (the example Llama's embedding, attention and
// loss, and the ops of their backward).
std::optional<SpmdInfo> nn_rule(const std::string& name, const std::vector<DistTensorSpec>& specs,
                                const Attrs& attrs) {
  const size_t n = specs.size();
  if ((name == "unsqueeze" || name == "squeeze") && n == 1) {
    return spmd::reshape_spmd(
        specs[0],
        squeezed_shape(name, specs[0].shape, attr_or(attrs, "axis", std::vector<int64_t>{})));
  }
  if (name == "embedding" && n == 2) {
    return spmd::embedding_spmd(specs[0], specs[1], attr_or(attrs, "padding_idx", int64_t{-1}));
  }
  if (name == "cross_entropy_with_softmax" && n == 2) {
    return spmd::cross_entropy_with_softmax_spmd(
        specs[0], specs[1], attr_or(attrs, "soft_label", false),
        attr_or(attrs, "use_softmax", true), attr_or(attrs, "numeric_stable_mode", true),
        attr_or(attrs, "ignore_index", int64_t{-100}), attr_or(attrs, "axis", int64_t{-1}));
  }
  if (name == "put_along_axis" && n == 3) {
    return spmd::put_along_axis_spmd(specs[0], specs[1], specs[2],
                                     attr_or(attrs, "axis", int64_t{0}));
  }
  if (name == "index_add" && n == 3) {
    return spmd::index_add_spmd(specs[0], specs[1], attr_or(attrs, "axis", int64_t{0}), specs[2]);
  }
  if (name == "flash_attn" && (n == 3 || n == 4)) {
    return spmd::flash_attn_spmd(specs[0], specs[1], specs[2], n == 4 ? &specs[3] : nullptr,
                                 attr_or(attrs, "return_softmax", false));
  }
  if (name == "flash_attn_grad" && n == 7) {
    return spmd::flash_attn_grad_spmd(specs[0], specs[1], specs[2], specs[3], specs[4], specs[5],
                                      specs[6]);
  }
  return std::nullopt;
}

}  // namespace

std::optional<SpmdInfo> table_rule(const std::string& name,
                                   const std::vector<DistTensorSpec>& specs, const Attrs& attrs) {
  const size_t n = specs.size();
  if (unary_ops().count(name) && n == 1) return spmd::elementwise_unary_spmd(specs[0]);
  if (binary_ops().count(name) && n == 2) {
    return spmd::elementwise_binary_spmd(specs[0], specs[1]);
  }
  if (name == "where" && n == 3) return spmd::where_spmd(specs[0], specs[1], specs[2]);
  if (name == "matmul" && n == 2) {
    return spmd::matmul_spmd(specs[0], specs[1], attr_or(attrs, "transpose_x", false),
                             attr_or(attrs, "transpose_y", false));
  }
  const bool keepdim = attr_or(attrs, "keepdim", false);
  if (name == "sum" && n == 1) return spmd::reduction_spmd(specs[0], axes_of(attrs), keepdim);
  if (name == "mean" && n == 1) {  // Paddle's mean rule: Partial(avg), exact for even shards
    return spmd::reduction_spmd(specs[0], axes_of(attrs), keepdim, ReduceType::kRedAvg);
  }
  if ((name == "max" || name == "amax") && n == 1) {
    return spmd::reduction_spmd(specs[0], axes_of(attrs), keepdim, ReduceType::kRedMax);
  }
  if ((name == "min" || name == "amin") && n == 1) {
    return spmd::reduction_spmd(specs[0], axes_of(attrs), keepdim, ReduceType::kRedMin);
  }
  if (name == "reshape" && n == 1) {
    return spmd::reshape_spmd(specs[0], attr_or(attrs, "shape", std::vector<int64_t>{}));
  }
  if ((name == "broadcast_to" || name == "expand") && n == 1) {
    return spmd::expand_spmd(specs[0], attr_or(attrs, "shape", std::vector<int64_t>{}));
  }
  if (name == "transpose" && n == 1) {
    return spmd::transpose_spmd(specs[0], attr_or(attrs, "perm", std::vector<int64_t>{}));
  }
  if ((name == "softmax" || name == "log_softmax") && n == 1) {
    return spmd::softmax_spmd(specs[0], attr_or(attrs, "axis", int64_t{-1}));
  }
  if (auto rule = shape_rule(name, specs, attrs)) return rule;
  return nn_rule(name, specs, attrs);
}

std::optional<Linearity> linearity(const std::string& name, const Attrs& attrs, size_t n_inputs) {
  static const std::set<std::string> first = {
      "reshape", "transpose", "broadcast_to", "expand", "sum",   "mean",           "neg", "assign",
      "clone",   "cast",      "divide",       "slice",  "split", "split_with_num", "roll"};
  if (first.count(name)) return Linearity{{0}, false};
  if (name == "scale") {  // scale * x + bias is linear only without a bias
    auto it = attrs.find("bias");
    const Scalar* bias = it == attrs.end() ? nullptr : std::get_if<Scalar>(&it->second);
    if (bias != nullptr && bias->to_double() != 0.0) return std::nullopt;
    return Linearity{{0}, false};
  }
  if (name == "multiply" || name == "matmul") return Linearity{{0, 1}, false};
  if (name == "relu_grad") return Linearity{{1}, false};  // linear in out_grad
  if ((name == "add" || name == "subtract") && n_inputs == 2) return Linearity{{0, 1}, true};
  if (name == "concat") {  // every piece Partial alike
    Linearity all{{}, true};
    for (size_t i = 0; i < n_inputs; ++i) all.args.push_back(i);
    return all;
  }
  if (name == "pad" && attr_or(attrs, "mode", std::string("constant")) == "constant" &&
      attr_or(attrs, "value", 0.0) == 0.0) {
    return Linearity{{0}, false};  // zero padding
  }
  return std::nullopt;
}

bool shape_only(const std::string& name) {
  return name == "full_like" || name == "zeros_like" || name == "ones_like" || name == "empty_like";
}

}  // namespace skiff::dist
