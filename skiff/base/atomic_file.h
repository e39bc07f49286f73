// Files written atomically: a reader sees the old file or the whole new one, never a part.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace skiff {

/// Writes `path` through a temporary `<path>.tmp.<pid>.<random>` beside it (mode 0666 less the
/// umask, like any new file and like skiff.save's Python writer, which names its temporaries the
/// same way). commit() syncs the temporary, renames it over `path` and syncs the directory; a
/// writer destroyed before commit() (an error, an exception) removes its temporary. Temporaries
/// left by killed processes are removed when the next writer of the same path opens. Failures
/// are IOErrors naming `op` (which should name the path, e.g. "save 'x.safetensors'").
class AtomicFileWriter {
 public:
  AtomicFileWriter(std::string path, std::string op);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(const void* data, size_t n);
  void write(std::string_view bytes) { write(bytes.data(), bytes.size()); }
  void commit();

 private:
  std::string path_, op_, tmp_path_;
  int fd_ = -1;
};

/// One AtomicFileWriter write + commit.
void write_file_atomically(const std::string& path, std::string_view bytes, const std::string& op);

/// Removes `<path>.tmp.<pid>.*` files whose process no longer runs.
void remove_stale_temps(const std::string& path);

}  // namespace skiff
