// A shape (or a set of strides): up to kMaxRank int64 values stored inline, so tensor metadata
// never allocates on the op dispatch path. A dim of -1 means "unknown until run time" in
// infer-meta for symbolic (captured) tensors; eager tensors always have concrete dims.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <span>
#include <vector>

namespace skiff {

inline constexpr int kMaxRank = 9;
inline constexpr int64_t kDynamicDim = -1;

class Dims {
 public:
  Dims() = default;
  Dims(std::initializer_list<int64_t> values);
  explicit Dims(std::span<const int64_t> values);
  Dims(const std::vector<int64_t>& values) : Dims(std::span<const int64_t>(values)) {}
  /// `rank` copies of `value`.
  static Dims filled(int rank, int64_t value);

  int size() const { return rank_; }
  bool empty() const { return rank_ == 0; }
  int64_t& operator[](int i) { return data_[i]; }
  int64_t operator[](int i) const { return data_[i]; }
  int64_t* begin() { return data_; }
  int64_t* end() { return data_ + rank_; }
  const int64_t* begin() const { return data_; }
  const int64_t* end() const { return data_ + rank_; }
  const int64_t* data() const { return data_; }
  int64_t back() const { return data_[rank_ - 1]; }

  void push_back(int64_t v);
  void insert(int pos, int64_t v);
  void erase(int pos);
  void resize(int rank, int64_t fill = 0);

  /// Product of all dims (1 for rank 0); -1 if any dim is dynamic.
  int64_t numel() const;
  bool has_dynamic() const;
  std::vector<int64_t> to_vector() const { return {begin(), end()}; }
  std::span<const int64_t> span() const { return {data_, static_cast<size_t>(rank_)}; }

  friend bool operator==(const Dims& a, const Dims& b) {
    return a.rank_ == b.rank_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  int64_t data_[kMaxRank] = {};
  int rank_ = 0;
};

std::ostream& operator<<(std::ostream& os, const Dims& dims);

/// Row-major (C-contiguous) strides for `dims`, in elements.
Dims contiguous_strides(const Dims& dims);

/// Normalizes a possibly negative axis into [0, rank); throws an OutOfRange error naming `op`.
int normalize_axis(int64_t axis, int rank, const char* op, const char* arg = "axis");

}  // namespace skiff
