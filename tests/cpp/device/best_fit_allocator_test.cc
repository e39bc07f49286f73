// BestFitAllocator over a fake device: reuse, best fit, split and coalesce, fragmentation,
// alignment, zero-byte requests, the out-of-memory path, statistics and concurrency.
#include "skiff/device/best_fit_allocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "skiff/base/error.h"
#include "tests/cpp/device/fake_device.h"

namespace skiff::device {
namespace {

using skiff::testing::FakeDevice;
constexpr size_t KiB = 1024, MiB = 1024 * 1024;

std::string oom_message(BestFitAllocator& a, size_t n) {
  try {
    a.allocate(n);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kOutOfMemory);
    return e.what();
  }
  return "no error";
}

#define EXPECT_HAS(msg, part) EXPECT_NE((msg).find(part), std::string::npos) << (msg)

TEST(BestFitAllocatorTest, ReusesFreedBlocksWithoutDeviceCalls) {
  FakeDevice dev;
  BestFitAllocator a(&dev, Place::cpu(), 1 * MiB);
  void* p = a.allocate(1000);
  EXPECT_EQ(dev.alloc_calls, 1);
  a.deallocate(p);
  void* q = a.allocate(1000);
  EXPECT_EQ(q, p);
  void* r = a.allocate(5000);  // carved from the same chunk
  EXPECT_EQ(dev.alloc_calls, 1);
  EXPECT_EQ(a.num_chunks(), 1u);
  EXPECT_EQ(a.stats().num_allocs, 3);
  EXPECT_EQ(a.stats().num_device_allocs, 1);
  a.deallocate(q);
  a.deallocate(r);
  a.deallocate(nullptr);  // a no-op
  EXPECT_EQ(a.stats().allocated_bytes, 0);
}

TEST(BestFitAllocatorTest, AlignmentAndZeroBytes) {
  FakeDevice dev;
  BestFitAllocator a(&dev, Place::cpu(), 256 * KiB);
  std::mt19937 rng(3);
  std::vector<std::pair<char*, size_t>> blocks;
  for (int i = 0; i < 500; ++i) {
    const size_t n = rng() % 5000;
    auto* p = static_cast<char*>(a.allocate(n));
    ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % Allocator::kAlignment, 0u) << n;
    std::memset(p, 0xab, n);
    blocks.emplace_back(p, n);
  }
  std::sort(blocks.begin(), blocks.end());
  for (size_t i = 1; i < blocks.size(); ++i) {
    ASSERT_GE(blocks[i].first, blocks[i - 1].first + blocks[i - 1].second) << "overlap";
  }
  for (auto& [p, n] : blocks) a.deallocate(p);

  void* z1 = a.allocate(0);
  void* z2 = a.allocate(0);
  EXPECT_NE(z1, nullptr);
  EXPECT_NE(z1, z2);
  EXPECT_EQ(a.stats().allocated_bytes, static_cast<int64_t>(2 * Allocator::kAlignment));
  a.deallocate(z1);
  a.deallocate(z2);
  EXPECT_EQ(a.stats().allocated_bytes, 0);
}

TEST(BestFitAllocatorTest, ChoosesTheSmallestFreeBlockThatFits) {
  FakeDevice dev;
  BestFitAllocator a(&dev, Place::cpu(), 1 * MiB);
  void* b4096 = a.allocate(4096);
  void* sep1 = a.allocate(64);
  void* b2048 = a.allocate(2048);
  void* sep2 = a.allocate(64);
  void* b3072 = a.allocate(3072);
  void* sep3 = a.allocate(64);
  a.deallocate(b4096);
  a.deallocate(b2048);
  a.deallocate(b3072);
  EXPECT_EQ(a.num_free_blocks(), 4u);  // three holes and the chunk's tail
  EXPECT_EQ(a.allocate(2000), b2048);  // exact fit after rounding to 2048
  EXPECT_EQ(a.allocate(2100), b3072);  // 2112 fits 3072 better than 4096 or the tail
  EXPECT_EQ(a.allocate(4000), b4096);
  EXPECT_EQ(dev.alloc_calls, 1);
  for (void* p : {b4096, sep1, b2048, sep2, b3072, sep3}) a.deallocate(p);
  EXPECT_EQ(a.stats().allocated_bytes, 0);  // the destructor then returns the idle chunk
}

