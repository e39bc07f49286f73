// Counter-based random numbers (Philox4x32-10). A Generator is a (seed, offset) pair per device;
// a random op reserves a block of counters and element i draws from counter (offset + i / 4),
// so results depend only on the seed and the op order, never on the thread count.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>

#include "skiff/core/place.h"

namespace skiff {

/// Philox4x32 with 10 rounds: 4 random 32-bit words from a 128-bit counter and a 64-bit key.
std::array<uint32_t, 4> philox4x32(uint64_t counter_lo, uint64_t counter_hi, uint64_t key);

/// Uniform float in [0, 1) from 24 random bits; uniform double from 53 bits.
inline float uint_to_unit_float(uint32_t x) { return (x >> 8) * (1.0f / 16777216.0f); }
inline double uints_to_unit_double(uint32_t hi, uint32_t lo) {
  return ((static_cast<uint64_t>(hi) << 21) ^ (lo >> 11)) * (1.0 / 9007199254740992.0);
}

/// The (seed, first counter) a random kernel draws from.
struct PhiloxState {
  uint64_t seed = 0;
  uint64_t offset = 0;
};

class Generator {
 public:
  explicit Generator(uint64_t seed = 0) : seed_(seed) {}
  void manual_seed(uint64_t seed);
  uint64_t seed() const;
  uint64_t offset() const;
  /// Reserves `num_counters` counters and returns the state the kernel must use.
  PhiloxState reserve(uint64_t num_counters);
  /// Saves and restores the full state (for checkpoints and recompute).
  PhiloxState state() const;
  void set_state(PhiloxState state);

 private:
  mutable std::mutex mu_;
  uint64_t seed_;
  uint64_t offset_ = 0;
};

/// The default generator of a device, created on first use with the seed of the last
/// manual_seed_all (0 if none).
Generator& default_generator(const Place& place);
/// Seeds the default generators of every device, including those first used later (paddle.seed).
void manual_seed_all(uint64_t seed);

}  // namespace skiff
