// Helpers for core tests: iota tensors, naive element access through strides, a multi-index
// walk in row-major order, and error-message capture.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/core/dense_tensor.h"

namespace skiff::testing {

/// A contiguous int64 CPU tensor holding 0, 1, 2, ... in row-major order.
inline DenseTensor iota(const Dims& dims) {
  DenseTensor t = DenseTensor::empty(dims, DType::kInt64);
  int64_t* p = t.data<int64_t>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = i;
  return t;
}

/// Element `idx` of a CPU int64 tensor, read from the storage base with the tensor's strides.
inline int64_t at(const DenseTensor& t, const std::vector<int64_t>& idx) {
  int64_t pos = t.offset();
  for (int i = 0; i < t.rank(); ++i) pos += idx[i] * t.strides()[i];
  return static_cast<const int64_t*>(t.storage()->data())[pos];
}

/// Row-major (flat) index of `idx` within `dims`.
inline int64_t flat(const Dims& dims, const std::vector<int64_t>& idx) {
  int64_t f = 0;
  for (int i = 0; i < dims.size(); ++i) f = f * dims[i] + idx[i];
  return f;
}

/// Calls fn(idx) for every multi-index of `dims` in row-major order.
template <typename Fn>
void for_each_index(const Dims& dims, Fn&& fn) {
  if (dims.numel() == 0) return;
  std::vector<int64_t> idx(dims.size(), 0);
  while (true) {
    fn(idx);
    int d = dims.size() - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < dims[d]) break;
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

/// The elements of an int64 tensor in row-major order of its own dims.
inline std::vector<int64_t> elements(const DenseTensor& t) {
  std::vector<int64_t> out;
  for_each_index(t.dims(), [&](const std::vector<int64_t>& idx) { out.push_back(at(t, idx)); });
  return out;
}

template <typename Fn>
std::string error_of(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace skiff::testing

#define EXPECT_HAS(msg, part) EXPECT_NE((msg).find(part), std::string::npos) << (msg)
