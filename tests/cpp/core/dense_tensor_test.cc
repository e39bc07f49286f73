// DenseTensor: creation, contiguity, contiguous(), copy_from between arbitrary strided layouts
// (every element size, small and parallel sizes), storage sharing and error messages.
#include "skiff/core/dense_tensor.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "skiff/core/parallel.h"
#include "skiff/core/views.h"
#include "tests/cpp/core/test_util.h"

namespace skiff {
namespace {

using testing::at;
using testing::elements;
using testing::error_of;
using testing::for_each_index;
using testing::iota;
using Index = std::vector<int64_t>;

TEST(DenseTensorTest, Empty) {
  const DenseTensor t = DenseTensor::empty({2, 3, 4}, DType::kFloat32);
  EXPECT_TRUE(t.defined());
  EXPECT_EQ(t.dims(), (Dims{2, 3, 4}));
  EXPECT_EQ(t.strides(), (Dims{12, 4, 1}));
  EXPECT_EQ(t.offset(), 0);
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.itemsize(), 4);
  EXPECT_EQ(t.nbytes(), 96);
  EXPECT_EQ(t.rank(), 3);
  EXPECT_EQ(t.place(), Place::cpu());
  EXPECT_EQ(t.kind(), TensorKind::kDense);
  EXPECT_EQ(t.meta(), (TensorMeta{DType::kFloat32, Dims{2, 3, 4}}));
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.raw_data()) % Allocator::kAlignment, 0u);
  EXPECT_GE(t.storage()->nbytes(), 96u);
  const DenseTensor s = DenseTensor::empty({}, DType::kInt8);
  EXPECT_EQ(s.numel(), 1);
  EXPECT_TRUE(s.is_contiguous());
  const DenseTensor z = DenseTensor::empty({0, 5}, DType::kFloat64);
  EXPECT_EQ(z.numel(), 0);
  EXPECT_EQ(z.nbytes(), 0);
  EXPECT_FALSE(DenseTensor().defined());
}

TEST(DenseTensorTest, EmptyErrors) {
  std::string msg = error_of([] { DenseTensor::empty({2, -1}, DType::kFloat32); });
  EXPECT_HAS(msg, "empty: argument 'shape'");
  EXPECT_HAS(msg, "[2, -1]");
  msg = error_of([] { DenseTensor::empty({2}, DType::kUndefined); });
  EXPECT_HAS(msg, "empty: argument 'dtype'");
  msg = error_of([] { DenseTensor::empty({2}, DType::kInt32).data<float>(); });
  EXPECT_HAS(msg, "DenseTensor::data");
  EXPECT_HAS(msg, "float32");
  EXPECT_HAS(msg, "int32");
}

TEST(DenseTensorTest, IsContiguous) {
  const DenseTensor x = iota({2, 3, 4});
  EXPECT_TRUE(x.is_contiguous());
  EXPECT_FALSE(view_transpose(x, 0, 2).is_contiguous());
  EXPECT_FALSE(view_slice(x, 2, 0, 4, 2).is_contiguous());
  EXPECT_TRUE(view_slice(x, 0, 1, 2).is_contiguous());  // offset does not matter
  EXPECT_FALSE(view_slice(x, 1, 0, 2).is_contiguous());
  EXPECT_FALSE(view_expand(iota({1, 4}), {3, 4}).is_contiguous());
  EXPECT_TRUE(x.as_strided({2, 1, 12}, {12, 77, 1}, 0).is_contiguous());  // size-1 stride
  const int64_t ax[] = {1};
  EXPECT_TRUE(view_unsqueeze(x, ax).is_contiguous());
}

TEST(DenseTensorTest, ContiguousCopiesOnlyWhenNeeded) {
  const DenseTensor x = iota({2, 3, 4});
  const DenseTensor same = x.contiguous();
  EXPECT_TRUE(same.shares_storage_with(x));
  EXPECT_EQ(same.raw_data(), x.raw_data());

  const int64_t perm[] = {2, 0, 1};
  for (const DenseTensor& v :
       {view_permute(x, perm), view_slice(x, 2, 1, 4, 2),
        view_expand(view_slice(x, 1, 0, 1), {2, 5, 4}), view_diagonal(x, 1, 1, 2)}) {
    const DenseTensor c = v.contiguous();
    EXPECT_TRUE(c.is_contiguous());
    EXPECT_FALSE(c.shares_storage_with(v));
    EXPECT_EQ(c.dims(), v.dims());
    EXPECT_EQ(c.strides(), contiguous_strides(v.dims()));
    EXPECT_EQ(c.offset(), 0);
    EXPECT_EQ(elements(c), elements(v));
    const int64_t* p = c.data<int64_t>();
    EXPECT_EQ(std::vector<int64_t>(p, p + c.numel()), elements(v));
  }
}

// Fills a tensor's whole storage with a pattern so that elements outside a view stay checkable.
template <typename T>
void fill_storage(const DenseTensor& t, int seed) {
  T* p = static_cast<T*>(t.storage()->data());
  const size_t n = t.storage()->nbytes() / sizeof(T);
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<T>(seed * 1000003 + i * 7919);
}

template <typename T>
T elem(const DenseTensor& t, const Index& idx) {
  int64_t pos = t.offset();
  for (int i = 0; i < t.rank(); ++i) pos += idx[i] * t.strides()[i];
  return static_cast<const T*>(t.storage()->data())[pos];
}

