#include "skiff/ops/plugin/plugin_kernels.h"

#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "skiff/base/error.h"
#include "skiff/base/logging.h"
#include "skiff/device/plugin/plugin_loader.h"
#include "skiff/ops/kernel_args_view.h"
#include "skiff/ops/plugin/device_fallback.h"

namespace skiff::ops::plugin {

namespace {

KernelRegistry* g_registry = nullptr;

// Plugin kernels by (custom type, op, dtype).
struct PluginTable {
  std::mutex mu;
  std::array<std::unordered_map<uint32_t, SkiffKernelDef>, kMaxCustomDeviceTypes> defs;
  // The op id behind a kernel context's op name (the dense API's static kOp strings).
  std::unordered_map<const char*, OpId> op_by_name;
};
PluginTable& table() {
  static PluginTable* t = new PluginTable();
  return *t;
}
uint32_t key(OpId op, DType dtype) { return (static_cast<uint32_t>(op) << 8) | static_cast<uint32_t>(dtype); }

int custom_index(Backend b) { return static_cast<int>(b) - static_cast<int>(Backend::kCustom0); }

// KernelContext names the op by its API name: the record's, or "<record>_" for an in-place
// variant of a record whose name has no trailing underscore.
OpId op_of(const char* name) {
  auto& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  if (auto it = t.op_by_name.find(name); it != t.op_by_name.end()) return it->second;
  std::string_view n(name);
  const OpSchema* s = find_op_schema(n);
  if (s == nullptr && n.size() > 1 && n.back() == '_') s = find_op_schema(n.substr(0, n.size() - 1));
  SKIFF_ENFORCE(s != nullptr, kInternal, name, "kernel context", "an op record name", name);
  t.op_by_name.emplace(name, s->id);
  return s->id;
}

const SkiffKernelDef* find_def(Backend b, OpId op, DType dtype) {
  auto& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  const auto& m = t.defs[custom_index(b)];
  auto it = m.find(key(op, dtype));
  return it == m.end() ? nullptr : &it->second;
}

std::string device_of(Backend b) { return custom_device_type_name(custom_index(b)); }

// Why (op, dtype) has no kernel on the device: another dtype only, or none at all.
std::string missing_reason(Backend b, OpId op, DType dtype) {
  std::vector<std::string> others;
  {
    auto& t = table();
    std::lock_guard<std::mutex> lock(t.mu);
    for (const auto& [k, def] : t.defs[custom_index(b)]) {
      if ((k >> 8) == op) others.push_back(std::string(dtype_name(static_cast<DType>(def.dtype))));
    }
  }
  std::sort(others.begin(), others.end());
  std::string reason = str("no ", device_of(b), " kernel for ", dtype_name(dtype));
  if (others.empty()) return reason;
  return str(reason, " (it has ", join(others, ", "), ")");
}

template <int D>
void fallback_entry(const KernelContext& c, const void* args) {
  const OpId op = op_of(c.op);
  KernelArgsView view;
  args_view_fn(op)(args, view);
  run_on_cpu(op, static_cast<DType>(D), c.place, view, missing_reason(c.backend, op, static_cast<DType>(D)));
}

SkiffTensor to_c(const DenseTensor& t) {
  SkiffTensor c{};
  c.data = t.raw_data();
  c.ndim = t.rank();
  c.dtype = static_cast<int32_t>(t.dtype());
  for (int i = 0; i < t.rank(); ++i) {
    c.dims[i] = t.dims()[i];
    c.strides[i] = t.strides()[i];
  }
  c.device_id = t.place().device_id();
  return c;
}

// Attribute storage for one call: SkiffAttr points into it.
struct CAttrs {
  std::vector<SkiffAttr> attrs;
  std::vector<std::unique_ptr<std::vector<int64_t>>> ints;
  std::vector<std::unique_ptr<std::vector<double>>> floats;
  std::vector<std::unique_ptr<std::string>> strings;

  void add(const std::string& name, const AttrValue& v) {
    SkiffAttr a{};
    a.name = name.c_str();
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, bool>) {
            a.kind = SKIFF_ATTR_BOOL;
            a.i = x;
          } else if constexpr (std::is_same_v<T, int64_t>) {
            a.kind = SKIFF_ATTR_INT;
            a.i = x;
          } else if constexpr (std::is_same_v<T, double>) {
            a.kind = SKIFF_ATTR_FLOAT;
            a.f = x;
          } else if constexpr (std::is_same_v<T, std::string>) {
            a.kind = SKIFF_ATTR_STRING;
            strings.push_back(std::make_unique<std::string>(x));
            a.s = strings.back()->c_str();
          } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            a.kind = SKIFF_ATTR_INTS;
            ints.push_back(std::make_unique<std::vector<int64_t>>(x));
            a.ints = ints.back()->data();
            a.count = static_cast<int64_t>(x.size());
          } else if constexpr (std::is_same_v<T, std::vector<double>>) {
            a.kind = SKIFF_ATTR_FLOATS;
            floats.push_back(std::make_unique<std::vector<double>>(x));
            a.floats = floats.back()->data();
            a.count = static_cast<int64_t>(x.size());
          } else if constexpr (std::is_same_v<T, Scalar>) {
            a.kind = SKIFF_ATTR_FLOAT;
            a.f = x.to_double();
          } else if constexpr (std::is_same_v<T, DType>) {
            a.kind = SKIFF_ATTR_DTYPE;
            a.i = static_cast<int64_t>(x);
          } else {  // Place
            a.kind = SKIFF_ATTR_STRING;
            strings.push_back(std::make_unique<std::string>(x.to_string()));
            a.s = strings.back()->c_str();
          }
        },
        v);
    attrs.push_back(a);
  }
};

