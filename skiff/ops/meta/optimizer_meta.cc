#include "skiff/ops/meta/optimizer_meta.h"

#include "skiff/base/error.h"
#include "skiff/base/str.h"

namespace skiff::ops::meta {
namespace {

/// Optimizer state is float32 (16-bit and float32 parameters) or float64 (float64 parameters,
/// which may also keep float32 state).
bool state_dtype_ok(DType param, DType state) {
  return state == DType::kFloat32 || (param == DType::kFloat64 && state == DType::kFloat64);
}

void check_params(std::string_view op, std::span<const TensorMeta> params,
                  std::span<const TensorMeta> grads) {
  SKIFF_ENFORCE(grads.size() == params.size(), kInvalidArgument, op, "grads",
                str(params.size(), " tensors (one per parameter)"), str(grads.size(), " tensors"));
  for (size_t i = 0; i < params.size(); ++i) {
    SKIFF_ENFORCE(is_floating(params[i].dtype), kTypeError, op, str("params[", i, "]"),
                  "a floating-point tensor", params[i].dtype);
    SKIFF_ENFORCE(params[i].dtype == params[0].dtype, kTypeError, op, str("params[", i, "]"),
                  str(params[0].dtype, " (the dtype of params[0])"), params[i].dtype);
    SKIFF_ENFORCE(grads[i].dtype == params[i].dtype, kTypeError, op, str("grads[", i, "]"),
                  str(params[i].dtype, " (the dtype of params[", i, "])"), grads[i].dtype);
    SKIFF_ENFORCE(grads[i].dims == params[i].dims, kInvalidArgument, op, str("grads[", i, "]"),
                  str("dims ", params[i].dims, " (those of params[", i, "])"), grads[i].dims);
  }
}

void check_state(std::string_view op, std::string_view name, std::span<const TensorMeta> params,
                 std::span<const TensorMeta> state) {
  SKIFF_ENFORCE(state.size() == params.size(), kInvalidArgument, op, name,
                str(params.size(), " tensors (one per parameter)"), str(state.size(), " tensors"));
  for (size_t i = 0; i < params.size(); ++i) {
    SKIFF_ENFORCE(state_dtype_ok(params[i].dtype, state[i].dtype), kTypeError, op,
                  str(name, "[", i, "]"),
                  str("float32 (state of a ", params[i].dtype, " parameter)"), state[i].dtype);
    SKIFF_ENFORCE(state[i].dims == params[i].dims, kInvalidArgument, op, str(name, "[", i, "]"),
                  str("dims ", params[i].dims, " (those of params[", i, "])"), state[i].dims);
  }
}

void check_scalar(std::string_view op, std::string_view name, const TensorMeta& t) {
  SKIFF_ENFORCE(t.dtype == DType::kFloat32 || t.dtype == DType::kFloat64, kTypeError, op, name,
                "a float32 tensor", t.dtype);
  SKIFF_ENFORCE(t.dims.numel() == 1, kInvalidArgument, op, name, "a tensor of one element",
                str("dims ", t.dims));
}

std::vector<TensorMeta> copy(std::span<const TensorMeta> m) { return {m.begin(), m.end()}; }

}  // namespace

void fused_sgd_meta(std::string_view op, std::span<const TensorMeta> params,
                    std::span<const TensorMeta> grads, const TensorMeta& learning_rate,
                    std::vector<TensorMeta>* params_out) {
  check_params(op, params, grads);
  check_scalar(op, "learning_rate", learning_rate);
  *params_out = copy(params);
}

void fused_momentum_meta(std::string_view op, std::span<const TensorMeta> params,
                         std::span<const TensorMeta> grads, std::span<const TensorMeta> velocity,
                         const TensorMeta& learning_rate, std::vector<TensorMeta>* params_out,
                         std::vector<TensorMeta>* velocity_out) {
  check_params(op, params, grads);
  check_state(op, "velocity", params, velocity);
  check_scalar(op, "learning_rate", learning_rate);
  *params_out = copy(params);
  *velocity_out = copy(velocity);
}

void fused_adam_meta(std::string_view op, std::span<const TensorMeta> params,
                     std::span<const TensorMeta> grads, std::span<const TensorMeta> moment1,
                     std::span<const TensorMeta> moment2, std::span<const TensorMeta> moment2_max,
                     const TensorMeta& learning_rate, const TensorMeta& step, bool amsgrad,
                     std::vector<TensorMeta>* params_out, std::vector<TensorMeta>* moment1_out,
                     std::vector<TensorMeta>* moment2_out,
                     std::vector<TensorMeta>* moment2_max_out) {
  check_params(op, params, grads);
  check_state(op, "moment1", params, moment1);
  check_state(op, "moment2", params, moment2);
  if (amsgrad) {
    check_state(op, "moment2_max", params, moment2_max);
  } else {
    SKIFF_ENFORCE(moment2_max.empty(), kInvalidArgument, op, "moment2_max",
                  "an empty list (amsgrad is false)", str(moment2_max.size(), " tensors"));
  }
  check_scalar(op, "learning_rate", learning_rate);
  check_scalar(op, "step", step);
  *params_out = copy(params);
  *moment1_out = copy(moment1);
  *moment2_out = copy(moment2);
  *moment2_max_out = copy(moment2_max);
}

}  // namespace skiff::ops::meta
