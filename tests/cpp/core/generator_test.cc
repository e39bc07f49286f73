// Philox4x32-10 against Random123's known-answer vectors, generator state semantics, and the
// unit-interval mappings. The three vectors were recomputed with an independent Python
// implementation (key bumped before rounds 2..10, as in Random123) before being used here.
#include "skiff/core/generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "skiff/core/parallel.h"

namespace skiff {
namespace {

std::array<uint32_t, 4> philox_words(std::array<uint32_t, 4> ctr, std::array<uint32_t, 2> key) {
  const uint64_t lo = ctr[0] | static_cast<uint64_t>(ctr[1]) << 32;
  const uint64_t hi = ctr[2] | static_cast<uint64_t>(ctr[3]) << 32;
  return philox4x32(lo, hi, key[0] | static_cast<uint64_t>(key[1]) << 32);
}

TEST(PhiloxTest, KnownAnswerVectors) {
  // Random123 kat_vectors: "philox4x32 10 <ctr x4> <key x2> <expected x4>".
  using A4 = std::array<uint32_t, 4>;
  EXPECT_EQ(philox_words({0, 0, 0, 0}, {0, 0}),
            (A4{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(
      philox_words({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
      (A4{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(
      philox_words({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
      (A4{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(PhiloxTest, EveryInputWordMatters) {
  const auto base = philox4x32(0, 0, 0);
  EXPECT_NE(philox4x32(1, 0, 0), base);
  EXPECT_NE(philox4x32(uint64_t{1} << 32, 0, 0), base);
  EXPECT_NE(philox4x32(0, 1, 0), base);
  EXPECT_NE(philox4x32(0, uint64_t{1} << 32, 0), base);
  EXPECT_NE(philox4x32(0, 0, 1), base);
  EXPECT_NE(philox4x32(0, 0, uint64_t{1} << 32), base);
  EXPECT_EQ(philox4x32(5, 6, 7), philox4x32(5, 6, 7));
}

TEST(GeneratorTest, ReserveAdvancesTheOffset) {
  Generator g(42);
  EXPECT_EQ(g.seed(), 42u);
  EXPECT_EQ(g.offset(), 0u);
  PhiloxState s = g.reserve(10);
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.offset, 0u);
  s = g.reserve(5);
  EXPECT_EQ(s.offset, 10u);
  EXPECT_EQ(g.offset(), 15u);
  s = g.reserve(0);
  EXPECT_EQ(s.offset, 15u);
  EXPECT_EQ(g.offset(), 15u);
  g.manual_seed(7);
  EXPECT_EQ(g.seed(), 7u);
  EXPECT_EQ(g.offset(), 0u);
  EXPECT_EQ(Generator().seed(), 0u);
}

TEST(GeneratorTest, StateSaveAndRestoreReproduces) {
  Generator g(123);
  g.reserve(3);
  const PhiloxState saved = g.state();
  EXPECT_EQ(saved.seed, 123u);
  EXPECT_EQ(saved.offset, 3u);
  const PhiloxState first = g.reserve(8);
  g.reserve(100);
  g.set_state(saved);
  const PhiloxState again = g.reserve(8);
  EXPECT_EQ(again.seed, first.seed);
  EXPECT_EQ(again.offset, first.offset);
  Generator other;
  other.set_state({9, 77});
  EXPECT_EQ(other.seed(), 9u);
  EXPECT_EQ(other.offset(), 77u);
}

TEST(GeneratorTest, ConcurrentReservesAreDisjoint) {
  Generator g(1);
  std::vector<uint64_t> offsets(8 * 1000);
#pragma omp parallel for num_threads(2)
  for (int i = 0; i < 8000; ++i) offsets[i] = g.reserve(3).offset;
  std::sort(offsets.begin(), offsets.end());
  for (int i = 0; i < 8000; ++i) ASSERT_EQ(offsets[i], 3u * i);
}

TEST(GeneratorTest, DefaultGeneratorsAndManualSeedAll) {
  Generator& cpu = default_generator(Place::cpu());
  EXPECT_EQ(&cpu, &default_generator(Place::cpu()));
  Generator& gpu1 = default_generator(Place::cuda(1));  // needs no device: just a state
  EXPECT_NE(&cpu, &gpu1);
  cpu.reserve(10);
  gpu1.reserve(20);
  manual_seed_all(2024);
  EXPECT_EQ(cpu.seed(), 2024u);
  EXPECT_EQ(cpu.offset(), 0u);
  EXPECT_EQ(gpu1.seed(), 2024u);
  EXPECT_EQ(gpu1.offset(), 0u);
  // A device first used after paddle.seed() starts from that seed too.
  Generator& late = default_generator(Place::cuda(6));
  EXPECT_EQ(late.seed(), 2024u);
  EXPECT_EQ(late.offset(), 0u);
  manual_seed_all(5);
  EXPECT_EQ(late.seed(), 5u);
  EXPECT_EQ(default_generator(Place::cuda(7)).seed(), 5u);
}

TEST(GeneratorTest, UnitIntervalMappings) {
  EXPECT_EQ(uint_to_unit_float(0), 0.0f);
  EXPECT_EQ(uint_to_unit_float(0xff), 0.0f);  // only the top 24 bits count
  EXPECT_EQ(uint_to_unit_float(0x100), 1.0f / 16777216.0f);
  EXPECT_LT(uint_to_unit_float(0xffffffffu), 1.0f);
  EXPECT_EQ(uint_to_unit_float(0xffffffffu), 1.0f - 1.0f / 16777216.0f);
  EXPECT_EQ(uint_to_unit_float(0x80000000u), 0.5f);
  EXPECT_EQ(uints_to_unit_double(0, 0), 0.0);
  EXPECT_EQ(uints_to_unit_double(0xffffffffu, 0xffffffffu), 1.0 - 0x1p-53);
  EXPECT_LT(uints_to_unit_double(0xffffffffu, 0xffffffffu), 1.0);
  EXPECT_EQ(uints_to_unit_double(0, 0x800u), 0x1p-53);
}

// A uniform kernel written the documented way (element i uses counter offset + i / 4, word
// i % 4) gives the same numbers whatever the thread count, and looks uniform.
std::vector<float> uniform(uint64_t seed, uint64_t offset, int64_t n) {
  std::vector<float> out(n);
  parallel_for(0, n, 1000, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const auto w = philox4x32(offset + static_cast<uint64_t>(i) / 4, 0, seed);
      out[i] = uint_to_unit_float(w[i % 4]);
    }
  });
  return out;
}

TEST(GeneratorTest, SameNumbersWithOneAndTwoThreads) {
  const int saved = num_threads();
  Generator g(99);
  const int64_t n = 200003;
  const PhiloxState s = g.reserve((n + 3) / 4);
  set_num_threads(1);
  const auto one = uniform(s.seed, s.offset, n);
  set_num_threads(2);
  const auto two = uniform(s.seed, s.offset, n);
  set_num_threads(saved);
  EXPECT_EQ(one, two);
  double sum = 0;
  int64_t low = 0;
  for (float v : one) {
    ASSERT_GE(v, 0.0f);
    ASSERT_LT(v, 1.0f);
    sum += v;
    low += v < 0.25f;
  }
  EXPECT_NEAR(sum / n, 0.5, 0.005);
  EXPECT_NEAR(static_cast<double>(low) / n, 0.25, 0.005);
  const PhiloxState next = g.reserve(1);
  EXPECT_NE(uniform(next.seed, next.offset, 8), std::vector<float>(one.begin(), one.begin() + 8));
}

}  // namespace
}  // namespace skiff
