// safetensors checkpoints: bit-exact round trips of every dtype, the file layout, atomic saves
// that survive a killed writer, and the message of every malformed-input check.
#include "skiff/checkpoint.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "skiff/ops/generated/api.h"
#include "skiff/tensor_util.h"

namespace skiff {
namespace {

namespace fs = std::filesystem;

class CheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("skiff_ckpt_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

std::vector<uint8_t> bytes_of(const Tensor& t) {
  const DenseTensor c = t.dense().contiguous();
  const auto* p = static_cast<const uint8_t*>(c.raw_data());
  return {p, p + c.nbytes()};
}

std::string read_file(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

void write_file(const std::string& p, const std::string& data) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << data;
}

std::string load_error(const std::string& p) {
  try {
    load(p);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// A file with `header` (as given) followed by `data`.
std::string file_with(const std::string& header, const std::string& data = "") {
  std::string out(8, '\0');
  const uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(n >> (8 * i));
  return out + header + data;
}

TEST_F(CheckpointTest, RoundTripIsBitExactForEveryDtype) {
  StateDict s;
  s.set("f32", to_tensor(std::vector<float>{1.5f, -0.0f, std::numeric_limits<float>::quiet_NaN(),
                                            std::numeric_limits<float>::infinity(), 1e-40f},
                         {5}));
  s.set("f64", to_tensor(std::vector<double>{3.141592653589793, -1e300}, {2, 1}));
  s.set("bf16", cast(to_tensor(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}), DType::kBFloat16));
  s.set("f16", cast(to_tensor(std::vector<float>{0.1f, 65504.0f}, {2}), DType::kFloat16));
  s.set("i64", to_tensor(std::vector<int64_t>{std::numeric_limits<int64_t>::min(), 7}, {2}));
  s.set("i32", to_tensor(std::vector<int32_t>{-5}, {}));
  s.set("i16", cast(to_tensor(std::vector<int32_t>{-300, 300}, {2}), DType::kInt16));
  s.set("i8", cast(to_tensor(std::vector<int32_t>{-7}, {1}), DType::kInt8));
  s.set("u8", to_tensor(std::vector<uint8_t>{255, 0}, {2}));
  s.set("bool", cast(to_tensor(std::vector<int32_t>{1, 0, 1}, {3}), DType::kBool));
  s.set("empty", zeros({0, 4}));
  s.set("strided", transpose(to_tensor(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}), {1, 0}));
  s.set("name with \"quotes\" and \\ and \n", ones({1}));
  save(s, path("a.safetensors"), {{"framework", "skiff"}, {"note", "x\"y"}});
  CheckpointMetadata meta;
  const StateDict r = load(path("a.safetensors"), &meta);
  ASSERT_EQ(r.size(), s.size());
  for (const auto& [name, t] : s) {
    const Tensor& got = r.at(name);
    EXPECT_EQ(got.dtype(), t.dtype()) << name;
    EXPECT_EQ(got.dims(), t.dims()) << name;
    EXPECT_EQ(bytes_of(got), bytes_of(t)) << name;
  }
  EXPECT_EQ(meta, (CheckpointMetadata{{"framework", "skiff"}, {"note", "x\"y"}}));
  // Saving the loaded dict again gives the same bytes.
  save(r, path("b.safetensors"), meta);
  EXPECT_EQ(read_file(path("a.safetensors")), read_file(path("b.safetensors")));
}

TEST_F(CheckpointTest, LayoutIsSafetensors) {
  StateDict s;
  s.set("w", to_tensor(std::vector<float>{1, 2}, {2}));
  s.set("b", to_tensor(std::vector<int64_t>{3}, {1}));
  save(s, path("c.safetensors"));
  const std::string f = read_file(path("c.safetensors"));
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<uint8_t>(f[i]);
  EXPECT_EQ(n % 8, 0u);
  std::string header = f.substr(8, n);
  header.erase(header.find_last_not_of(' ') + 1);
  EXPECT_EQ(header, R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                    R"("b":{"dtype":"I64","shape":[1],"data_offsets":[8,16]}})");
  EXPECT_EQ(f.size(), 8 + n + 16);
  float w[2];
  std::memcpy(w, f.data() + 8 + n, 8);
  EXPECT_EQ(w[1], 2.0f);
}

TEST_F(CheckpointTest, ReadsFilesOfOtherWriters) {
  // Entries out of offset order, whitespace, escapes, an empty metadata object.
  const std::string header =
      R"( { "__metadata__" : { } , "b\u00e9" : { "dtype" : "U8", "shape" : [ 2 ],)"
      R"( "data_offsets" : [ 4, 6 ] }, "a": {"shape": [], "dtype": "I32", "data_offsets": [0, 4]} })";
  write_file(path("o.safetensors"), file_with(header, std::string("\x05\0\0\0\x01\x02", 6)));
  const StateDict r = load(path("o.safetensors"));
  EXPECT_EQ(r.at("a").item<int32_t>(), 5);
  EXPECT_EQ(to_vector<uint8_t>(r.at("b\xc3\xa9")), (std::vector<uint8_t>{1, 2}));
}

TEST_F(CheckpointTest, SaveReplacesAtomicallyAndLeavesNoTemporaryFile) {
  StateDict a, b;
  a.set("x", ones({3}));
  b.set("x", zeros({3}));
  save(a, path("m.safetensors"));
  save(b, path("m.safetensors"));
  EXPECT_EQ(to_vector<float>(load(path("m.safetensors")).at("x")), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(CheckpointTest, KilledWriterLeavesTheOldFileIntact) {
  // The old checkpoint holds ones; a child process keeps saving a large checkpoint of twos over
  // it and is killed at some point of a save. Loading afterwards must give a complete
  // checkpoint: all ones (old) or all twos (a finished save), never a mix or an error.
  const std::string p = path("k.safetensors");
  StateDict old_state;
  old_state.set("x", full({4 << 20}, Scalar(1.0)));
  save(old_state, p);
  StateDict new_state;
  new_state.set("x", full({4 << 20}, Scalar(2.0)));  // 16 MiB: a save takes a while
  for (int delay_us : {0, 2000, 10000, 30000}) {
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(ready[0]);
      char c = 1;
      if (::write(ready[1], &c, 1) != 1) ::_exit(2);
      while (true) save(new_state, p);
    }
    ::close(ready[1]);
    char c;
    ASSERT_EQ(::read(ready[0], &c, 1), 1);
    ::close(ready[0]);
    ::usleep(delay_us);
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    const Tensor x = load(p).at("x");
    const double first = slice(x, {0}, {0}, {1}).item<float>();
    EXPECT_TRUE(first == 1.0 || first == 2.0);
    EXPECT_EQ(sum(x, {}, DType::kFloat64).item<double>(), first * (4 << 20)) << delay_us;
  }
}

TEST_F(CheckpointTest, SaveErrors) {
  StateDict s;
  s.set("x", ones({1}));
  try {
    save(s, path("missing_dir/x.safetensors"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("save '" + path("missing_dir/x.safetensors") +
                                         "': expected a writable directory"),
              std::string::npos)
        << e.what();
  }
  StateDict undefined;
  undefined.set("u", Tensor());
  try {
    save(undefined, path("u.safetensors"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "(InvalidArgument) save '" + path("u.safetensors") +
                                         "': argument 'u' expected a dense tensor, got an "
                                         "undefined tensor");
  }
}

TEST_F(CheckpointTest, EveryMalformedInputHasAClearMessage) {
  StateDict s;
  s.set("w", to_tensor(std::vector<float>{1, 2}, {2}));
  save(s, path("good.safetensors"));
  const std::string good = read_file(path("good.safetensors"));
  const std::string p = path("bad.safetensors");
  const std::string op = "(Unavailable) load '" + p + "': ";
  struct Case {
    std::string file, message;
  };
  const std::string e = R"("dtype":"F32","shape":[2],"data_offsets":[0,8])";
  const std::vector<Case> cases = {
      {"", "expected at least 8 bytes (the header size), got 0 bytes"},
      {"abc", "expected at least 8 bytes (the header size), got 3 bytes"},
      {std::string("\x01\0\0\0\0\0\0\0", 8), "expected a header size in [2, 104857600], got 1"},
      {std::string(8, '\xff'),
       "expected a header size in [2, 104857600], got 18446744073709551615"},
      {good.substr(0, 20),
       "expected a header of 56 bytes after the size field (a truncated file?), got 20 bytes in "
       "the file"},
      {good.substr(0, good.size() - 3),
       "expected 8 bytes of tensor data (a truncated file?), got 5 bytes after the header"},
      {good + "xx", "expected 8 bytes of tensor data, got 10 bytes after the header"},
      {file_with("[1]"), "expected a JSON object as the header, got another value"},
      {file_with("{\"w\":{" + e + "}"),
       "argument 'header' expected JSON (a value at header byte 53), got the end of the header"},
      {file_with("{\"w\" " + e + "}"),
       "argument 'header' expected JSON (':' at header byte 5), got '\"'"},
      {file_with("{\"w\":{" + e + "}}x"),
       "argument 'header' expected JSON (the end of the header at header byte 54), got 'x'"},
      {file_with("{\"w\":true}"),
       "argument 'header' expected JSON (an object, array, string or non-negative integer at "
       "header byte 5), got 't'"},
      {file_with("{\"w\":{\"dtype\":\"F32\",\"shape\":[2.5]}}"),
       "argument 'header' expected JSON (a non-negative integer at header byte 30), got a "
       "fraction"},
      {file_with("{\"w\":\"x\\q\"}"),
       "argument 'header' expected JSON (a JSON escape at header byte 9), got '\\q'"},
      {file_with("{\"w\":{" + e + "},\"w\":{" + e + "}}", std::string(8, '\0')),
       "expected unique tensor names, got 'w' twice"},
      {file_with("{\"w\":3}"),
       "argument 'w' expected an object {dtype, shape, data_offsets}, got another value"},
      {file_with("{\"w\":{\"dtype\":\"F32\",\"shape\":[2]}}"),
       "argument 'w' expected the keys dtype, shape and data_offsets, got missing data_offsets"},
      {file_with("{\"w\":{" + e + ",\"extra\":1}}"),
       "argument 'w' expected only the keys dtype, shape, data_offsets, got key 'extra'"},
      {file_with(R"({"w":{"dtype":"C64","shape":[2],"data_offsets":[0,8]}})", std::string(8, 0)),
       "argument 'w' expected dtype F32, F64, BF16, F16, I64, I32, I16, I8, U8 or BOOL, got "
       "'C64'"},
      {file_with(R"({"w":{"dtype":"F32","shape":2,"data_offsets":[0,8]}})", std::string(8, 0)),
       "argument 'w' expected a shape array, got another value"},
      {file_with(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", std::string(8, 0)),
       "argument 'w' expected data_offsets spanning 12 bytes (F32 [3]), got [0, 8]"},
      {file_with(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[8]}})", std::string(8, 0)),
       "argument 'w' expected data_offsets [begin, end], got another value"},
      {file_with(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                 R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                 std::string(8, 0)),
       "argument 'b' expected data starting at byte 8 (no gaps or overlaps), got data_offsets "
       "[4, 8]"},
      {file_with(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})", std::string(12, 0)),
       "argument 'w' expected data starting at byte 0 (no gaps or overlaps), got data_offsets "
       "[4, 12]"},
      {file_with(R"({"__metadata__":{"k":1}})"),
       "expected __metadata__ values that are strings, got key 'k'"},
  };
  for (const Case& c : cases) {
    write_file(p, c.file);
    EXPECT_EQ(load_error(p), op + c.message) << c.file;
  }
  EXPECT_EQ(load_error(path("nope.safetensors")),
            "(Unavailable) load '" + path("nope.safetensors") +
                "': expected a readable file, got No such file "
                "or directory");
}

}  // namespace
}  // namespace skiff
