// parallel_for covers [begin, end) exactly once in disjoint chunks for every size and grain,
// and per-element results do not depend on the thread count.
#include "skiff/core/parallel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

namespace skiff {
namespace {

class ParallelTest : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = num_threads(); }
  void TearDown() override { set_num_threads(saved_); }
  int saved_ = 1;
};

TEST_F(ParallelTest, CoversTheRangeExactlyOnce) {
  const int64_t sizes[] = {0, 1, 2, 3, 7, 64, 100, 1000, 4097, 32767, 32768, 32769, 100003};
  const int64_t grains[] = {-5, 0, 1, 2, 7, 100, 1000, 32768, int64_t{1} << 40};
  for (int threads : {1, 2, 3}) {
    set_num_threads(threads);
    for (int64_t n : sizes) {
      for (int64_t grain : grains) {
        const int64_t begin = 17;
        std::vector<std::atomic<int>> hits(n);
        std::atomic<int64_t> calls{0};
        parallel_for(begin, begin + n, grain, [&](int64_t b, int64_t e) {
          EXPECT_LT(b, e);
          EXPECT_GE(b, begin);
          EXPECT_LE(e, begin + n);
          ++calls;
          for (int64_t i = b; i < e; ++i) hits[i - begin]++;
        });
        for (int64_t i = 0; i < n; ++i) {
          ASSERT_EQ(hits[i].load(), 1) << "n=" << n << " grain=" << grain << " i=" << i;
        }
        if (n == 0) {
          EXPECT_EQ(calls.load(), 0);
        }
        if (n > 0 && n <= grain) {
          EXPECT_EQ(calls.load(), 1);
        }
        EXPECT_LE(calls.load(), std::max(threads, 1));
      }
    }
  }
}

TEST_F(ParallelTest, EmptyAndReversedRangesCallNothing) {
  int calls = 0;
  parallel_for(5, 5, 1, [&](int64_t, int64_t) { ++calls; });
  parallel_for(9, 3, 1, [&](int64_t, int64_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST_F(ParallelTest, ResultsIdenticalWithOneAndTwoThreads) {
  const int64_t n = 300001;
  std::vector<double> out[2];
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    EXPECT_EQ(num_threads(), threads);
    auto& v = out[threads - 1];
    v.assign(n, 0);
    parallel_for(0, n, 1024, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) v[i] = static_cast<double>(i) * 0.5 + (i % 7);
    });
  }
  EXPECT_EQ(out[0], out[1]);
}

TEST_F(ParallelTest, ChunksAreDeterministicForAThreadCount) {
  set_num_threads(2);
  auto chunks = [] {
    std::mutex mu;
    std::vector<std::pair<int64_t, int64_t>> c;
    parallel_for(0, 100000, 10, [&](int64_t b, int64_t e) {
      std::lock_guard<std::mutex> lock(mu);
      c.emplace_back(b, e);
    });
    std::sort(c.begin(), c.end());
    return c;
  };
  const auto first = chunks();
  EXPECT_EQ(first, chunks());
  for (const auto& [b, e] : first) EXPECT_GE(e - b, 10);
}

TEST_F(ParallelTest, NestedCallsRunInline) {
  set_num_threads(2);
  EXPECT_FALSE(in_parallel_region());
  std::atomic<int64_t> total{0};
  std::atomic<int> nested_calls{0};
  parallel_for(0, 4, 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      parallel_for(0, 1000, 1, [&](int64_t nb, int64_t ne) {
        ++nested_calls;
        total += ne - nb;
      });
    }
  });
  EXPECT_EQ(total.load(), 4000);
  // Inside the parallel region each nested call runs as one chunk on the calling thread.
  EXPECT_EQ(nested_calls.load(), 4);
  set_num_threads(0);  // clamped to 1
  EXPECT_EQ(num_threads(), 1);
}

}  // namespace
}  // namespace skiff
