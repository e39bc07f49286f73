// Finite-difference gradient checks for every op with a VJP rule, generated from the op table:
// float64 inputs from the op database's samples; first order for all, second order for ops whose
// entry allows it.
#include <gtest/gtest.h>

#include "gradcheck.h"
#include "op_db.h"
#include "skiff/core/generator.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/call_op.h"

namespace skiff::testing {
namespace {

// Float64 inputs for one sample; arguments with a VJP rule require grad.
std::vector<Tensor> make_inputs(const OpInfo& info, const ops::OpSchema& s, const OpSample& sample,
                                std::vector<size_t>* list_sizes) {
  std::mt19937_64 rng(99);
  // Exact small integers sit on the kinks of clip, relu, ...: finite differences there are
  // meaningless, so floats come from a continuous domain.
  const Domain domain = info.domain == Domain::kSmallInt ? Domain::kAny : info.domain;
  const auto dense = sample_inputs(info, sample, DType::kFloat64, rng, domain);
  std::vector<Tensor> flat;
  size_t arg = 0;
  for (const auto& a : s.args) {
    if (!ops::is_tensor_kind(a.kind)) continue;
    const bool wants_grad =
        std::find(s.grad_inputs.begin(), s.grad_inputs.end(), a.name) != s.grad_inputs.end();
    for (const DenseTensor& t : dense[arg]) {
      Tensor tt(t);
      if (wants_grad && is_floating(t.dtype())) autograd::set_stop_gradient(tt, false);
      flat.push_back(tt);
    }
    list_sizes->push_back(dense[arg].size());
    ++arg;
  }
  return flat;
}

TensorFn op_fn(const ops::OpSchema& s, const OpSample& sample,
               const std::vector<size_t>& list_sizes) {
  return [&s, &sample, list_sizes](const std::vector<Tensor>& flat) {
    TensorLists in;
    size_t k = 0;
    for (size_t n : list_sizes) {
      in.emplace_back(flat.begin() + k, flat.begin() + k + n);
      k += n;
    }
    // Random ops draw the same numbers on every call, so the function is deterministic.
    default_generator(Place::cpu()).set_state({4321, 0});
    std::vector<Tensor> outs;
    for (auto& list : call_op(s.name, in, sample.attrs)) {
      for (auto& t : list) outs.push_back(t);
    }
    return outs;
  };
}

class OpGradcheck : public ::testing::TestWithParam<std::string> {};

TEST_P(OpGradcheck, FirstAndSecondOrder) {
  const OpInfo& info = OpDb::get().infos().at(GetParam());
  const ops::OpSchema& s = ops::op_schema(info.name);
  // Every skip is counted with its reason: an op whose samples are all skipped checked nothing.
  int checked = 0;
  std::string skipped;
  for (size_t k = 0; k < info.samples.size(); ++k) {
    const OpSample& sample = info.samples[k];
    int64_t elements = 0;
    for (const auto& list : sample.shapes) {
      for (const Dims& d : list) elements += d.numel();
    }
    if (elements > 512) {  // finite differences cost two forwards per element
      skipped += str(" sample ", k, ": ", elements, " elements;");
      continue;
    }
    std::vector<size_t> sizes;
    const auto inputs = make_inputs(info, s, sample, &sizes);
    const auto fn = op_fn(s, sample, sizes);
    // Finite differences need float64 results: skip samples whose outputs are integers or
    // lower-precision floats (e.g. cast to float32).
    bool all_float64 = true, any_float = false;
    for (const Tensor& t : fn(inputs)) {
      if (!is_floating(t.dtype())) continue;
      any_float = true;
      all_float64 = all_float64 && t.dtype() == DType::kFloat64;
    }
    if (!any_float || !all_float64) {
      skipped += str(" sample ", k, ": outputs not all float64;");
      continue;
    }
    ++checked;
    const std::string first = gradcheck(fn, inputs);
    EXPECT_TRUE(first.empty()) << s.name << " sample " << k << ": " << first;
    if (info.check_gradgrad && first.empty()) {
      const std::string second = gradgradcheck(fn, inputs);
      EXPECT_TRUE(second.empty()) << s.name << " sample " << k << ": " << second;
    }
  }
  EXPECT_GT(checked, 0) << s.name << ": no sample was gradient-checked;" << skipped;
}

std::vector<std::string> differentiable_ops() {
  std::vector<std::string> names;
  for (const auto& [name, info] : OpDb::get().infos()) {
    const auto& s = ops::op_schema(name);
    if (s.differentiable && !s.grad_inputs.empty() && info.check_grad) names.push_back(name);
  }
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllOps, OpGradcheck, ::testing::ValuesIn(differentiable_ops()),
                         [](const auto& p) { return p.param; });

}  // namespace
}  // namespace skiff::testing