TEST(BestFitAllocatorTest, SplitsAndCoalescesBackToOneIdleChunk) {
  for (int order = 0; order < 6; ++order) {
    FakeDevice dev;
    BestFitAllocator a(&dev, Place::cpu(), 1 * MiB);
    void* p[3] = {a.allocate(256 * KiB), a.allocate(256 * KiB), a.allocate(256 * KiB)};
    EXPECT_EQ(static_cast<char*>(p[1]) - static_cast<char*>(p[0]), 256 * KiB);  // split
    EXPECT_EQ(a.num_free_blocks(), 1u);
    int idx[3] = {0, 1, 2};
    for (int k = 0; k < order; ++k) std::next_permutation(idx, idx + 3);
    a.deallocate(p[idx[0]]);
    a.deallocate(p[idx[1]]);
    a.release_idle();  // one block still in use: the chunk stays
    EXPECT_EQ(a.num_chunks(), 1u);
    EXPECT_EQ(dev.dealloc_calls, 0);
    a.deallocate(p[idx[2]]);
    EXPECT_EQ(a.num_free_blocks(), 1u) << "free neighbours merge, order " << order;
    const AllocatorStats s = a.stats();
    EXPECT_EQ(s.allocated_bytes, 0);
    EXPECT_EQ(s.reserved_bytes, static_cast<int64_t>(1 * MiB));
    a.release_idle();
    EXPECT_EQ(a.num_chunks(), 0u);
    EXPECT_EQ(a.num_free_blocks(), 0u);
    EXPECT_EQ(dev.dealloc_calls, 1);
    EXPECT_EQ(dev.bad_deallocs, 0);
    EXPECT_EQ(a.stats().reserved_bytes, 0);
  }
}

TEST(BestFitAllocatorTest, SmallRemaindersAreNotSplitOff) {
  FakeDevice dev;
  BestFitAllocator a(&dev, Place::cpu(), 4 * KiB);
  void* p = a.allocate(4 * KiB - 256);  // a 256-byte tail would be a useless sliver
  EXPECT_EQ(a.num_free_blocks(), 0u);
  EXPECT_EQ(a.stats().allocated_bytes, static_cast<int64_t>(4 * KiB));
  a.deallocate(p);
  EXPECT_EQ(a.num_free_blocks(), 1u);
}

TEST(BestFitAllocatorTest, Fragmentation) {
  FakeDevice dev;
  BestFitAllocator a(&dev, Place::cpu(), 1 * MiB);
  std::vector<void*> p;
  for (int i = 0; i < 16; ++i) p.push_back(a.allocate(64 * KiB));  // fills the chunk
  EXPECT_EQ(a.num_chunks(), 1u);
  EXPECT_EQ(a.num_free_blocks(), 0u);
  for (int i = 0; i < 16; i += 2) a.deallocate(p[i]);
  EXPECT_EQ(a.num_free_blocks(), 8u);  // 512 KiB free, but no 128 KiB hole
  void* big = a.allocate(128 * KiB);
  EXPECT_EQ(a.num_chunks(), 2u);
  EXPECT_EQ(dev.alloc_calls, 2);
  // The holes still serve requests that fit them.
  void* small = a.allocate(64 * KiB);
  EXPECT_EQ(small, p[0]);
  EXPECT_EQ(dev.alloc_calls, 2);
  a.deallocate(small);
  for (int i = 1; i < 16; i += 2) a.deallocate(p[i]);
  EXPECT_EQ(a.num_free_blocks(), 2u);  // the first chunk whole again, the second's tail
  a.release_idle();
  EXPECT_EQ(a.num_chunks(), 1u);
  a.deallocate(big);
  a.release_idle();
  EXPECT_EQ(a.num_chunks(), 0u);
  EXPECT_EQ(dev.live.size(), 0u);
}

