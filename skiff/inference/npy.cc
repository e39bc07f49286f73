// .npy reading and writing (npy.h). The header is a Python dict literal; instead of a general
// literal parser this reads exactly the grammar numpy's writer emits (quoted keys, a quoted
// descr, True/False, a tuple of non-negative ints), in any key order, with optional spaces and a
// trailing comma, so a file numpy wrote always parses and nothing else is interpreted.
#include "skiff/inference/npy.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <vector>

#include "skiff/base/atomic_file.h"
#include "skiff/base/error.h"
#include "skiff/core/shape_math.h"

namespace skiff::inference {

namespace {

constexpr const char* kReadOp = "read npy";
constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

[[noreturn]] void bad_npy(const std::string& source, const std::string& what) {
  SKIFF_THROW(kInvalidArgument, kReadOp, "",
              "a .npy file of a plain array (numpy.save of a C-order array)",
              str("'", source, "' with ", what));
}

struct NpyDType {
  const char* descr;  // without the byte-order character
  DType dtype;
};
// Byte-order characters: '<' little, '|' not applicable (1 byte), '=' native (little here).
constexpr NpyDType kDTypes[] = {
    {"f4", DType::kFloat32}, {"f8", DType::kFloat64}, {"f2", DType::kFloat16},
    {"i8", DType::kInt64},   {"i4", DType::kInt32},   {"i2", DType::kInt16},
    {"i1", DType::kInt8},    {"u1", DType::kUInt8},   {"b1", DType::kBool},
};

std::optional<DType> dtype_of_descr(const std::string& d) {
  if (d.size() != 3 || (d[0] != '<' && d[0] != '|' && d[0] != '=')) return std::nullopt;
  for (const NpyDType& t : kDTypes) {
    if (d.compare(1, 2, t.descr) != 0) continue;
    // '|' only for one-byte types, as numpy writes them.
    if (d[0] == '|' && dtype_size(t.dtype) != 1) return std::nullopt;
    return t.dtype;
  }
  return std::nullopt;
}

// A cursor over the header text; every failure names what was expected at which offset.
class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& source)
      : s_(text), source_(source) {}

  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
  }
  bool eat(char c) {
    skip_space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void expect(char c, const char* what) {
    if (!eat(c)) fail(what);
  }
  [[noreturn]] void fail(const std::string& what) const {
    bad_npy(source_, str("a header that is not a plain array's (expected ", what, " at offset ",
                         i_, " of '", clipped(), "')"));
  }
  std::string quoted() {
    skip_space();
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) fail("a quoted string");
    const char q = s_[i_++];
    const size_t end = s_.find(q, i_);
    if (end == std::string::npos || end - i_ > 64) fail("a closing quote");
    std::string v = s_.substr(i_, end - i_);
    if (v.find('\\') != std::string::npos) fail("a string without escapes");
    i_ = end + 1;
    return v;
  }
  bool boolean() {
    skip_space();
    if (s_.compare(i_, 4, "True") == 0) {
      i_ += 4;
      return true;
    }
    if (s_.compare(i_, 5, "False") == 0) {
      i_ += 5;
      return false;
    }
    fail("True or False");
  }
  std::vector<int64_t> shape() {
    expect('(', "'(' opening the shape");
    std::vector<int64_t> dims;
    if (eat(')')) return dims;
    while (true) {
      skip_space();
      if (dims.size() >= static_cast<size_t>(kMaxRank)) {
        bad_npy(source_, str("a shape of more than ", kMaxRank, " dims (Skiff's largest rank)"));
      }
      const size_t start = i_;
      int64_t v = 0;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
        const int digit = s_[i_++] - '0';
        if (v > (INT64_MAX - digit) / 10) {
          bad_npy(source_, str("a dim that overflows int64 in '", clipped(), "'"));
        }
        v = v * 10 + digit;
      }
      if (i_ == start) fail("a non-negative int in the shape");
      dims.push_back(v);
      const bool comma = eat(',');
      if (eat(')')) break;
      if (!comma) fail("',' or ')' in the shape");
    }
    return dims;
  }
  bool at_end() {
    skip_space();
    return i_ == s_.size();
  }

 private:
  std::string clipped() const { return s_.size() > 120 ? s_.substr(0, 120) + "..." : s_; }
  const std::string& s_;
  const std::string& source_;
  size_t i_ = 0;
};

struct Header {
  DType dtype = DType::kUndefined;
  std::vector<int64_t> shape;
};

Header parse_header(const std::string& text, const std::string& source) {
  HeaderParser p(text, source);
  std::optional<std::string> descr;
  std::optional<bool> fortran;
  std::optional<std::vector<int64_t>> shape;
  p.expect('{', "'{'");
  while (!p.eat('}')) {
    const std::string key = p.quoted();
    p.expect(':', "':' after a key");
    if (key == "descr" && !descr) {
      descr = p.quoted();
    } else if (key == "fortran_order" && !fortran) {
      fortran = p.boolean();
    } else if (key == "shape" && !shape) {
      shape = p.shape();
    } else {
      bad_npy(source, str("a header key '", key.substr(0, 32),
                          "' repeated or not one of descr, fortran_order, shape"));
    }
    if (!p.eat(',')) {
      p.expect('}', "',' or '}'");
      break;
    }
  }
  if (!p.at_end()) p.fail("the end of the header after '}'");
  if (!descr || !fortran || !shape) {
    bad_npy(source, "a header missing one of the keys descr, fortran_order, shape");
  }
  const std::optional<DType> dtype = dtype_of_descr(*descr);
  if (!dtype) {
    bad_npy(source, str("dtype descr '", *descr,
                        "' (expected a little-endian bool, int8/16/32/64, uint8 or "
                        "float16/32/64: '<f4', '|b1', ...)"));
  }
  if (*fortran) {
    bad_npy(source, "fortran_order True (save numpy.ascontiguousarray(a) instead)");
  }
  return {*dtype, std::move(*shape)};
}

