#include "skiff/base/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

#include "skiff/base/error.h"
#include "skiff/base/str.h"

namespace skiff {

namespace {

std::string errno_text() { return std::strerror(errno); }

std::string parent_dir(const std::string& path) {
  const std::filesystem::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

std::string random_suffix() {
  std::random_device rd;
  return str(std::hex, rd(), rd());
}

}  // namespace

void remove_stale_temps(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const std::string prefix = target.filename().string() + ".tmp.";
  std::error_code ec;
  fs::directory_iterator it(target.has_parent_path() ? target.parent_path() : fs::path("."), ec);
  if (ec) return;
  for (const fs::directory_entry& e : it) {
    const std::string name = e.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string pid_text =
        name.substr(prefix.size(), name.find('.', prefix.size()) - prefix.size());
    if (pid_text.empty() || pid_text.size() > 9 ||
        pid_text.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    const pid_t pid = static_cast<pid_t>(std::stol(pid_text));
    if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
    fs::remove(e.path(), ec);
  }
}

AtomicFileWriter::AtomicFileWriter(std::string path, std::string op)
    : path_(std::move(path)), op_(std::move(op)) {
  remove_stale_temps(path_);
  tmp_path_ = str(path_, ".tmp.", ::getpid(), ".", random_suffix());
  fd_ = ::open(tmp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  SKIFF_ENFORCE(fd_ >= 0, kIOError, op_, "",
                str("a writable directory '", parent_dir(path_), "'"), errno_text());
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!tmp_path_.empty()) ::unlink(tmp_path_.c_str());
}

void AtomicFileWriter::write(const void* data, size_t n) {
  SKIFF_ENFORCE(fd_ >= 0, kIOError, op_, "", "an open file", "a committed writer");
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd_, p, n);
    if (w < 0 && errno == EINTR) continue;
    SKIFF_ENFORCE(w > 0, kIOError, op_, "", "a writable file", errno_text());
    p += w;
    n -= static_cast<size_t>(w);
  }
}

void AtomicFileWriter::commit() {
  SKIFF_ENFORCE(fd_ >= 0, kIOError, op_, "", "an open file", "a committed writer");
  SKIFF_ENFORCE(::fsync(fd_) == 0, kIOError, op_, "", "a file that syncs", errno_text());
  const int fd = fd_;
  fd_ = -1;
  SKIFF_ENFORCE(::close(fd) == 0, kIOError, op_, "", "a file that closes", errno_text());
  SKIFF_ENFORCE(::rename(tmp_path_.c_str(), path_.c_str()) == 0, kIOError, op_, "",
                "a path the temporary file can be renamed to", errno_text());
  tmp_path_.clear();
  // The rename is durable only once the directory entry is.
  const int dfd = ::open(parent_dir(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void write_file_atomically(const std::string& path, std::string_view bytes,
                           const std::string& op) {
  AtomicFileWriter out(path, op);
  out.write(bytes);
  out.commit();
}

}  // namespace skiff
