#include "skiff/device/plugin/plugin_loader.h"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#include "skiff/base/error.h"
#include "skiff/base/logging.h"
#include "skiff/core/place.h"
#include "skiff/device/device_manager.h"
#include "skiff/device/plugin/plugin_device.h"

namespace skiff::device {

namespace {

// One function pointer of a table: its name, where it is, the minor version that added it, and
// whether a plugin of that minor (or newer) must provide it.
struct FnSlot {
  const char* name;
  size_t offset;
  uint32_t since_minor;
  bool required;
};

#define SKIFF_OPS_SLOT(fn, minor, req) {#fn, offsetof(SkiffDeviceOps, fn), minor, req}
constexpr FnSlot kDeviceSlots[] = {
    SKIFF_OPS_SLOT(init, 0, true),
    SKIFF_OPS_SLOT(finalize, 0, true),
    SKIFF_OPS_SLOT(get_device_count, 0, true),
    SKIFF_OPS_SLOT(init_device, 0, true),
    SKIFF_OPS_SLOT(deinit_device, 0, true),
    SKIFF_OPS_SLOT(set_device, 0, true),
    SKIFF_OPS_SLOT(get_device, 0, true),
    SKIFF_OPS_SLOT(memory_info, 0, true),
    SKIFF_OPS_SLOT(allocate, 0, true),
    SKIFF_OPS_SLOT(deallocate, 0, true),
    SKIFF_OPS_SLOT(host_allocate, 0, true),
    SKIFF_OPS_SLOT(host_deallocate, 0, true),
    SKIFF_OPS_SLOT(memcpy_h2d, 0, true),
    SKIFF_OPS_SLOT(memcpy_d2h, 0, true),
    SKIFF_OPS_SLOT(memcpy_d2d, 0, true),
    SKIFF_OPS_SLOT(async_memcpy_h2d, 0, true),
    SKIFF_OPS_SLOT(async_memcpy_d2h, 0, true),
    SKIFF_OPS_SLOT(async_memcpy_d2d, 0, true),
    SKIFF_OPS_SLOT(create_stream, 0, true),
    SKIFF_OPS_SLOT(destroy_stream, 0, true),
    SKIFF_OPS_SLOT(query_stream, 0, true),
    SKIFF_OPS_SLOT(synchronize_stream, 0, true),
    SKIFF_OPS_SLOT(create_event, 0, true),
    SKIFF_OPS_SLOT(destroy_event, 0, true),
    SKIFF_OPS_SLOT(record_event, 0, true),
    SKIFF_OPS_SLOT(query_event, 0, true),
    SKIFF_OPS_SLOT(synchronize_event, 0, true),
    SKIFF_OPS_SLOT(stream_wait_event, 0, true),
    SKIFF_OPS_SLOT(synchronize_device, 0, true),
    SKIFF_OPS_SLOT(get_last_error, 0, false),
    SKIFF_OPS_SLOT(get_device_properties, 1, false),
    SKIFF_OPS_SLOT(memset, 1, false),
};
#undef SKIFF_OPS_SLOT

#define SKIFF_CCL_SLOT(fn, minor) {#fn, offsetof(SkiffCclOps, fn), minor, true}
constexpr FnSlot kCclSlots[] = {
    SKIFF_CCL_SLOT(get_unique_id, 0),  SKIFF_CCL_SLOT(comm_init_rank, 0),
    SKIFF_CCL_SLOT(comm_destroy, 0),   SKIFF_CCL_SLOT(all_reduce, 0),
    SKIFF_CCL_SLOT(all_gather, 0),     SKIFF_CCL_SLOT(reduce_scatter, 0),
    SKIFF_CCL_SLOT(broadcast, 0),      SKIFF_CCL_SLOT(send, 0),
    SKIFF_CCL_SLOT(recv, 0),           SKIFF_CCL_SLOT(group_start, 0),
    SKIFF_CCL_SLOT(group_end, 0),
};
#undef SKIFF_CCL_SLOT

// The size a table has at `minor`: the end of the last member of that version.
template <size_t N>
size_t table_size_at(const FnSlot (&slots)[N], uint32_t minor) {
  size_t end = 0;
  for (const FnSlot& s : slots) {
    if (s.since_minor <= minor) end = std::max(end, s.offset + sizeof(void (*)()));
  }
  return end;
}

// Copies the plugin's `size`-byte prefix of a table into `out` (newer members stay null) and
// checks every pointer the plugin's minor version requires.
template <typename Table, size_t N>
void read_table(const std::string& path, const char* what, const void* table, uint32_t size,
                uint32_t minor, const FnSlot (&slots)[N], Table* out) {
  const size_t need = table_size_at(slots, minor);
  SKIFF_ENFORCE(size >= need, kInvalidArgument, "load_plugin", what,
                str("at least ", need, " bytes for ABI minor ", minor),
                str(size, " bytes (", path, ")"));
  std::memset(out, 0, sizeof(Table));
  std::memcpy(out, table, std::min<size_t>(size, sizeof(Table)));
  for (const FnSlot& s : slots) {
    if (!s.required || s.since_minor > minor) continue;
    void* fn = nullptr;
    std::memcpy(&fn, reinterpret_cast<const char*>(out) + s.offset, sizeof(fn));
    SKIFF_ENFORCE(fn != nullptr, kInvalidArgument, "load_plugin", str(what, ".", s.name),
                  str("a function (required by device ABI ", SKIFF_DEVICE_ABI_MAJOR, ".", minor,
                      ")"),
                  str("null in ", path));
  }
}

bool valid_type_name(const char* name) {
  if (name == nullptr || !(name[0] >= 'a' && name[0] <= 'z')) return false;
  const size_t n = std::strlen(name);
  if (n >= SKIFF_MAX_NAME) return false;
  for (size_t i = 0; i < n; ++i) {
    const char c = name[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  const std::string s(name);
  return s != "cpu" && s != "gpu" && s != "cuda";
}

constexpr int kMaxListeners = 8;

struct PluginTable {
  std::recursive_mutex mu;  // listeners may look plugins up
  std::vector<std::unique_ptr<LoadedPlugin>> plugins;
  std::array<PluginListener, kMaxListeners> listeners{};
  int num_listeners = 0;
};

PluginTable& table() {
  static PluginTable* t = new PluginTable();  // leaked: plugins are never unloaded
  return *t;
}

std::unique_ptr<LoadedPlugin> open_plugin(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = dlerror();
    SKIFF_THROW(kIOError, "load_plugin", "path", "a loadable shared library",
                str(path, " (", err ? err : "dlopen failed", ")"));
  }
  auto init = reinterpret_cast<SkiffPluginInitFn>(dlsym(handle, SKIFF_PLUGIN_INIT_SYMBOL));
  SKIFF_ENFORCE(init != nullptr, kIOError, "load_plugin", "path",
                str("a device plugin exporting ", SKIFF_PLUGIN_INIT_SYMBOL), path);
  SkiffPluginInfo info{};
  const int rc = init(SKIFF_DEVICE_ABI_MAJOR, SKIFF_DEVICE_ABI_MINOR, &info);
  SKIFF_ENFORCE(info.abi_major == SKIFF_DEVICE_ABI_MAJOR, kUnimplemented, "load_plugin",
                "abi_major",
                str("a plugin built for device ABI ", SKIFF_DEVICE_ABI_MAJOR, ".x (this Skiff is ",
                    SKIFF_DEVICE_ABI_MAJOR, ".", SKIFF_DEVICE_ABI_MINOR, ")"),
                str("ABI ", info.abi_major, ".", info.abi_minor, " in ", path));
  SKIFF_ENFORCE(rc == 0, kInvalidArgument, "load_plugin", SKIFF_PLUGIN_INIT_SYMBOL,
                "0 (success)", str(rc, " from ", path));
  SKIFF_ENFORCE(valid_type_name(info.device_type), kInvalidArgument, "load_plugin", "device_type",
                "a name of [a-z][a-z0-9_]* that is not cpu, gpu or cuda",
                str(info.device_type ? str("'", info.device_type, "'") : "null", " in ", path));
  SKIFF_ENFORCE(info.ops != nullptr, kInvalidArgument, "load_plugin", "ops", "a device table",
                str("null in ", path));
  if (info.abi_minor > SKIFF_DEVICE_ABI_MINOR) {
    SKIFF_LOG(WARNING) << "device plugin " << path << " was built for device ABI "
                       << info.abi_major << "." << info.abi_minor << "; this Skiff knows "
                       << SKIFF_DEVICE_ABI_MAJOR << "." << SKIFF_DEVICE_ABI_MINOR
                       << " and uses only those functions";
  }
  const uint32_t minor = std::min<uint32_t>(info.abi_minor, SKIFF_DEVICE_ABI_MINOR);
  auto p = std::make_unique<LoadedPlugin>();
  p->path = path;
  p->device_type = info.device_type;
  p->vendor = info.vendor ? info.vendor : "";
  p->abi_major = info.abi_major;
  p->abi_minor = info.abi_minor;
  read_table(path, "ops", info.ops, info.ops_size, minor, kDeviceSlots, &p->ops);
  if (info.ccl != nullptr) {
    read_table(path, "ccl", info.ccl, info.ccl_size, minor, kCclSlots, &p->ccl_table);
    p->ccl = &p->ccl_table;
  }
  SKIFF_ENFORCE(info.num_kernels == 0 || info.kernels != nullptr, kInvalidArgument, "load_plugin",
                "kernels", str("an array of ", info.num_kernels, " kernels"),
                str("null in ", path));
  for (uint32_t i = 0; i < info.num_kernels; ++i) {
    const SkiffKernelDef& k = info.kernels[i];
    SKIFF_ENFORCE(k.op != nullptr && k.fn != nullptr, kInvalidArgument, "load_plugin",
                  str("kernels[", i, "]"), "an op name and a function",
                  str(k.op ? k.op : "no op name", k.fn ? "" : " and no function", " in ", path));
    SKIFF_ENFORCE(k.dtype >= SKIFF_BOOL && k.dtype <= SKIFF_FLOAT64, kInvalidArgument,
                  "load_plugin", str("kernels[", i, "].dtype"), "a SkiffDType",
                  str(k.dtype, " (op ", k.op, ") in ", path));
    p->kernels.push_back(k);
  }
  return p;
}

void start_plugin(LoadedPlugin& p) {
  const SkiffDeviceOps& ops = p.ops;
  check_plugin_status(ops.init(), p.device_type, "init", ops);
  int32_t count = 0;
  check_plugin_status(ops.get_device_count(&count), p.device_type, "get_device_count", ops);
  SKIFF_ENFORCE(count >= 0 && count <= 1024, kInvalidArgument, "load_plugin", "get_device_count",
                "a device count in [0, 1024]", str(count, " from ", p.path));
  for (int32_t i = 0; i < count; ++i) {
    check_plugin_status(ops.init_device(i), p.device_type, "init_device", ops);
  }
  p.custom_type_id = register_custom_device_type(p.device_type);
  register_device(Place::custom(p.device_type, 0), make_plugin_device(p.device_type, ops, count));
}

std::vector<std::string> split_paths(const char* value) {
  std::vector<std::string> out;
  if (value == nullptr) return out;
  std::string s(value);
  size_t start = 0;
  while (start <= s.size()) {
    const size_t end = std::min(s.find(':', start), s.size());
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// A file is itself; a directory gives its lib*.so files in name order.
std::vector<std::string> plugin_files(const std::string& entry) {
  struct stat st{};
  if (stat(entry.c_str(), &st) != 0) return {};
  if (!S_ISDIR(st.st_mode)) return {entry};
  std::vector<std::string> files;
  if (DIR* dir = opendir(entry.c_str())) {
    while (dirent* e = readdir(dir)) {
      const std::string name = e->d_name;
      if (name.size() > 6 && name.rfind("lib", 0) == 0 &&
          name.compare(name.size() - 3, 3, ".so") == 0) {
        files.push_back(entry + "/" + name);
      }
    }
    closedir(dir);
  }
  std::sort(files.begin(), files.end());
  return files;
}
}  // namespace

const LoadedPlugin& load_plugin(const std::string& path) {
  auto& t = table();
  std::lock_guard<std::recursive_mutex> lock(t.mu);
  for (const auto& p : t.plugins) {
    if (p->path == path) return *p;
  }
  std::unique_ptr<LoadedPlugin> p = open_plugin(path);
  for (const auto& q : t.plugins) {
    SKIFF_ENFORCE(q->device_type != p->device_type, kInvalidArgument, "load_plugin",
                  "device_type", str("a device type not loaded yet (", q->path, " has it)"),
                  str("'", p->device_type, "' again in ", path));
  }
  start_plugin(*p);
  t.plugins.push_back(std::move(p));
  const LoadedPlugin& loaded = *t.plugins.back();
  for (int i = 0; i < t.num_listeners; ++i) t.listeners[i](loaded);
  return loaded;
}

void load_plugins_from_env() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const char* var : {"SKIFF_PLUGIN_PATH", "CUSTOM_DEVICE_ROOT"}) {
      for (const std::string& entry : split_paths(std::getenv(var))) {
        for (const std::string& file : plugin_files(entry)) {
          try {
            load_plugin(file);
          } catch (const Error& e) {
            SKIFF_LOG(WARNING) << "skipping device plugin " << file << " (from " << var
                               << "): " << e.what();
          }
        }
      }
    }
  });
}

