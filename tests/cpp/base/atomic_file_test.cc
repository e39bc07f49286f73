#include "skiff/base/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "skiff/base/error.h"

namespace skiff {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("skiff_atomic_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string read(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  int entries() const {
    return static_cast<int>(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
  fs::path dir_;
};

TEST_F(AtomicFileTest, CommitReplacesTheFileWhole) {
  const std::string p = path("a.bin");
  write_file_atomically(p, "old", "test write");
  {
    AtomicFileWriter out(p, "test write");
    out.write("new ");
    EXPECT_EQ(read(p), "old");  // nothing visible before the commit
    out.write("contents");
    out.commit();
  }
  EXPECT_EQ(read(p), "new contents");
  EXPECT_EQ(entries(), 1);  // no temporary left
}

TEST_F(AtomicFileTest, AbandonedWriterLeavesTheOldFileAndNoTemporary) {
  const std::string p = path("b.bin");
  write_file_atomically(p, "kept", "test write");
  {
    AtomicFileWriter out(p, "test write");
    out.write("partial");
  }  // destroyed without commit, as when an exception unwinds a save
  EXPECT_EQ(read(p), "kept");
  EXPECT_EQ(entries(), 1);
}

TEST_F(AtomicFileTest, WriteAfterCommitIsAnError) {
  AtomicFileWriter out(path("c.bin"), "test write");
  out.commit();
  EXPECT_THROW(out.write("x"), Error);
  EXPECT_THROW(out.commit(), Error);
}

TEST_F(AtomicFileTest, StaleTemporaryOfADeadProcessIsRemoved) {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);  // a pid that no longer runs
  const std::string stale = path("d.bin.tmp." + std::to_string(child) + ".abc");
  const std::string mine = path("d.bin.tmp." + std::to_string(::getpid()) + ".live");
  std::ofstream(stale) << "left by a killed save";
  std::ofstream(mine) << "ours";
  write_file_atomically(path("d.bin"), "x", "test write");
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(mine));  // a running process's temporary stays
}

TEST_F(AtomicFileTest, MissingDirectoryNamesTheOp) {
  const std::string p = path("missing/e.bin");
  try {
    write_file_atomically(p, "x", "save '" + p + "'");
    FAIL();
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("(Unavailable) save '" + p + "': expected a writable directory"),
              std::string::npos)
        << msg;
  }
}

}  // namespace
}  // namespace skiff