uint32_t little_u32(const uint8_t* p, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

DenseTensor parse_npy(const uint8_t* data, size_t size, const std::string& source) {
  if (size < kMagicLen + 2 || std::memcmp(data, kMagic, kMagicLen) != 0) {
    bad_npy(source, size < kMagicLen + 2 ? str(size, " bytes, too few for the .npy preamble")
                                         : std::string("no .npy magic (\\x93NUMPY)"));
  }
  const int major = data[kMagicLen];
  const int minor = data[kMagicLen + 1];
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    bad_npy(source, str("format version ", major, ".", minor, " (expected 1.0, 2.0 or 3.0)"));
  }
  const int len_bytes = major == 1 ? 2 : 4;
  const size_t preamble = kMagicLen + 2 + static_cast<size_t>(len_bytes);
  if (size < preamble) bad_npy(source, "a preamble cut short");
  const uint32_t header_len = little_u32(data + kMagicLen + 2, len_bytes);
  if (header_len > kMaxNpyHeaderBytes) {
    bad_npy(source, str("a header of ", header_len, " bytes (at most ", kMaxNpyHeaderBytes,
                        " accepted)"));
  }
  if (size - preamble < header_len) {
    bad_npy(source, str("a header of ", header_len, " bytes but only ", size - preamble,
                        " bytes after the preamble (truncated)"));
  }
  std::string text(reinterpret_cast<const char*>(data + preamble), header_len);
  // numpy ends the header with '\n' after space padding; versions 1 and 2 are latin-1/ASCII.
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) {
      bad_npy(source, "a header with a byte that is not printable ASCII");
    }
  }
  Header h = parse_header(text, source);
  const Dims dims(h.shape);
  const int64_t nbytes = checked_nbytes(dims, dtype_size(h.dtype), kReadOp, source);
  const size_t have = size - preamble - header_len;
  if (static_cast<uint64_t>(nbytes) != have) {
    bad_npy(source, str("shape ", h.shape, " of ", dtype_name(h.dtype), " (", nbytes,
                        " bytes of data) but ", have, " bytes after the header",
                        static_cast<uint64_t>(nbytes) > have ? " (truncated)"
                                                             : " (trailing bytes)"));
  }
  DenseTensor t = DenseTensor::empty(dims, h.dtype);
  if (nbytes > 0) std::memcpy(t.raw_data(), data + preamble + header_len, have);
  if (h.dtype == DType::kBool) {
    // numpy bools are bytes 0/1; anything else would be an invalid C++ bool.
    const uint8_t* b = static_cast<const uint8_t*>(t.raw_data());
    for (int64_t i = 0; i < nbytes; ++i) {
      if (b[i] > 1) bad_npy(source, str("bool element ", i, " holding ", int{b[i]}, " (not 0/1)"));
    }
  }
  return t;
}

DenseTensor read_npy(const std::string& path) {
  std::error_code ec;
  SKIFF_ENFORCE(std::filesystem::is_regular_file(path, ec), kIOError, kReadOp, "path",
                "an existing .npy file",
                str("'", path, "'", std::filesystem::exists(path, ec) ? ", not a regular file"
                                                                       : ", which does not exist"));
  std::ifstream in(path, std::ios::binary);
  SKIFF_ENFORCE(in.good(), kIOError, kReadOp, "path", "a readable file",
                str("'", path, "' (", std::strerror(errno), ")"));
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  SKIFF_ENFORCE(!in.bad(), kIOError, kReadOp, "path", "a readable file",
                str("'", path, "' (read failed)"));
  return parse_npy(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), path);
}

std::string npy_bytes(const DenseTensor& t, const std::string& what) {
  const char* descr = nullptr;
  for (const NpyDType& d : kDTypes) {
    if (d.dtype == t.dtype()) descr = d.descr;
  }
  SKIFF_ENFORCE(descr != nullptr, kUnimplemented, "write npy", what,
                "a dtype numpy has (bool, int8/16/32/64, uint8, float16/32/64)",
                dtype_name(t.dtype()));
  std::string shape = "(";
  for (int i = 0; i < t.rank(); ++i) shape += str(i ? ", " : "", t.dim(i));
  shape += t.rank() == 1 ? ",)" : ")";  // Python's one-element tuple
  const char order = dtype_size(t.dtype()) == 1 ? '|' : '<';
  std::string header =
      str("{'descr': '", order, descr, "', 'fortran_order': False, 'shape': ", shape, ", }");
  // Pad with spaces so preamble + header + '\n' is a multiple of 64 (numpy's alignment).
  const size_t unpadded = kMagicLen + 4 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, kMagicLen);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>((header.size() >> 8) & 0xff);
  out += header;
  const DenseTensor c = t.place() == Place::cpu() ? t.contiguous()
                                                  : t.copy_to(Place::cpu()).contiguous();
  if (c.nbytes() > 0) {
    out.append(static_cast<const char*>(c.raw_data()), static_cast<size_t>(c.nbytes()));
  }
  return out;
}

void write_npy(const DenseTensor& t, const std::string& path) {
  write_file_atomically(path, npy_bytes(t, path), str("write npy '", path, "'"));
}

}  // namespace skiff::inference