// Copies a strided source into a strided destination view of a larger buffer; checks every
// destination element and that the buffer outside the view is untouched.
template <typename T>
void check_strided_copy(DType dtype, const Dims& base_dims) {
  const DenseTensor src_base = DenseTensor::empty(base_dims, dtype);
  fill_storage<T>(src_base, 1);
  const int rank = base_dims.size();
  std::vector<int64_t> perm(rank);
  for (int i = 0; i < rank; ++i) perm[i] = rank - 1 - i;
  const DenseTensor src = view_permute(src_base, perm);  // reversed axes
  // Destination: every other element of the last dim of a bigger buffer.
  Dims buf_dims = src.dims();
  buf_dims[rank - 1] = buf_dims[rank - 1] * 2;
  const DenseTensor buf = DenseTensor::empty(buf_dims, dtype);
  fill_storage<T>(buf, 2);
  const DenseTensor before = buf.contiguous().copy_to(Place::cpu());
  DenseTensor dst = view_slice(buf, rank - 1, 1, buf_dims[rank - 1], 2);
  ASSERT_EQ(dst.dims(), src.dims());
  dst.copy_from(src);
  for_each_index(dst.dims(),
                 [&](const Index& idx) { ASSERT_EQ(elem<T>(dst, idx), elem<T>(src, idx)); });
  for_each_index(buf.dims(), [&](const Index& idx) {
    if (idx[rank - 1] % 2 == 1) return;
    ASSERT_EQ(elem<T>(buf, idx), elem<T>(before, idx));
  });
}

TEST(DenseTensorTest, CopyFromStridedToStridedEveryItemSize) {
  for (const Dims& dims : {Dims{3, 4, 5}, Dims{7}, Dims{2, 1, 3, 1}, Dims{64, 700}}) {
    check_strided_copy<uint8_t>(DType::kUInt8, dims);
    check_strided_copy<uint16_t>(DType::kBFloat16, dims);
    check_strided_copy<uint32_t>(DType::kFloat32, dims);
    check_strided_copy<uint64_t>(DType::kInt64, dims);
  }
}

TEST(DenseTensorTest, CopyFromParallelSizesSameWithOneAndTwoThreads) {
  const int saved = num_threads();
  const DenseTensor x = iota({96, 130, 7});
  const int64_t perm[] = {2, 0, 1};
  const DenseTensor v = view_permute(x, perm);
  std::vector<int64_t> results[2];
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    const DenseTensor c = v.contiguous();
    results[threads - 1].assign(c.data<int64_t>(), c.data<int64_t>() + c.numel());
  }
  set_num_threads(saved);
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0], elements(v));
}

TEST(DenseTensorTest, CopyFromScalarsZeroSizeAndExpandedSource) {
  DenseTensor a = iota({});
  DenseTensor b = DenseTensor::empty({}, DType::kInt64);
  b.copy_from(a);
  EXPECT_EQ(*b.data<int64_t>(), 0);
  DenseTensor z = DenseTensor::empty({0, 3}, DType::kInt64);
  z.copy_from(view_transpose(iota({3, 0}), 0, 1));
  const DenseTensor e = view_expand(view_slice(iota({4}), 0, 1, 4), {2, 3});
  DenseTensor d = DenseTensor::empty({2, 3}, DType::kInt64);
  d.copy_from(e);
  EXPECT_EQ(elements(d), (std::vector<int64_t>{1, 2, 3, 1, 2, 3}));
}

TEST(DenseTensorTest, CopyFromErrors) {
  DenseTensor dst = DenseTensor::empty({2, 3}, DType::kFloat32);
  std::string msg = error_of([&] { dst.copy_from(DenseTensor::empty({3, 2}, DType::kFloat32)); });
  EXPECT_HAS(msg, "copy: argument 'src'");
  EXPECT_HAS(msg, "[2, 3]");
  EXPECT_HAS(msg, "[3, 2]");
  msg = error_of([&] { dst.copy_from(DenseTensor::empty({2, 3}, DType::kFloat64)); });
  EXPECT_HAS(msg, "copy: argument 'src'");
  EXPECT_HAS(msg, "float32");
  EXPECT_HAS(msg, "float64");
}

TEST(DenseTensorTest, SharesStorage) {
  const DenseTensor x = iota({4, 4});
  const DenseTensor y = iota({4, 4});
  EXPECT_TRUE(x.shares_storage_with(x));
  EXPECT_FALSE(x.shares_storage_with(y));
  EXPECT_TRUE(view_diagonal(x, 0, 0, 1).shares_storage_with(view_slice(x, 0, 1, 2)));
  const DenseTensor c = x.copy_to(Place::cpu());
  EXPECT_FALSE(c.shares_storage_with(x));
  EXPECT_EQ(elements(c), elements(x));
  const DenseTensor s = x.as_strided({2}, {5}, 3);
  EXPECT_TRUE(s.shares_storage_with(x));
  EXPECT_EQ(elements(s), (std::vector<int64_t>{3, 8}));
  EXPECT_EQ(s.raw_data(), static_cast<char*>(x.raw_data()) + 3 * sizeof(int64_t));
}

TEST(DenseTensorTest, ExternalStorageReleasesOnce) {
  int released = 0;
  std::vector<float> host(6, 1.5f);
  {
    auto storage = std::make_shared<Storage>(host.data(), host.size() * sizeof(float), Place::cpu(),
                                             [&] { ++released; });
    DenseTensor t(storage, DType::kFloat32, {2, 3}, {3, 1}, 0);
    DenseTensor v = view_transpose(t, 0, 1);
    storage.reset();
    EXPECT_EQ(released, 0);
    EXPECT_EQ(v.data<float>()[0], 1.5f);
    EXPECT_EQ(v.storage()->data(), host.data());
  }
  EXPECT_EQ(released, 1);
}

}  // namespace
}  // namespace skiff
