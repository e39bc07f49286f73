#include "skiff/core/dims.h"

#include "skiff/base/error.h"
#include "skiff/core/shape_math.h"

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
  bool overflow = false, zero = false;
  for (int i = 0; i < rank_; ++i) {
    if (data_[i] < 0) return kDynamicDim;
    zero = zero || data_[i] == 0;
    overflow = mul_overflows(n, data_[i], &n) || overflow;
  }
  // A zero dim makes the count 0 even when an earlier partial product overflowed.
  if (zero) return 0;
  SKIFF_ENFORCE(!overflow, kInvalidArgument, "shape", "dims",
                "a shape whose element count fits in int64", *this);
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
    // The last product is never a stride: only the ones before it must fit.
    if (i > 0) {
      SKIFF_ENFORCE(!mul_overflows(acc, std::max<int64_t>(dims[i], 1), &acc), kInvalidArgument,
                    "shape", "dims", "a shape whose strides fit in int64", dims);
    }
  }
  return strides;
}

namespace {
// Product of the dims counted as max(d, 1) (what strides and offsets reach); false on overflow.
bool extent_fits(const Dims& dims, int64_t* numel) {
  // With every dim >= 0 the element count is at most the extent, so one check covers both.
  int64_t extent = 1;
  bool zero = false;
  for (int64_t d : dims) {
    if (mul_overflows(extent, std::max<int64_t>(d, 1), &extent)) return false;
    zero = zero || d == 0;
  }
  *numel = zero ? 0 : extent;
  return true;
}

std::string size_text(const Dims& dims) {
  // The true count as a double, so the message says how far off the shape is.
  long double n = 1;
  for (int64_t d : dims) n *= static_cast<long double>(d);
  return str(dims, " (", static_cast<double>(n), " elements)");
}
}  // namespace

int64_t checked_numel(const Dims& dims, std::string_view op, std::string_view arg) {
  for (int i = 0; i < dims.size(); ++i) {
    SKIFF_ENFORCE(dims[i] >= 0, kInvalidArgument, op, arg, str("non-negative dims (dim ", i, ")"),
                  dims);
  }
  int64_t n = 0;
  SKIFF_ENFORCE(extent_fits(dims, &n), kInvalidArgument, op, arg,
                "a shape whose element count fits in int64 (at most 2^63 - 1)", size_text(dims));
  return n;
}

int64_t checked_nbytes(const Dims& dims, int64_t itemsize, std::string_view op,
                       std::string_view arg) {
  const int64_t n = checked_numel(dims, op, arg);
  int64_t bytes = 0;
  const bool overflow = mul_overflows(n, itemsize, &bytes);
  if (overflow || bytes > kMaxTensorBytes) {
    throw_error(ErrorCode::kOutOfMemory, std::string(op), std::string(arg),
                str("a tensor of at most 2^56 bytes (64 PiB)"),
                str(size_text(dims), " of ", itemsize, " bytes each"), __FILE__, __LINE__);
  }
  return bytes;
}

int normalize_axis(int64_t axis, int rank, const char* op, const char* arg) {
  const int64_t lo = rank == 0 ? -1 : -rank;
  const int64_t hi = rank == 0 ? 0 : rank - 1;
  SKIFF_ENFORCE(axis >= lo && axis <= hi, kOutOfRange, op, arg,
                str("an axis in [", lo, ", ", hi, "] for a ", rank, "-D tensor"), axis);
  return static_cast<int>(axis < 0 ? axis + std::max(rank, 1) : axis);
}

}  // namespace skiff
