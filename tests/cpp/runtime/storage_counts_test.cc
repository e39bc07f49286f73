// The executor's flat live-buffer table against std::map, through inserts, updates and erases
// that exercise wrap-around probe runs and backward-shift deletion.
#include "skiff/runtime/executor/storage_counts.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace skiff::testing {
namespace {

TEST(StorageCounts, MatchesAMapThroughInsertsAndErases) {
  // Fake storage addresses: only their identity is used.
  std::vector<char> arena(4096);
  auto key = [&](size_t i) { return reinterpret_cast<const Storage*>(arena.data() + i); };
  executor::StorageCounts table;
  table.reset(4);  // small: the table grows and probe runs wrap around
  std::map<const Storage*, int> want;
  std::mt19937 rng(5);
  for (int step = 0; step < 20000; ++step) {
    const Storage* k = key(rng() % 300);
    if (rng() % 3 == 0) {
      table.erase(k);
      want.erase(k);
    } else {
      const int v = static_cast<int>(rng() % 7) - 1;
      table.at(k) = v;
      want[k] = v;
    }
    if (step % 97 == 0) {
      for (size_t i = 0; i < 300; ++i) {
        int* got = table.find(key(i));
        auto it = want.find(key(i));
        ASSERT_EQ(got != nullptr, it != want.end()) << "step " << step << " key " << i;
        if (got) {
          ASSERT_EQ(*got, it->second) << "step " << step << " key " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace skiff::testing
