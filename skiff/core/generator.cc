#include "skiff/core/generator.h"

#include <map>
#include <memory>

namespace skiff {

std::array<uint32_t, 4> philox4x32(uint64_t counter_lo, uint64_t counter_hi, uint64_t key) {
  constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
  constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  uint32_t c0 = static_cast<uint32_t>(counter_lo), c1 = static_cast<uint32_t>(counter_lo >> 32);
  uint32_t c2 = static_cast<uint32_t>(counter_hi), c3 = static_cast<uint32_t>(counter_hi >> 32);
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = static_cast<uint64_t>(kMul0) * c0;
    const uint64_t p1 = static_cast<uint64_t>(kMul1) * c2;
    const uint32_t n0 = static_cast<uint32_t>(p1 >> 32) ^ c1 ^ k0;
    const uint32_t n2 = static_cast<uint32_t>(p0 >> 32) ^ c3 ^ k1;
    c0 = n0;
    c1 = static_cast<uint32_t>(p1);
    c2 = n2;
    c3 = static_cast<uint32_t>(p0);
    k0 += kWeyl0;
    k1 += kWeyl1;
  }
  return {c0, c1, c2, c3};
}

void Generator::manual_seed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(mu_);
  seed_ = seed;
  offset_ = 0;
}

uint64_t Generator::seed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return seed_;
}

uint64_t Generator::offset() const {
  std::lock_guard<std::mutex> lock(mu_);
  return offset_;
}

PhiloxState Generator::reserve(uint64_t num_counters) {
  std::lock_guard<std::mutex> lock(mu_);
  PhiloxState s{seed_, offset_};
  offset_ += num_counters;
  return s;
}

PhiloxState Generator::state() const {
  std::lock_guard<std::mutex> lock(mu_);
  return {seed_, offset_};
}

void Generator::set_state(PhiloxState state) {
  std::lock_guard<std::mutex> lock(mu_);
  seed_ = state.seed;
  offset_ = state.offset;
}

namespace {
struct GeneratorTable {
  std::mutex mu;
  // Keyed by the place's text form: deterministic order, one entry per device.
  std::map<std::string, std::unique_ptr<Generator>> generators;
  uint64_t seed = 0;  // of manual_seed_all, for generators created afterwards
};
GeneratorTable& generator_table() {
  static GeneratorTable table;
  return table;
}
}  // namespace

Generator& default_generator(const Place& place) {
  auto& t = generator_table();
  std::lock_guard<std::mutex> lock(t.mu);
  auto& g = t.generators[place.to_string()];
  if (!g) g = std::make_unique<Generator>(t.seed);
  return *g;
}

void manual_seed_all(uint64_t seed) {
  default_generator(Place::cpu());  // make sure the CPU generator exists
  auto& t = generator_table();
  std::lock_guard<std::mutex> lock(t.mu);
  t.seed = seed;
  for (auto& [name, g] : t.generators) g->manual_seed(seed);
}

}  // namespace skiff
