// safetensors reading and writing (format in include/skiff/checkpoint.h). The header parser is
// a small strict JSON reader: objects, arrays, strings (with escapes) and non-negative
// integers, which is all the format uses; anything else is reported with its byte position.
#include "skiff/checkpoint.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>

#include "skiff/base/atomic_file.h"
#include "skiff/base/str.h"
#include "skiff/core/dense_tensor.h"

namespace skiff {

namespace {

// A header larger than this is not a plausible safetensors file (the reference reader uses
// 100 MB as well).
constexpr uint64_t kMaxHeader = 100u << 20;

struct DTypeName {
  DType dtype;
  const char* name;
};
constexpr DTypeName kDTypeNames[] = {{DType::kFloat32, "F32"},   {DType::kFloat64, "F64"},
                                     {DType::kBFloat16, "BF16"}, {DType::kFloat16, "F16"},
                                     {DType::kInt64, "I64"},     {DType::kInt32, "I32"},
                                     {DType::kInt16, "I16"},     {DType::kInt8, "I8"},
                                     {DType::kUInt8, "U8"},      {DType::kBool, "BOOL"}};

const char* safetensors_name(DType d) {
  for (const auto& n : kDTypeNames) {
    if (n.dtype == d) return n.name;
  }
  return nullptr;
}

// JSON writing ------------------------------------------------------------------------------

void append_json_string(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

// JSON reading ------------------------------------------------------------------------------

struct JsonMember;

struct Json {
  enum Kind { kObject, kArray, kString, kNumber } kind = kNumber;
  // A vector of a struct declared but not yet defined (clang rejects std::pair of the incomplete
  // Json here; a named struct is fine since C++17's vector of incomplete types).
  std::vector<JsonMember> members;  // object, in file order
  std::vector<Json> items;                            // array
  std::string text;                                   // string
  uint64_t number = 0;
  size_t pos = 0;  // byte position in the header, for messages
};

struct JsonMember {
  std::string key;
  Json value;
};

class JsonParser {
 public:
  JsonParser(std::string_view text, const std::string& path) : s_(text), path_(path) {}

  Json parse_document() {
    Json v = parse_value(0);
    skip_ws();
    if (i_ != s_.size()) fail("the end of the header", str("'", s_[i_], "'"));
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& expected, const std::string& got) const {
    SKIFF_THROW(kIOError, path_, "header", str("JSON (", expected, " at header byte ", i_, ")"),
                got);
  }

  void skip_ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t'))
      ++i_;
  }

  char peek() {
    skip_ws();
    if (i_ >= s_.size()) fail("a value", "the end of the header");
    return s_[i_];
  }

  void expect(char c) {
    if (peek() != c) fail(str("'", c, "'"), str("'", s_[i_], "'"));
    ++i_;
  }

  Json parse_value(int depth) {
    if (depth > 8) fail("at most 8 levels of nesting", "deeper nesting");
    const char c = peek();
    Json v;
    v.pos = i_;
    if (c == '{') {
      v.kind = Json::kObject;
      ++i_;
      if (peek() == '}') {
        ++i_;
        return v;
      }
      while (true) {
        if (peek() != '"') fail("a member name", str("'", s_[i_], "'"));
        std::string key = parse_string();
        expect(':');
        v.members.push_back(JsonMember{std::move(key), parse_value(depth + 1)});
        if (peek() == ',') {
          ++i_;
          continue;
        }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = Json::kArray;
      ++i_;
      if (peek() == ']') {
        ++i_;
        return v;
      }
      while (true) {
        v.items.push_back(parse_value(depth + 1));
        if (peek() == ',') {
          ++i_;
          continue;
        }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = Json::kString;
      v.text = parse_string();
      return v;
    }
    if (c >= '0' && c <= '9') {
      v.kind = Json::kNumber;
      uint64_t n = 0;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
        const uint64_t d = static_cast<uint64_t>(s_[i_] - '0');
        if (n > (std::numeric_limits<uint64_t>::max() - d) / 10)
          fail("a 64-bit integer", "an overflow");
        n = n * 10 + d;
        ++i_;
      }
      if (i_ < s_.size() && (s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E'))
        fail("a non-negative integer", "a fraction");
      v.number = n;
      return v;
    }
    fail("an object, array, string or non-negative integer", str("'", c, "'"));
  }

  std::string parse_string() {
    ++i_;  // opening quote
    std::string out;
    while (true) {
      if (i_ >= s_.size()) fail("a closing '\"'", "the end of the header");
      const char c = s_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("a string character", "a control character");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) fail("an escape", "the end of the header");
      const char e = s_[i_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u':
          out += parse_unicode();
          break;
        default:
          fail("a JSON escape", str("'\\", e, "'"));
      }
    }
  }

  unsigned hex4() {
    if (i_ + 4 > s_.size()) fail("4 hex digits", "the end of the header");
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = s_[i_++];
      v <<= 4;
      if (h >= '0' && h <= '9')
        v |= h - '0';
      else if (h >= 'a' && h <= 'f')
        v |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F')
        v |= h - 'A' + 10;
      else
        fail("a hex digit", str("'", h, "'"));
    }
    return v;
  }

  std::string parse_unicode() {
    unsigned cp = hex4();
    if (cp >= 0xD800 && cp < 0xDC00) {  // surrogate pair
      if (i_ + 2 > s_.size() || s_[i_] != '\\' || s_[i_ + 1] != 'u')
        fail("a low surrogate", "none");
      i_ += 2;
      const unsigned lo = hex4();
      if (lo < 0xDC00 || lo >= 0xE000) fail("a low surrogate", str(lo));
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
    std::string out;
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return out;
  }

  std::string_view s_;
  const std::string& path_;
  size_t i_ = 0;
};

// Files -------------------------------------------------------------------------------------

std::string errno_text() { return std::strerror(errno); }

/// The component named in errors: "save 'path'" / "load 'path'".
std::string save_op(const std::string& path) { return str("save '", path, "'"); }
std::string load_op(const std::string& path) { return str("load '", path, "'"); }

}  // namespace

void save(const StateDict& state, const std::string& path, const CheckpointMetadata& metadata) {
  const std::string op = save_op(path);
  // Host, contiguous copies of every tensor, and the header that describes them.
  std::vector<DenseTensor> data;
  std::string header = "{";
  uint64_t offset = 0;
  bool first = true;
  auto comma = [&] {
    if (!first) header += ',';
    first = false;
  };
  if (!metadata.empty()) {
    comma();
    append_json_string(header, "__metadata__");
    header += ":{";
    bool first_meta = true;
    for (const auto& [k, v] : metadata) {
      if (!first_meta) header += ',';
      first_meta = false;
      append_json_string(header, k);
      header += ':';
      append_json_string(header, v);
    }
    header += '}';
  }
  for (const auto& [name, t] : state) {
    SKIFF_ENFORCE(name != "__metadata__", kInvalidArgument, op, "state",
                  "tensor names other than __metadata__", name);
    SKIFF_ENFORCE(t.defined() && t.is_dense(), kInvalidArgument, op, name, "a dense tensor",
                  "an undefined tensor");
    const DenseTensor& d = t.dense();
    const char* dtype_name = safetensors_name(d.dtype());
    SKIFF_ENFORCE(dtype_name != nullptr, kTypeError, op, name, "a dtype safetensors stores",
                  d.dtype());
    DenseTensor host = d.place().is_cpu() ? d.contiguous() : d.copy_to(Place::cpu());
    comma();
    append_json_string(header, name);
    header += str(":{\"dtype\":\"", dtype_name, "\",\"shape\":[");
    for (int i = 0; i < d.rank(); ++i) header += str(i ? "," : "", d.dim(i));
    const uint64_t n = static_cast<uint64_t>(host.nbytes());
    header += str("],\"data_offsets\":[", offset, ",", offset + n, "]}");
    offset += n;
    data.push_back(std::move(host));
  }
  header += '}';
  header.append((8 - header.size() % 8) % 8, ' ');  // 8-byte alignment of the data

  AtomicFileWriter out(path, op);
  uint8_t len[8];
  const uint64_t hn = header.size();
  for (int i = 0; i < 8; ++i) len[i] = static_cast<uint8_t>(hn >> (8 * i));
  out.write(len, 8);
  out.write(header);
  for (const DenseTensor& d : data) {
    if (d.nbytes() > 0) out.write(d.raw_data(), static_cast<size_t>(d.nbytes()));
  }
  out.commit();
}

namespace {

class InputFile {
 public:
  explicit InputFile(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    SKIFF_ENFORCE(fd_ >= 0, kIOError, load_op(path), "", "a readable file", errno_text());
    struct stat st {};
    SKIFF_ENFORCE(::fstat(fd_, &st) == 0, kIOError, load_op(path), "",
                  "a file whose size can be read", errno_text());
    size_ = static_cast<uint64_t>(st.st_size);
  }
  ~InputFile() { ::close(fd_); }
  uint64_t size() const { return size_; }
  void read_at(uint64_t offset, void* out, uint64_t n) const {
    char* p = static_cast<char*>(out);
    while (n > 0) {
      const ssize_t r = ::pread(fd_, p, n, static_cast<off_t>(offset));
      if (r < 0 && errno == EINTR) continue;
      SKIFF_ENFORCE(r > 0, kIOError, load_op(path_), "", str(n, " more bytes at offset ", offset),
                    r == 0 ? std::string("the end of the file") : errno_text());
      p += r;
      n -= static_cast<uint64_t>(r);
      offset += static_cast<uint64_t>(r);
    }
  }

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t size_ = 0;
};

struct Entry {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;
  uint64_t begin, end;
};

Entry parse_entry(const std::string& path, const std::string& name, const Json& v) {
  auto bad = [&](const std::string& expected, const std::string& got) {
    SKIFF_THROW(kIOError, load_op(path), name, expected, got);
  };
  if (v.kind != Json::kObject) bad("an object {dtype, shape, data_offsets}", "another value");
  const Json *dtype = nullptr, *shape = nullptr, *offsets = nullptr;
  for (const auto& [k, m] : v.members) {
    if (k == "dtype")
      dtype = &m;
    else if (k == "shape")
      shape = &m;
    else if (k == "data_offsets")
      offsets = &m;
    else
      bad("only the keys dtype, shape, data_offsets", str("key '", k, "'"));
  }
  if (!dtype || !shape || !offsets) {
    bad("the keys dtype, shape and data_offsets", str("missing ", !dtype   ? "dtype"
                                                                  : !shape ? "shape"
                                                                           : "data_offsets"));
  }
  Entry e{name, DType::kUndefined, {}, 0, 0};
  if (dtype->kind != Json::kString) bad("a dtype string", "another value");
  for (const auto& n : kDTypeNames) {
    if (dtype->text == n.name) e.dtype = n.dtype;
  }
  if (e.dtype == DType::kUndefined) {
    bad("dtype F32, F64, BF16, F16, I64, I32, I16, I8, U8 or BOOL", str("'", dtype->text, "'"));
  }
  if (shape->kind != Json::kArray) bad("a shape array", "another value");
  if (shape->items.size() > static_cast<size_t>(kMaxRank)) {
    bad(str("a shape of at most ", kMaxRank, " dims"), str(shape->items.size(), " dims"));
  }
  uint64_t numel = 1;
  for (const Json& d : shape->items) {
    if (d.kind != Json::kNumber) bad("non-negative integer dims", "another value");
    if (d.number > (uint64_t{1} << 48)) bad("dims below 2^48", str(d.number));
    if (d.number != 0 && numel > (uint64_t{1} << 62) / d.number)
      bad("fewer elements", "an overflow");
    numel *= d.number;
    e.shape.push_back(static_cast<int64_t>(d.number));
  }
  if (offsets->kind != Json::kArray || offsets->items.size() != 2 ||
      offsets->items[0].kind != Json::kNumber || offsets->items[1].kind != Json::kNumber) {
    bad("data_offsets [begin, end]", "another value");
  }
  e.begin = offsets->items[0].number;
  e.end = offsets->items[1].number;
  const uint64_t nbytes = numel * static_cast<uint64_t>(dtype_size(e.dtype));
  if (e.end < e.begin || e.end - e.begin != nbytes) {
    bad(str("data_offsets spanning ", nbytes, " bytes (", dtype->text, " ", str(e.shape), ")"),
        str("[", e.begin, ", ", e.end, "]"));
  }
  return e;
}

}  // namespace

StateDict load(const std::string& path, CheckpointMetadata* metadata) {
  InputFile f(path);
  const std::string where = load_op(path);
  SKIFF_ENFORCE(f.size() >= 8, kIOError, where, "", "at least 8 bytes (the header size)",
                str(f.size(), " bytes"));
  uint8_t len[8];
  f.read_at(0, len, 8);
  uint64_t hn = 0;
  for (int i = 7; i >= 0; --i) hn = (hn << 8) | len[i];
  SKIFF_ENFORCE(hn >= 2 && hn <= kMaxHeader, kIOError, where, "",
                str("a header size in [2, ", kMaxHeader, "]"), hn);
  SKIFF_ENFORCE(8 + hn <= f.size(), kIOError, where, "",
                str("a header of ", hn, " bytes after the size field (a truncated file?)"),
                str(f.size(), " bytes in the file"));
  std::string header(hn, '\0');
  f.read_at(8, header.data(), hn);
  const Json root = JsonParser(header, where).parse_document();
  SKIFF_ENFORCE(root.kind == Json::kObject, kIOError, where, "", "a JSON object as the header",
                "another value");

  std::vector<Entry> entries;
  std::set<std::string> names;
  for (const auto& [name, v] : root.members) {
    SKIFF_ENFORCE(names.insert(name).second, kIOError, where, "", "unique tensor names",
                  str("'", name, "' twice"));
    if (name == "__metadata__") {
      SKIFF_ENFORCE(v.kind == Json::kObject, kIOError, where, "",
                    "__metadata__ as an object of strings", "another value");
      for (const auto& [k, m] : v.members) {
        SKIFF_ENFORCE(m.kind == Json::kString, kIOError, where, "",
                      "__metadata__ values that are strings", str("key '", k, "'"));
        if (metadata) (*metadata)[k] = m.text;
      }
      continue;
    }
    entries.push_back(parse_entry(path, name, v));
  }
  // The data must be covered exactly: sorted by offset, each entry starts where the previous
  // one ended and the last ends at the end of the file.
  std::vector<const Entry*> sorted;
  for (const Entry& e : entries) sorted.push_back(&e);
  std::sort(sorted.begin(), sorted.end(),
            [](const Entry* a, const Entry* b) { return a->begin < b->begin; });
  const uint64_t data_size = f.size() - 8 - hn;
  uint64_t expect = 0;
  for (const Entry* e : sorted) {
    SKIFF_ENFORCE(e->begin == expect, kIOError, where, e->name,
                  str("data starting at byte ", expect, " (no gaps or overlaps)"),
                  str("data_offsets [", e->begin, ", ", e->end, "]"));
    expect = e->end;
  }
  SKIFF_ENFORCE(
      expect == data_size, kIOError, where, "",
      str(expect, " bytes of tensor data", expect > data_size ? " (a truncated file?)" : ""),
      str(data_size, " bytes after the header"));

  StateDict out;
  for (const Entry& e : entries) {
    Dims dims;
    for (int64_t d : e.shape) dims.push_back(d);
    DenseTensor t = DenseTensor::empty(dims, e.dtype, Place::cpu());
    if (e.end > e.begin) f.read_at(8 + hn + e.begin, t.raw_data(), e.end - e.begin);
    out.set(e.name, Tensor(std::move(t)));
  }
  return out;
}

}  // namespace skiff