template <int D>
void plugin_entry(const KernelContext& c, const void* args) {
  constexpr DType dtype = static_cast<DType>(D);
  const OpId op = op_of(c.op);
  const SkiffKernelDef* def = find_def(c.backend, op, dtype);
  SKIFF_CHECK(def != nullptr);
  KernelArgsView view;
  args_view_fn(op)(args, view);
  // An output whose shape only the kernel knows cannot be handed to a C kernel.
  for (const auto& list : view.outputs) {
    for (const DenseTensor* t : list) {
      if (!t->defined()) {
        return run_on_cpu(op, dtype, c.place, view,
                          str(device_of(c.backend), " kernel needs outputs of known shape"));
      }
    }
  }
  std::vector<DenseTensor> staged;  // contiguous copies for SKIFF_LAYOUT_CONTIGUOUS kernels
  staged.reserve(16);
  std::vector<SkiffTensor> inputs;
  std::vector<int32_t> begin;
  for (const auto& arg : view.inputs) {
    begin.push_back(static_cast<int32_t>(inputs.size()));
    for (const DenseTensor* t : arg) {
      if (def->layout == SKIFF_LAYOUT_CONTIGUOUS && !t->is_contiguous()) {
        staged.push_back(t->contiguous());
        inputs.push_back(to_c(staged.back()));
      } else {
        inputs.push_back(to_c(*t));
      }
    }
  }
  begin.push_back(static_cast<int32_t>(inputs.size()));
  std::vector<SkiffTensor> outputs;
  for (const auto& list : view.outputs) {
    for (const DenseTensor* t : list) outputs.push_back(to_c(*t));
  }
  CAttrs attrs;
  for (const auto& [name, value] : view.attrs) attrs.add(name, value);
  const std::string op_name = op_schema(op).name;
  SkiffKernelCall call{};
  call.op = op_name.c_str();
  call.dtype = D;
  call.device_id = c.place.device_id();
  call.stream = nullptr;
  call.inputs = inputs.data();
  call.num_inputs = static_cast<int32_t>(inputs.size());
  call.input_begin = begin.data();
  call.num_tensor_args = static_cast<int32_t>(view.inputs.size());
  call.outputs = outputs.data();
  call.num_outputs = static_cast<int32_t>(outputs.size());
  call.attrs = attrs.attrs.data();
  call.num_attrs = static_cast<int32_t>(attrs.attrs.size());
  const SkiffStatus status = def->fn(&call);
  if (status == SKIFF_UNSUPPORTED) {
    return run_on_cpu(op, dtype, c.place, view,
                      str("the ", device_of(c.backend), " kernel declined this call"));
  }
  if (status != SKIFF_SUCCESS) {
    const device::LoadedPlugin* p = device::plugin_of_type(custom_index(c.backend));
    const char* message = p && p->ops.get_last_error ? p->ops.get_last_error() : nullptr;
    SKIFF_THROW(kInvalidArgument, op_name, str(device_of(c.backend), " kernel"), "success",
                str("status ", static_cast<int>(status), message ? str(": ", message) : ""));
  }
}

template <int... D>
constexpr std::array<KernelFn, sizeof...(D)> entries(std::integer_sequence<int, D...>, bool plugin) {
  return plugin ? std::array<KernelFn, sizeof...(D)>{&plugin_entry<D>...}
                : std::array<KernelFn, sizeof...(D)>{&fallback_entry<D>...};
}
const auto kPluginEntries = entries(std::make_integer_sequence<int, kNumDTypes>(), true);
const auto kFallbackEntries = entries(std::make_integer_sequence<int, kNumDTypes>(), false);

void on_plugin(const device::LoadedPlugin& p) {
  KernelRegistry& r = *g_registry;
  const Backend backend =
      static_cast<Backend>(static_cast<int>(Backend::kCustom0) + p.custom_type_id);
  {
    auto& t = table();
    std::lock_guard<std::mutex> lock(t.mu);
    for (const SkiffKernelDef& def : p.kernels) {
      const OpSchema* s = find_op_schema(def.op);
      if (s == nullptr) {
        SKIFF_LOG(WARNING) << "device plugin " << p.path << " registers a kernel for op '"
                           << def.op << "', which Skiff does not have; ignored";
        continue;
      }
      t.defs[p.custom_type_id][key(s->id, static_cast<DType>(def.dtype))] = def;
    }
  }
  for (const OpSchema& s : all_op_schemas()) {
    for (int d = 0; d < kNumDTypes; ++d) {
      const auto dtype = static_cast<DType>(d);
      if (find_def(backend, s.id, dtype)) {
        r.add(s.id, backend, dtype, kPluginEntries[d]);
        continue;
      }
      KernelFn cpu = r.find(s.id, Backend::kCPU, dtype);
      if (cpu == nullptr) continue;
      r.add(s.id, backend, dtype, s.is_view ? cpu : kFallbackEntries[d]);
    }
  }
}

}  // namespace

void install(KernelRegistry& registry) {
  g_registry = &registry;
  device::add_plugin_listener(on_plugin);
}

std::vector<std::string> plugin_kernel_names(const std::string& device_type) {
  std::vector<std::string> out;
  for (const device::LoadedPlugin* p : device::loaded_plugins()) {
    if (p->device_type != device_type) continue;
    auto& t = table();
    std::lock_guard<std::mutex> lock(t.mu);
    for (const auto& [k, def] : t.defs[p->custom_type_id]) {
      out.push_back(str(op_schema(static_cast<OpId>(k >> 8)).name, " ",
                        dtype_name(static_cast<DType>(def.dtype))));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace skiff::ops::plugin
