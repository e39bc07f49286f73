// The executor's live-buffer accounting: how many slot handles hold each storage during a run,
// in one flat open-addressing table (linear probing, backward-shift erase), so that storing or
// dropping a value costs no allocation. A negative count marks a storage the run does not own
// (inputs, parameters, constants): never counted as live.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "skiff/core/storage.h"

namespace skiff::executor {

class StorageCounts {
 public:
  /// Empties the table, sized for about `expected` storages.
  void reset(size_t expected) {
    size_t cap = 16;
    while (cap < 2 * expected) cap <<= 1;
    entries_.assign(cap, Entry{});
    size_ = 0;
  }

  /// The count of `s`, inserted as 0 when absent.
  int& at(const Storage* s) {
    if (2 * (size_ + 1) > entries_.size()) grow();
    size_t i = home(s);
    while (entries_[i].key != nullptr && entries_[i].key != s) i = next(i);
    if (entries_[i].key == nullptr) {
      entries_[i] = {s, 0};
      ++size_;
    }
    return entries_[i].count;
  }

  /// The count of `s`, or null when absent.
  int* find(const Storage* s) {
    if (entries_.empty()) return nullptr;
    for (size_t i = home(s);; i = next(i)) {
      if (entries_[i].key == s) return &entries_[i].count;
      if (entries_[i].key == nullptr) return nullptr;
    }
  }

  void erase(const Storage* s) {
    size_t i = home(s);
    while (entries_[i].key != s) {
      if (entries_[i].key == nullptr) return;
      i = next(i);
    }
    // Backward shift: move later entries of the probe run into the hole.
    for (size_t j = next(i);; j = next(j)) {
      if (entries_[j].key == nullptr) break;
      const size_t h = home(entries_[j].key);
      const bool movable = i <= j ? (h <= i || h > j) : (h <= i && h > j);
      if (movable) {
        entries_[i] = entries_[j];
        i = j;
      }
    }
    entries_[i] = Entry{};
    --size_;
  }

 private:
  struct Entry {
    const Storage* key = nullptr;
    int count = 0;
  };
  size_t home(const Storage* s) const {
    return (std::hash<const void*>{}(s)*0x9E3779B97F4A7C15ull >> 7) & (entries_.size() - 1);
  }
  size_t next(size_t i) const { return (i + 1) & (entries_.size() - 1); }
  void grow() {
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(old.empty() ? 16 : old.size() * 2, Entry{});
    size_ = 0;
    for (const Entry& e : old) {
      if (e.key != nullptr) at(e.key) = e.count;
    }
  }

  std::vector<Entry> entries_;
  size_t size_ = 0;
};

}  // namespace skiff::executor
