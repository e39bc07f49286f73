// The .npy reader and writer of skiff_infer (skiff/inference/npy.h): numpy's exact header bytes
// parse, every dtype round-trips, and bad headers, huge shapes and truncated data are refused
// with messages that say what was wrong (the seeds of tests/fuzz/npy_fuzz.cc are numpy's files).
#include "skiff/inference/npy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "model_util.h"
#include "skiff/base/error.h"
#include "skiff/core/float16.h"

namespace skiff::inference {
namespace {

// A .npy v1.0 file as numpy writes it: header padded with spaces to 64 bytes, then '\n'.
std::string npy_file(const std::string& header_dict, const std::string& data, int major = 1) {
  std::string header = header_dict;
  const size_t pre = major == 1 ? 10 : 12;
  header.append((64 - (pre + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  const size_t n = header.size();
  out += static_cast<char>(n & 0xff);
  out += static_cast<char>((n >> 8) & 0xff);
  if (major != 1) out += std::string(2, '\0');
  return out + header + data;
}

DenseTensor parse(const std::string& bytes) {
  return parse_npy(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "t.npy");
}

std::string message_of(const std::string& bytes) {
  try {
    parse(bytes);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "parsed";
  return "";
}

std::string floats(std::initializer_list<float> v) {
  return std::string(reinterpret_cast<const char*>(std::data(v)), v.size() * sizeof(float));
}

TEST(Npy, ParsesNumpysHeader) {
  const DenseTensor t = parse(npy_file(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", floats({0, 1, 2, 3, 4, 5})));
  EXPECT_EQ(t.dtype(), DType::kFloat32);
  EXPECT_EQ(t.dims(), Dims({2, 3}));
  EXPECT_EQ(t.data<float>()[5], 5.0f);
  // Version 2.0, another key order, no spaces, a one-element tuple.
  const DenseTensor u = parse(npy_file("{'shape':(2,),'fortran_order':False,'descr':'<i8'}",
                                       std::string(16, '\0'), 2));
  EXPECT_EQ(u.dtype(), DType::kInt64);
  EXPECT_EQ(u.dims(), Dims({2}));
  // A 0-d array and an empty one.
  EXPECT_EQ(parse(npy_file("{'descr': '|u1', 'fortran_order': False, 'shape': (), }", "x"))
                .rank(),
            0);
  EXPECT_EQ(parse(npy_file("{'descr': '|b1', 'fortran_order': False, 'shape': (0, 4), }", ""))
                .numel(),
            0);
}

TEST(Npy, EveryDtypeRoundTripsThroughAFile) {
  const std::string dir = testing::temp_dir("npy_round_trip");
  for (DType d : {DType::kFloat32, DType::kFloat64, DType::kFloat16, DType::kInt64, DType::kInt32,
                  DType::kInt16, DType::kInt8, DType::kUInt8, DType::kBool}) {
    for (const Dims& dims : {Dims({3}), Dims({2, 1, 4}), Dims(), Dims({0, 5})}) {
      DenseTensor t = DenseTensor::empty(dims, d);
      auto* b = static_cast<uint8_t*>(t.raw_data());
      for (int64_t i = 0; i < t.nbytes(); ++i) b[i] = d == DType::kBool ? i % 2 : (i * 37) % 251;
      const std::string path = dir + "/t.npy";
      write_npy(t, path);
      const DenseTensor back = read_npy(path);
      ASSERT_EQ(back.dtype(), d);
      ASSERT_EQ(back.dims(), dims);
      ASSERT_EQ(std::memcmp(back.raw_data(), t.raw_data(), static_cast<size_t>(t.nbytes())), 0);
      // numpy's alignment: the data starts at a multiple of 64.
      EXPECT_EQ((npy_bytes(t).size() - static_cast<size_t>(t.nbytes())) % 64, 0u);
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(Npy, WriterHeaderIsNumpys) {
  DenseTensor t = DenseTensor::empty(Dims({4}), DType::kFloat32);
  const std::string b = npy_bytes(t);
  EXPECT_NE(b.find("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"),
            std::string::npos);
  EXPECT_THROW(npy_bytes(DenseTensor::empty(Dims({1}), DType::kBFloat16), "y"), Error);
}

TEST(Npy, RefusesBadPreambles) {
  EXPECT_NE(message_of("").find("0 bytes, too few for the .npy preamble"), std::string::npos);
  EXPECT_NE(message_of("PK\x03\x04 not numpy").find("no .npy magic"), std::string::npos);
  std::string v9 = npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", "1234");
  v9[6] = 9;
  EXPECT_NE(message_of(v9).find("format version 9.0 (expected 1.0, 2.0 or 3.0)"),
            std::string::npos);
  std::string huge("\x93NUMPY\x02\x00\xff\xff\xff\x7f", 12);
  EXPECT_NE(message_of(huge).find("a header of 2147483647 bytes (at most 65536 accepted)"),
            std::string::npos);
  std::string cut = npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", "");
  EXPECT_NE(message_of(cut.substr(0, 30)).find("truncated"), std::string::npos);
}

TEST(Npy, RefusesHeadersThatAreNotAPlainArray) {
  auto msg = [](const std::string& dict) { return message_of(npy_file(dict, "")); };
  EXPECT_NE(msg("{'descr': '>f4', 'fortran_order': False, 'shape': (0,), }")
                .find("dtype descr '>f4' (expected a little-endian"),
            std::string::npos);
  EXPECT_NE(msg("{'descr': '|O', 'fortran_order': False, 'shape': (0,), }").find("descr '|O'"),
            std::string::npos);
  EXPECT_NE(msg("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (0,), }")
                .find("expected a quoted string"),
            std::string::npos);
  EXPECT_NE(msg("{'descr': '<f4', 'fortran_order': True, 'shape': (0,), }")
                .find("fortran_order True"),
            std::string::npos);
  EXPECT_NE(msg("{'descr': '<f4', 'shape': (0,), }").find("missing one of the keys"),
            std::string::npos);
  EXPECT_NE(msg("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (0,)}")
                .find("header key 'descr' repeated"),
            std::string::npos);
  EXPECT_NE(msg("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }")
                .find("expected a non-negative int in the shape"),
            std::string::npos);
  EXPECT_NE(msg("{'descr': '<f4', 'fortran_order': False, 'shape': (0,), } __import__('os')")
                .find("the end of the header"),
            std::string::npos);
  EXPECT_NE(msg("{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1,1), }")
                .find("more than 9 dims"),
            std::string::npos);
}

TEST(Npy, RefusesHugeShapesAndSizeMismatchesBeforeAllocating) {
  auto bytes = [](const std::string& shape, const std::string& data) {
    return npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }", data);
  };
  // Overflow of one dim, of the element count, and a size no file could hold.
  EXPECT_NE(message_of(bytes("(99999999999999999999,)", "")).find("overflows int64"),
            std::string::npos);
  try {
    parse(bytes("(4294967296, 4294967296)", ""));
    ADD_FAILURE() << "parsed";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("t.npy"), std::string::npos) << e.what();
  }
  const std::string big = message_of(bytes("(1000000, 1000000)", std::string(8, '\0')));
  EXPECT_NE(big.find("8000000000000 bytes of data) but 8 bytes after the header (truncated)"),
            std::string::npos)
      << big;
  EXPECT_NE(message_of(bytes("(1,)", std::string(9, '\0'))).find("(trailing bytes)"),
            std::string::npos);
  EXPECT_NE(message_of(npy_file("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }",
                                std::string("\x01\x07", 2)))
                .find("bool element 1 holding 7"),
            std::string::npos);
}

TEST(Npy, MissingFileIsAnIOError) {
  try {
    read_npy("/nonexistent/x.npy");
    ADD_FAILURE() << "read";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kIOError);
    EXPECT_NE(std::string(e.what()).find("'/nonexistent/x.npy', which does not exist"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace skiff::inference
