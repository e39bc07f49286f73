#include "skiff/core/dims.h"

#include "skiff/base/error.h"

namespace skiff {

namespace {
void check_rank(int64_t rank) {
  SKIFF_ENFORCE(rank <= kMaxRank, kInvalidArgument, "Dims", "rank", str("<= ", kMaxRank), rank);
}
}  // namespace

Dims::Dims(std::initializer_list<int64_t> values) : Dims(std::span<const int64_t>(values)) {}

Dims::Dims(std::span<const int64_t> values) {
  check_rank(static_cast<int64_t>(values.size()));
  std::copy(values.begin(), values.end(), data_);
  rank_ = static_cast<int>(values.size());
}

Dims Dims::filled(int rank, int64_t value) {
  check_rank(rank);
  Dims d;
  d.rank_ = rank;
  std::fill(d.data_, d.data_ + rank, value);
  return d;
}

void Dims::push_back(int64_t v) {
  check_rank(rank_ + 1);
  data_[rank_++] = v;
}

void Dims::insert(int pos, int64_t v) {
  check_rank(rank_ + 1);
  SKIFF_CHECK(pos >= 0 && pos <= rank_);
  std::copy_backward(data_ + pos, data_ + rank_, data_ + rank_ + 1);
  data_[pos] = v;
  ++rank_;
}

void Dims::erase(int pos) {
  SKIFF_CHECK(pos >= 0 && pos < rank_);
  std::copy(data_ + pos + 1, data_ + rank_, data_ + pos);
  --rank_;
}

void Dims::resize(int rank, int64_t fill) {
  check_rank(rank);
  for (int i = rank_; i < rank; ++i) data_[i] = fill;
  rank_ = rank;
}

int64_t Dims::numel() const {
  int64_t n = 1;
  for (int i = 0; i < rank_; ++i) {
    if (data_[i] < 0) return kDynamicDim;
    n *= data_[i];
  }
  return n;
}

bool Dims::has_dynamic() const {
  return std::any_of(begin(), end(), [](int64_t d) { return d < 0; });
}

std::ostream& operator<<(std::ostream& os, const Dims& dims) {
  os << '[';
  for (int i = 0; i < dims.size(); ++i) os << (i ? ", " : "") << dims[i];
  return os << ']';
}

Dims contiguous_strides(const Dims& dims) {
  Dims strides = Dims::filled(dims.size(), 1);
  int64_t acc = 1;
  for (int i = dims.size() - 1; i >= 0; --i) {
    strides[i] = acc;
    acc *= std::max<int64_t>(dims[i], 1);
  }
  return strides;
}

int normalize_axis(int64_t axis, int rank, const char* op, const char* arg) {
  const int64_t lo = rank == 0 ? -1 : -rank;
  const int64_t hi = rank == 0 ? 0 : rank - 1;
  SKIFF_ENFORCE(axis >= lo && axis <= hi, kOutOfRange, op, arg,
                str("an axis in [", lo, ", ", hi, "] for a ", rank, "-D tensor"), axis);
  return static_cast<int>(axis < 0 ? axis + std::max(rank, 1) : axis);
}

}  // namespace skiff
