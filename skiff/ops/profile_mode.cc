#include "skiff/ops/profile_mode.h"

#include <charconv>
#include <mutex>
#include <string>
#include <vector>

#include "skiff/base/str.h"
#include "skiff/ops/dispatch/mode.h"
#include "skiff/profiler/profiler.h"

namespace skiff::ops {

namespace {

// "[2, 3]" without a stream (this runs for every op while recording shapes).
void append_dims(std::string& out, const Dims& d) {
  char buf[24];
  out += '[';
  for (int i = 0; i < d.size(); ++i) {
    if (i) out += ", ";
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), d[i]);
    out.append(buf, end);
  }
  out += ']';
}

// "[[2, 3], [3]]" and "[float32, float32]": one entry per tensor argument (a list argument is
// a list, an absent optional None).
void add_input_args(const dispatch::OpCall& call, profiler::RecordEvent& ev) {
  std::vector<bool> is_list;  // per tensor argument, in record order
  for (const ArgSchema& a : call.schema().args) {
    if (is_tensor_kind(a.kind)) is_list.push_back(a.kind == ArgKind::kTensorList);
  }
  std::string shapes = "[", dtypes = "[";
  const auto& inputs = call.inputs();
  for (size_t k = 0; k < inputs.size(); ++k) {
    const bool list = k < is_list.size() && is_list[k];
    shapes += k ? ", " : "";
    dtypes += k ? ", " : "";
    if (!list && inputs[k].empty()) {
      shapes += "None";
      dtypes += "None";
      continue;
    }
    shapes += list ? "[" : "";
    dtypes += list ? "[" : "";
    for (size_t i = 0; i < inputs[k].size(); ++i) {
      if (i) {
        shapes += ", ";
        dtypes += ", ";
      }
      append_dims(shapes, inputs[k][i].dims());
      dtypes += dtype_name(inputs[k][i].dtype());
    }
    shapes += list ? "]" : "";
    dtypes += list ? "]" : "";
  }
  ev.add_arg("input_shapes", shapes + "]");
  ev.add_arg("input_dtypes", dtypes + "]");
}

class ProfileMode final : public dispatch::Mode {
 public:
  std::string_view name() const override { return "profile"; }
  int order() const override { return dispatch::order::kProfile; }
  void handle(dispatch::OpCall& call, const dispatch::Next& next) override {
    profiler::RecordEvent ev(call.name(), profiler::EventType::kOperator);
    ev.set_op_id(static_cast<int>(call.id()));
    if (ev.active() && profiler::shapes_enabled()) add_input_args(call, ev);
    // A mode above took the kernel's place (capture appends an IR op instead): no kernel runs.
    if (ev.active() && call.kernel_replaced()) ev.add_arg("captured", "true");
    next(call);
  }
};

ProfileMode g_mode;  // static: a call on another thread may still be inside it after a stop

void on_session(bool starting) {
  if (starting) {
    dispatch::enable_everywhere(g_mode);
  } else {
    dispatch::disable_everywhere(g_mode);
  }
}

}  // namespace

void install_profile_mode() {
  static std::once_flag once;
  std::call_once(once, [] {
    profiler::add_session_observer(&on_session);
    if (profiler::session_running()) on_session(true);
  });
}

}  // namespace skiff::ops