TEST(BestFitAllocatorTest, RequestsAboveTheChunkSizeGetTheirOwnChunk) {
  FakeDevice dev;
  BestFitAllocator a(&dev, Place::cpu(), 1 * MiB);
  void* p = a.allocate(3 * MiB + 1);
  EXPECT_EQ(a.stats().reserved_bytes, static_cast<int64_t>(3 * MiB + 64));
  EXPECT_EQ(dev.live.begin()->second, 3 * MiB + 64);
  a.deallocate(p);
  a.release_idle();
  EXPECT_EQ(dev.bad_deallocs, 0);
  EXPECT_EQ(dev.live.size(), 0u);
}

TEST(BestFitAllocatorTest, OutOfMemoryReleasesIdleChunksAndRetries) {
  FakeDevice dev(2 * MiB + 512 * KiB);
  BestFitAllocator a(&dev, Place::cpu(), 1 * MiB);
  void* p = a.allocate(1 * MiB);    // chunk 1, fully used
  void* q = a.allocate(512 * KiB);  // chunk 2, half used
  a.deallocate(p);                  // chunk 1 idle
  EXPECT_EQ(a.num_chunks(), 2u);
  void* r = a.allocate(1536 * KiB);  // fits nowhere; the device is full until chunk 1 goes
  EXPECT_NE(r, nullptr);
  EXPECT_EQ(dev.failed_allocs, 1);
  EXPECT_EQ(dev.dealloc_calls, 1);
  EXPECT_EQ(a.num_chunks(), 2u);
  a.deallocate(q);
  a.deallocate(r);
}

TEST(BestFitAllocatorTest, OutOfMemoryFallsBackToAnExactSizeChunk) {
  FakeDevice dev(1 * MiB + 256 * KiB);
  BestFitAllocator a(&dev, Place::cpu(), 1 * MiB);
  void* p = a.allocate(1 * MiB);
  void* q = a.allocate(100 * KiB);  // a 1 MiB chunk no longer fits; 100 KiB does
  EXPECT_EQ(a.stats().reserved_bytes, static_cast<int64_t>(1 * MiB + 100 * KiB));
  a.deallocate(p);
  a.deallocate(q);
}

TEST(BestFitAllocatorTest, OutOfMemoryErrorNamesAllocatorAndSizes) {
  FakeDevice dev(2 * MiB);
  BestFitAllocator a(&dev, Place::cpu(), 1 * MiB);
  void* p = a.allocate(1000);
  const std::string msg = oom_message(a, 4 * MiB);
  EXPECT_HAS(msg, "allocator");
  EXPECT_HAS(msg, "'nbytes'");
  EXPECT_HAS(msg, "4194304 bytes requested");
  EXPECT_HAS(msg, "allocated 1024 bytes");
  EXPECT_HAS(msg, "reserved 1048576 bytes");
  EXPECT_HAS(msg, "cpu");
  // The allocator stays usable after the failure.
  void* q = a.allocate(512 * KiB);
  a.deallocate(p);
  a.deallocate(q);
  EXPECT_EQ(a.stats().allocated_bytes, 0);
  dev.fail_all = true;
  EXPECT_HAS(oom_message(a, 2 * MiB), "2097152 bytes requested");
  // A request so large that rounding would wrap around is refused, not served with 64 bytes.
  dev.fail_all = false;
  EXPECT_HAS(oom_message(a, SIZE_MAX), std::to_string(SIZE_MAX) + " bytes requested");
  EXPECT_HAS(oom_message(a, SIZE_MAX - 10), std::to_string(SIZE_MAX - 10) + " bytes requested");
  EXPECT_EQ(a.stats().allocated_bytes, 0);
}

TEST(BestFitAllocatorTest, UnknownPointerIsAnError) {
  FakeDevice dev;
  BestFitAllocator a(&dev, Place::cpu(), 1 * MiB);
  int x = 0;
  try {
    a.deallocate(&x);
    FAIL();
  } catch (const Error& e) {
    EXPECT_HAS(std::string(e.what()), "allocator: argument 'ptr'");
  }
  void* p = a.allocate(10);
  a.deallocate(p);
  EXPECT_THROW(a.deallocate(p), Error);  // double free
}