std::vector<const LoadedPlugin*> loaded_plugins() {
  auto& t = table();
  std::lock_guard<std::recursive_mutex> lock(t.mu);
  std::vector<const LoadedPlugin*> out;
  for (const auto& p : t.plugins) out.push_back(p.get());
  return out;
}

const LoadedPlugin* plugin_of_type(int custom_type_id) {
  auto& t = table();
  std::lock_guard<std::recursive_mutex> lock(t.mu);
  for (const auto& p : t.plugins) {
    if (p->custom_type_id == custom_type_id) return p.get();
  }
  return nullptr;
}

void add_plugin_listener(PluginListener listener) {
  auto& t = table();
  std::lock_guard<std::recursive_mutex> lock(t.mu);
  for (int i = 0; i < t.num_listeners; ++i) {
    if (t.listeners[i] == listener) return;
  }
  SKIFF_ENFORCE(t.num_listeners < kMaxListeners, kInternal, "add_plugin_listener", "listener",
                str("at most ", kMaxListeners, " listeners"), "one more");
  t.listeners[t.num_listeners++] = listener;
  for (const auto& p : t.plugins) listener(*p);
}

SkiffDeviceProperties device_properties(const LoadedPlugin& p, int device_id) {
  SkiffDeviceProperties props{};
  if (p.ops.get_device_properties) {
    check_plugin_status(p.ops.get_device_properties(device_id, &props), p.device_type,
                        "get_device_properties", p.ops);
    return props;
  }
  std::snprintf(props.name, sizeof(props.name), "%s", p.device_type.c_str());
  size_t total = 0, free_bytes = 0;
  check_plugin_status(p.ops.memory_info(device_id, &total, &free_bytes), p.device_type,
                      "memory_info", p.ops);
  props.total_memory = total;
  return props;
}

}  // namespace skiff::device
