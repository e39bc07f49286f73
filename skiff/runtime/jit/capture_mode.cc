// Capture as a dispatch mode (skiff/ops/dispatch/mode.h): enabled on a thread while a
// CaptureScope is active there. An op call keeps going down the stack with its kernel replaced
// by capture_op, so autograd below records the symbolic results (static autodiff); an in-place
// call is captured as its functional form and the written arguments are rebound to the results.
#include "skiff/base/error.h"
#include "skiff/ops/dispatch/mode.h"
#include "skiff/ops/inplace.h"
#include "skiff/runtime/eager/call_op.h"
#include "skiff/runtime/jit/capture.h"

namespace skiff::jit {

namespace {

size_t tensor_arg_index(const ops::OpSchema& s, const std::string& name) {
  size_t k = 0;
  for (const auto& a : s.args) {
    if (!ops::is_tensor_kind(a.kind)) continue;
    if (a.name == name) return k;
    ++k;
  }
  SKIFF_THROW(kInternal, s.name, name, "a tensor argument", "none of that name");
}

size_t output_index(const ops::OpSchema& s, const std::string& name) {
  for (size_t j = 0; j < s.outputs.size(); ++j) {
    if (s.outputs[j].name == name) return j;
  }
  SKIFF_THROW(kInternal, s.name, name, "an output", "none of that name");
}

class CaptureMode final : public dispatch::Mode {
 public:
  std::string_view name() const override { return "capture"; }
  int order() const override { return dispatch::order::kCapture; }

  void handle(dispatch::OpCall& call, const dispatch::Next& next) override {
    if (!call.inplace()) {
      call.replace_kernel(&capture_kernel, nullptr);
      next(call);
      return;
    }
    capture_inplace(call);
  }

 private:
  static void capture_kernel(dispatch::OpCall& call, void*) {
    call.set_outputs(capture_op(call.schema().name, call.inputs(), call.attrs()));
  }

  // The functional form is captured (the out-of-place op through the whole stack, so autograd
  // records it; an in-place-only op, a fused optimizer update, on copies of what it writes),
  // then each written argument is made to stand for its result.
  static void capture_inplace(dispatch::OpCall& call) {
    const ops::OpSchema& s = call.schema();
    const ops::InplaceInfo* info = ops::inplace_info(s.id);
    SKIFF_CHECK(info != nullptr);
    const std::string op(call.name());
    dispatch::TensorLists results = op == s.name ? capture_op(s.name, call.inputs(), call.attrs())
                                                 : call_op(s.name, call.inputs(), call.attrs());
    for (const auto& [in, out] : info->pairs) {
      const size_t k = tensor_arg_index(s, in);
      const size_t j = output_index(s, out);
      const size_t n = call.inputs()[k].size();
      SKIFF_ENFORCE(results[j].size() == n, kInvalidArgument, op, in,
                    str(results[j].size(), " tensors"), n);
      std::vector<Tensor> written;
      written.reserve(n);
      for (size_t i = 0; i < n; ++i) {
        const Tensor& target = call.input_handle(k, i);
        rebind_inplace(op.c_str(), in.c_str(), target, results[j][i]);
        written.push_back(target);
      }
      results[j] = std::move(written);
    }
    call.set_outputs(std::move(results));
  }
};

CaptureMode g_capture_mode;

}  // namespace

namespace detail {

void set_capture(CaptureScope* scope) {
  t_capture = scope;
  if (scope != nullptr) {
    if (!dispatch::enabled_on_thread(g_capture_mode)) dispatch::enable_on_thread(g_capture_mode);
  } else {
    dispatch::disable_on_thread(g_capture_mode);
  }
}

}  // namespace detail

}  // namespace skiff::jit
