// Where a tensor lives: the CPU, CUDA device n, or device n of a custom (plugin) device type.
// A Place is a small value type; custom device type names are interned so Place stays trivially
// copyable and cheap to compare in the dispatch path.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace skiff {

enum class DeviceType : uint8_t { kCPU, kCUDA, kCustom };

class Place {
 public:
  constexpr Place() = default;
  static constexpr Place cpu() { return Place(DeviceType::kCPU, 0, 0); }
  static constexpr Place cuda(int device_id) { return Place(DeviceType::kCUDA, 0, device_id); }
  /// A device of a custom type registered by a plugin, e.g. custom("npu", 0).
  static Place custom(std::string_view type_name, int device_id);
  /// Parses "cpu", "gpu", "gpu:1", "cuda:0", "npu:2" (a registered custom type).
  static Place parse(std::string_view text);

  constexpr DeviceType type() const { return type_; }
  constexpr int device_id() const { return device_id_; }
  constexpr int custom_type_id() const { return custom_type_id_; }
  bool is_cpu() const { return type_ == DeviceType::kCPU; }
  bool is_cuda() const { return type_ == DeviceType::kCUDA; }
  bool is_custom() const { return type_ == DeviceType::kCustom; }
  /// "cpu", "gpu:0", "npu:1" (Paddle's spelling).
  std::string to_string() const;

  friend constexpr bool operator==(const Place& a, const Place& b) = default;

 private:
  constexpr Place(DeviceType type, int custom_type_id, int device_id)
      : type_(type),
        custom_type_id_(static_cast<uint8_t>(custom_type_id)),
        device_id_(static_cast<int16_t>(device_id)) {}

  DeviceType type_ = DeviceType::kCPU;
  uint8_t custom_type_id_ = 0;
  int16_t device_id_ = 0;
};

std::ostream& operator<<(std::ostream& os, const Place& place);

inline constexpr int kMaxCustomDeviceTypes = 8;

/// Registers (or finds) a custom device type name and returns its id in [0, 8).
int register_custom_device_type(std::string_view name);
/// Name of a registered custom device type id.
std::string custom_device_type_name(int id);

/// The kernel backend a registry lookup uses. A Place maps to one device backend; kReference is
/// the float64 oracle that runs on the CPU.
enum class Backend : uint8_t { kReference, kCPU, kCUDA, kCustom0 };
inline constexpr int kNumBackends = 3 + kMaxCustomDeviceTypes;

Backend backend_of(const Place& place);
std::string backend_name(Backend backend);
Backend parse_backend(std::string_view name);

}  // namespace skiff
