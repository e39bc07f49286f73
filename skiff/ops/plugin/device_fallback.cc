#include "skiff/ops/plugin/device_fallback.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include "skiff/base/error.h"
#include "skiff/base/flags.h"
#include "skiff/base/logging.h"
#include "skiff/ops/boxed.h"
#include "skiff/ops/dispatch.h"

SKIFF_DEFINE_FLAG(string, device_fallback, "warn",
                  "what an op without a kernel on a plugin device does: warn (run on the CPU, "
                  "warn once), silent (run on the CPU) or error")

namespace skiff::ops::plugin {

namespace {
struct Stats {
  std::mutex mu;
  std::map<std::tuple<std::string, std::string, std::string>, FallbackStat> by_key;
  std::set<std::tuple<std::string, std::string, std::string>> warned;  // never reset
};
Stats& stats() {
  static Stats* s = new Stats();
  return *s;
}

std::atomic<int> g_policy{-1};  // -1: not read from the flag yet
}  // namespace

FallbackPolicy parse_fallback_policy(const std::string& text) {
  if (text == "warn") return FallbackPolicy::kWarn;
  if (text == "silent") return FallbackPolicy::kSilent;
  if (text == "error") return FallbackPolicy::kError;
  SKIFF_THROW(kInvalidArgument, "device fallback", "policy", "'warn', 'silent' or 'error'",
              str("'", text, "'"));
}

FallbackPolicy fallback_policy() {
  int p = g_policy.load(std::memory_order_relaxed);
  if (p < 0) {
    p = static_cast<int>(parse_fallback_policy(flags::device_fallback()));
    g_policy.store(p, std::memory_order_relaxed);
  }
  return static_cast<FallbackPolicy>(p);
}

void set_fallback_policy(FallbackPolicy policy) {
  g_policy.store(static_cast<int>(policy), std::memory_order_relaxed);
}

void run_on_cpu(OpId op, DType dtype, const Place& place, const KernelArgsView& view,
                const std::string& reason) {
  const OpSchema& schema = op_schema(op);
  const std::string device = custom_device_type_name(place.custom_type_id());
  const std::string dtype_text(dtype_name(dtype));
  const FallbackPolicy policy = fallback_policy();
  SKIFF_ENFORCE(policy != FallbackPolicy::kError, kUnimplemented, schema.name, "place",
                str("a ", device, " kernel for ", dtype_text,
                    " (CPU fallback is off: SKIFF_DEVICE_FALLBACK=error)"),
                str(reason, " on ", place));
  const auto key = std::make_tuple(schema.name, device, dtype_text);
  if (policy == FallbackPolicy::kWarn) {
    bool first;
    {
      std::lock_guard<std::mutex> lock(stats().mu);
      first = stats().warned.insert(key).second;
    }
    if (first) {
      SKIFF_LOG(WARNING) << schema.name << ": " << reason
                         << "; running on CPU (inputs and outputs copied)";
    }
  }
  const auto start = std::chrono::steady_clock::now();
  BoxedInputs in;
  in.attrs = view.attrs;
  for (auto& [name, value] : in.attrs) {  // an op placed by an attribute runs on the host
    if (const Place* p = std::get_if<Place>(&value); p && !p->is_cpu()) value = Place::cpu();
  }
  ScopedDefaultPlace host(Place::cpu());  // and so do ops placed by the default place
  for (const auto& arg : view.inputs) {
    std::vector<DenseTensor> host;
    for (const DenseTensor* t : arg) host.push_back(t->copy_to(Place::cpu()));
    in.tensors.push_back(std::move(host));
  }
  BoxedOutputs out = call_boxed(op, in);
  SKIFF_ENFORCE(out.size() == view.outputs.size(), kInternal, schema.name, "fallback outputs",
                view.outputs.size(), out.size());
  for (size_t k = 0; k < out.size(); ++k) {
    SKIFF_ENFORCE(out[k].size() == view.outputs[k].size(), kInternal, schema.name,
                  "fallback outputs", view.outputs[k].size(), out[k].size());
    for (size_t i = 0; i < out[k].size(); ++i) {
      DenseTensor* dst = view.outputs[k][i];
      if (dst->defined()) {
        dst->copy_from(out[k][i]);
      } else {
        *dst = out[k][i].copy_to(place);
      }
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::lock_guard<std::mutex> lock(stats().mu);
  FallbackStat& s = stats().by_key[key];
  if (s.count == 0) s = {schema.name, device, dtype_text, reason, 0, 0};
  ++s.count;
  s.seconds += seconds;
}

std::vector<FallbackStat> fallback_stats() {
  std::lock_guard<std::mutex> lock(stats().mu);
  std::vector<FallbackStat> out;
  for (const auto& [key, s] : stats().by_key) out.push_back(s);
  return out;
}

void reset_fallback_stats() {
  std::lock_guard<std::mutex> lock(stats().mu);
  stats().by_key.clear();
}

}  // namespace skiff::ops::plugin
