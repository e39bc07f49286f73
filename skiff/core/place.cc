#include "skiff/core/place.h"

#include <array>
#include <charconv>
#include <limits>
#include <mutex>

#include "skiff/base/error.h"

namespace skiff {

namespace {
struct CustomTypeTable {
  std::mutex mu;
  std::array<std::string, kMaxCustomDeviceTypes> names;
  int count = 0;
};
CustomTypeTable& custom_types() {
  static CustomTypeTable table;
  return table;
}

int find_custom_type(std::string_view name) {
  auto& t = custom_types();
  std::lock_guard<std::mutex> lock(t.mu);
  for (int i = 0; i < t.count; ++i) {
    if (t.names[i] == name) return i;
  }
  return -1;
}
}  // namespace

int register_custom_device_type(std::string_view name) {
  SKIFF_ENFORCE(name != "cpu" && name != "gpu" && name != "cuda" && !name.empty(), kInvalidArgument,
                "register_custom_device_type", "name", "a new device type name",
                str("'", name, "'"));
  auto& t = custom_types();
  std::lock_guard<std::mutex> lock(t.mu);
  for (int i = 0; i < t.count; ++i) {
    if (t.names[i] == name) return i;
  }
  SKIFF_ENFORCE(t.count < kMaxCustomDeviceTypes, kOutOfRange, "register_custom_device_type", "name",
                str("at most ", kMaxCustomDeviceTypes, " custom device types"),
                str("'", name, "' as one more"));
  t.names[t.count] = std::string(name);
  return t.count++;
}

std::string custom_device_type_name(int id) {
  auto& t = custom_types();
  std::lock_guard<std::mutex> lock(t.mu);
  SKIFF_ENFORCE(id >= 0 && id < t.count, kOutOfRange, "custom_device_type_name", "id",
                str("< ", t.count), id);
  return t.names[id];
}

Place Place::custom(std::string_view type_name, int device_id) {
  const int id = find_custom_type(type_name);
  SKIFF_ENFORCE(id >= 0, kNotFound, "Place", "type_name", "a registered custom device type",
                str("'", type_name, "'"));
  return Place(DeviceType::kCustom, id, device_id);
}

Place Place::parse(std::string_view text) {
  std::string_view type = text;
  int index = 0;
  if (auto colon = text.find(':'); colon != std::string_view::npos) {
    type = text.substr(0, colon);
    auto digits = text.substr(colon + 1);
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    // The index is stored in 16 bits: a larger one would silently wrap to another device.
    SKIFF_ENFORCE(ec == std::errc() && ptr == digits.data() + digits.size() && index >= 0 &&
                      index <= std::numeric_limits<int16_t>::max(),
                  kInvalidArgument, "Place", "device", "'type:index' with 0 <= index <= 32767",
                  str("'", text, "'"));
  }
  if (type == "cpu") return cpu();
  if (type == "gpu" || type == "cuda") return cuda(index);
  return custom(type, index);
}

std::string Place::to_string() const {
  switch (type_) {
    case DeviceType::kCPU:
      return "cpu";
    case DeviceType::kCUDA:
      return str("gpu:", device_id_);
    case DeviceType::kCustom:
      return str(custom_device_type_name(custom_type_id_), ":", device_id_);
  }
  return "unknown";
}

std::ostream& operator<<(std::ostream& os, const Place& place) { return os << place.to_string(); }

Backend backend_of(const Place& place) {
  switch (place.type()) {
    case DeviceType::kCPU:
      return Backend::kCPU;
    case DeviceType::kCUDA:
      return Backend::kCUDA;
    case DeviceType::kCustom:
      return static_cast<Backend>(static_cast<int>(Backend::kCustom0) + place.custom_type_id());
  }
  return Backend::kCPU;
}

std::string backend_name(Backend backend) {
  switch (backend) {
    case Backend::kReference:
      return "reference";
    case Backend::kCPU:
      return "cpu";
    case Backend::kCUDA:
      return "cuda";
    default:
      break;
  }
  return custom_device_type_name(static_cast<int>(backend) - static_cast<int>(Backend::kCustom0));
}

Backend parse_backend(std::string_view name) {
  if (name == "reference") return Backend::kReference;
  if (name == "cpu") return Backend::kCPU;
  if (name == "cuda" || name == "gpu") return Backend::kCUDA;
  const int id = find_custom_type(name);
  SKIFF_ENFORCE(id >= 0, kNotFound, "backend", "name",
                "reference, cpu, cuda or a registered custom device type", str("'", name, "'"));
  return static_cast<Backend>(static_cast<int>(Backend::kCustom0) + id);
}

}  // namespace skiff
