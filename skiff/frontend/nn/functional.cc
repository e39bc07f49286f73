#include "skiff/nn/functional.h"

#include "skiff/base/str.h"
#include "skiff/ops/generated/api.h"

namespace skiff::nn::functional {

namespace {

void check_reduction(const char* op, const std::string& reduction) {
  SKIFF_ENFORCE(reduction == "mean" || reduction == "sum" || reduction == "none", kInvalidArgument,
                op, "reduction", "one of 'mean', 'sum', 'none'", str("'", reduction, "'"));
}

Tensor reduce(const Tensor& loss, const std::string& reduction) {
  if (reduction == "sum") return sum(loss);
  if (reduction == "mean") return mean(loss);
  return loss;
}

int64_t axis_of(const char* op, int64_t axis, int rank) {
  const int r = std::max(rank, 1);
  SKIFF_ENFORCE(axis >= -r && axis < r, kOutOfRange, op, "axis", str("in [", -r, ", ", r, ")"),
                axis);
  return axis < 0 ? axis + r : axis;
}

/// 1 where `label` is not ignore_index, else 0, in `dtype`.
Tensor valid_mask(const Tensor& label, int64_t ignore_index, DType dtype) {
  return cast(not_equal(label, full_like(label, Scalar(ignore_index))), dtype);
}

/// The per-class weights picked by hard labels (ignored labels read class 0; the mask drops
/// them).
Tensor class_weights(const Tensor& weight, const Tensor& label, int64_t ignore_index) {
  const Tensor safe =
      where(not_equal(label, full_like(label, Scalar(ignore_index))), label, zeros_like(label));
  return reshape(gather(weight, reshape(safe, {-1}), 0), label.shape());
}

}  // namespace

Tensor cross_entropy(const Tensor& input, const Tensor& label, const std::optional<Tensor>& weight,
                     int64_t ignore_index, const std::string& reduction, bool soft_label,
                     int64_t axis, double label_smoothing) {
  constexpr const char* kOp = "cross_entropy";
  check_reduction(kOp, reduction);
  SKIFF_ENFORCE(label_smoothing >= 0 && label_smoothing <= 1, kInvalidArgument, kOp,
                "label_smoothing", "a value in [0, 1]", label_smoothing);
  const int64_t a = axis_of(kOp, axis, input.rank());
  const int64_t classes = input.rank() == 0 ? 1 : input.dims()[a];
  Tensor lab = label;
  bool soft = soft_label;
  if (!soft) {
    SKIFF_ENFORCE(label.rank() == input.rank() || label.rank() + 1 == input.rank(),
                  kInvalidArgument, kOp, "label",
                  str("class ids of input's dims without axis ", a, " (or with it of size 1)"),
                  label.dims());
    if (label.rank() + 1 == input.rank()) lab = unsqueeze(label, {a});
  }
  // Hard labels with smoothing become soft labels: (1 - eps) * one_hot + eps / C.
  Tensor hard_ids = lab;
  if (!soft && label_smoothing > 0) {
    SKIFF_ENFORCE(a == input.rank() - 1, kUnimplemented, kOp, "axis",
                  "the last axis with label_smoothing", a);
    const Tensor onehot = cast(one_hot(squeeze(lab, {a}), classes), input.dtype());
    lab = scale(onehot, Scalar(1.0 - label_smoothing), Scalar(label_smoothing / classes));
    soft = true;
  }
  if (soft) {
    SKIFF_ENFORCE(lab.dims() == input.dims(), kInvalidArgument, kOp, "label",
                  str("soft labels of input's dims ", input.dims()), lab.dims());
  }
  const Tensor loss =
      std::get<1>(cross_entropy_with_softmax(input, lab, soft, true, true, ignore_index, a));
  // Per-sample weights and the mean's denominator.
  Tensor w;
  if (weight) {
    SKIFF_ENFORCE(weight->rank() == 1 && weight->dims()[0] == classes, kInvalidArgument, kOp,
                  "weight", str("a [", classes, "] tensor of class weights"), weight->dims());
    if (soft) {
      std::vector<int64_t> shape(input.rank(), 1);
      shape[a] = classes;
      w = sum(multiply(lab, reshape(*weight, shape)), {a}, DType::kUndefined, true);
    } else {
      w = multiply(class_weights(*weight, hard_ids, ignore_index),
                   valid_mask(hard_ids, ignore_index, input.dtype()));
    }
  }
  Tensor out = w.defined() ? multiply(loss, w) : loss;
  if (reduction == "none") return squeeze(out, {a});
  if (reduction == "sum") return sum(out);
  if (w.defined()) return divide(sum(out), sum(w));
  if (soft) return mean(out);
  return divide(sum(out), sum(valid_mask(hard_ids, ignore_index, input.dtype())));
}

Tensor nll_loss(const Tensor& input, const Tensor& label, const std::optional<Tensor>& weight,
                int64_t ignore_index, const std::string& reduction) {
  constexpr const char* kOp = "nll_loss";
  check_reduction(kOp, reduction);
  SKIFF_ENFORCE(input.rank() >= 2, kInvalidArgument, kOp, "input",
                "log-probabilities [N, C] or [N, C, d...]", input.dims());
  bool ok = label.rank() == input.rank() - 1 && label.dims()[0] == input.dims()[0];
  for (int i = 1; ok && i < label.rank(); ++i) ok = label.dims()[i] == input.dims()[i + 1];
  SKIFF_ENFORCE(ok, kInvalidArgument, kOp, "label",
                str("class ids of input's dims without axis 1 (input ", input.dims(), ")"),
                label.dims());
  const Tensor valid = valid_mask(label, ignore_index, input.dtype());
  const Tensor safe =
      where(not_equal(label, full_like(label, Scalar(ignore_index))), label, zeros_like(label));
  const Tensor picked = squeeze(take_along_axis(input, unsqueeze(safe, {1}), 1), {1});
  Tensor w = valid;
  if (weight) {
    SKIFF_ENFORCE(weight->rank() == 1 && weight->dims()[0] == input.dims()[1], kInvalidArgument,
                  kOp, "weight", str("a [", input.dims()[1], "] tensor of class weights"),
                  weight->dims());
    w = multiply(class_weights(*weight, label, ignore_index), valid);
  }
  const Tensor loss = multiply(neg(picked), w);
  if (reduction == "mean") return divide(sum(loss), sum(w));
  return reduce(loss, reduction);
}

Tensor mse_loss(const Tensor& input, const Tensor& label, const std::string& reduction) {
  check_reduction("mse_loss", reduction);
  return reduce(square(subtract(input, label)), reduction);
}

Tensor l1_loss(const Tensor& input, const Tensor& label, const std::string& reduction) {
  check_reduction("l1_loss", reduction);
  return reduce(abs(subtract(input, label)), reduction);
}

Tensor binary_cross_entropy_with_logits(const Tensor& logit, const Tensor& label,
                                        const std::optional<Tensor>& weight,
                                        const std::string& reduction,
                                        const std::optional<Tensor>& pos_weight) {
  constexpr const char* kOp = "binary_cross_entropy_with_logits";
  check_reduction(kOp, reduction);
  SKIFF_ENFORCE(logit.dims() == label.dims(), kInvalidArgument, kOp, "label",
                str("dims ", logit.dims(), " (those of logit)"), label.dims());
  // -log(sigmoid(x)) = log1p(exp(-|x|)) + max(-x, 0), stable for any x;
  // loss = (1 - y) * x + (1 + (pos_weight - 1) * y) * -log(sigmoid(x)).
  const Tensor neg_log_sig = add(log1p(exp(neg(abs(logit)))), relu(neg(logit)));
  const Tensor one_minus_y = scale(label, Scalar(-1.0), Scalar(1.0));
  Tensor log_weight_term = neg_log_sig;
  if (pos_weight) {
    const Tensor lw = scale(multiply(scale(*pos_weight, Scalar(1.0), Scalar(-1.0)), label),
                            Scalar(1.0), Scalar(1.0));
    log_weight_term = multiply(lw, neg_log_sig);
  }
  Tensor loss = add(multiply(one_minus_y, logit), log_weight_term);
  if (weight) loss = multiply(loss, *weight);
  return reduce(loss, reduction);
}

}  // namespace skiff::nn::functional