TEST(BestFitAllocatorTest, Statistics) {
  FakeDevice dev;
  BestFitAllocator a(&dev, Place::cpu(), 1 * MiB);
  AllocatorStats s = a.stats();
  EXPECT_EQ(s.allocated_bytes, 0);
  EXPECT_EQ(s.reserved_bytes, 0);
  void* p = a.allocate(1000);  // 1024 after rounding
  void* q = a.allocate(3000);  // 3008
  s = a.stats();
  EXPECT_EQ(s.allocated_bytes, 4032);
  EXPECT_EQ(s.peak_allocated_bytes, 4032);
  EXPECT_EQ(s.reserved_bytes, static_cast<int64_t>(1 * MiB));
  EXPECT_EQ(s.peak_reserved_bytes, static_cast<int64_t>(1 * MiB));
  a.deallocate(q);
  s = a.stats();
  EXPECT_EQ(s.allocated_bytes, 1024);
  EXPECT_EQ(s.peak_allocated_bytes, 4032);
  void* big = a.allocate(2 * MiB);
  a.deallocate(big);
  a.release_idle();
  s = a.stats();
  EXPECT_EQ(s.reserved_bytes, static_cast<int64_t>(1 * MiB));
  EXPECT_EQ(s.peak_reserved_bytes, static_cast<int64_t>(3 * MiB));
  EXPECT_EQ(s.peak_allocated_bytes, static_cast<int64_t>(2 * MiB + 1024));
  a.reset_peak_stats();
  s = a.stats();
  EXPECT_EQ(s.peak_allocated_bytes, 1024);
  EXPECT_EQ(s.peak_reserved_bytes, static_cast<int64_t>(1 * MiB));
  EXPECT_EQ(s.num_allocs, 3);
  EXPECT_EQ(s.num_device_allocs, 2);
  a.deallocate(p);
  EXPECT_EQ(a.stats().allocated_bytes, 0);
  EXPECT_EQ(a.place(), Place::cpu());
}

TEST(BestFitAllocatorTest, DestructorReturnsIdleChunks) {
  FakeDevice dev;
  {
    BestFitAllocator a(&dev, Place::cpu(), 64 * KiB);
    std::vector<void*> p;
    for (int i = 0; i < 10; ++i) p.push_back(a.allocate(40 * KiB));
    for (void* x : p) a.deallocate(x);
  }
  EXPECT_EQ(dev.alloc_calls, dev.dealloc_calls);
  EXPECT_EQ(dev.live.size(), 0u);
  EXPECT_EQ(dev.bad_deallocs, 0);
}

TEST(BestFitAllocatorTest, ConcurrentAllocateAndFree) {
  FakeDevice dev;
  BestFitAllocator a(&dev, Place::cpu(), 256 * KiB);
  constexpr int kThreads = 4, kIters = 3000;
  std::vector<std::thread> threads;
  std::atomic<int> corrupted{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(100 + t);
      std::vector<std::pair<unsigned char*, size_t>> live;
      for (int i = 0; i < kIters; ++i) {
        if (live.size() < 16 && (live.empty() || rng() % 3 != 0)) {
          const size_t n = 1 + rng() % (rng() % 8 == 0 ? 300 * KiB : 4 * KiB);
          auto* p = static_cast<unsigned char*>(a.allocate(n));
          std::memset(p, t + 1, n);
          live.emplace_back(p, n);
        } else {
          const size_t k = rng() % live.size();
          auto [p, n] = live[k];
          for (size_t j = 0; j < n; j += 61) corrupted += p[j] != t + 1;
          a.deallocate(p);
          live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
        }
      }
      for (auto [p, n] : live) a.deallocate(p);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(corrupted.load(), 0) << "two live blocks overlapped";
  const AllocatorStats s = a.stats();
  EXPECT_EQ(s.allocated_bytes, 0);
  EXPECT_GT(s.peak_allocated_bytes, 0);
  a.release_idle();
  EXPECT_EQ(a.num_chunks(), 0u);
  EXPECT_EQ(a.stats().reserved_bytes, 0);
  EXPECT_EQ(dev.alloc_calls, dev.dealloc_calls);
  EXPECT_EQ(dev.bad_deallocs, 0);
}

}  // namespace
}  // namespace skiff::device
