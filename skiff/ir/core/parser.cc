// A hand-written recursive-descent parser over characters for the text form of asm.h. It never
// trusts its input: every count, name and number is checked, nesting depth is bounded, and every
// partially built op is owned by RAII so a malformed text only throws skiff::Error.
#include <cctype>
#include <charconv>
#include <climits>
#include <cstdint>
#include <cstring>

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/dense_elements.h"
#include "skiff/ir/core/dialect.h"
#include "skiff/ir/core/program.h"
#include "skiff/ir/dialects/builtin.h"

namespace skiff::ir {

namespace {
constexpr int kMaxDepth = 200;
bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}
struct OpDeleter {
  void operator()(Operation* op) const { op->destroy(); }
};
// Regions parsed before their op exists. A later region may use values of an earlier one (the
// verifier rejects that), so teardown drops every reference before freeing anything.
struct PendingRegions {
  std::vector<std::unique_ptr<Region>> regions;
  ~PendingRegions() {
    for (auto& r : regions) r->drop_all_references();
  }
};
}  // namespace

void AsmParser::error(std::string_view expected) const {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
    if (text_[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  std::string got = pos_ >= text_.size() ? "end of input" : str("'", text_.substr(pos_, 16), "'");
  for (char& c : got) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  SKIFF_THROW(kInvalidArgument, "parser", str(line, ":", col), expected, got);
}

void AsmParser::skip_ws() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else {
      break;
    }
  }
}

char AsmParser::peek() {
  skip_ws();
  return pos_ < text_.size() ? text_[pos_] : '\0';
}

bool AsmParser::at_end() {
  skip_ws();
  return pos_ >= text_.size();
}

bool AsmParser::consume(std::string_view tok) {
  skip_ws();
  if (text_.substr(pos_, tok.size()) != tok) return false;
  if (is_ident_char(tok.back()) && pos_ + tok.size() < text_.size() &&
      is_ident_char(text_[pos_ + tok.size()])) {
    return false;
  }
  pos_ += tok.size();
  return true;
}

void AsmParser::expect(std::string_view tok) {
  if (!consume(tok)) error(str("'", tok, "'"));
}

void AsmParser::enter() {
  if (++depth_ > kMaxDepth) error(str("nesting depth <= ", kMaxDepth));
}

std::string AsmParser::parse_ident() {
  skip_ws();
  if (pos_ >= text_.size() || !is_ident_start(text_[pos_])) error("an identifier");
  size_t start = pos_;
  while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
  return std::string(text_.substr(start, pos_ - start));
}

int64_t AsmParser::parse_int() {
  skip_ws();
  int64_t v = 0;
  auto res = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v);
  if (res.ec != std::errc()) error("an integer in range");
  pos_ = res.ptr - text_.data();
  return v;
}

std::string AsmParser::parse_string() {
  if (peek() != '"') error("a string");
  ++pos_;
  std::string out;
  while (true) {
    if (pos_ >= text_.size()) error("a closing '\"'");
    char c = text_[pos_++];
    if (c == '"') break;
    if (c != '\\') {
      out += c;
      continue;
    }
    if (pos_ >= text_.size()) error("an escape");
    char e = text_[pos_++];
    if (e == 'n') {
      out += '\n';
    } else if (e == 't') {
      out += '\t';
    } else if (e == '"' || e == '\\') {
      out += e;
    } else if (e == 'x' && pos_ + 2 <= text_.size() &&
               std::isxdigit(static_cast<unsigned char>(text_[pos_])) &&
               std::isxdigit(static_cast<unsigned char>(text_[pos_ + 1]))) {
      out += static_cast<char>(std::stoi(std::string(text_.substr(pos_, 2)), nullptr, 16));
      pos_ += 2;
    } else {
      --pos_;
      error("a valid escape (\\n \\t \\\" \\\\ \\xHH)");
    }
  }
  return out;
}

// Types
// --------------------------------------------------------------------------------------------
Type AsmParser::parse_type() {
  enter();
  Type t;
  if (consume("none")) {
    t = Type();
  } else if (consume("tensor")) {
    expect("<");
    std::vector<int64_t> dims;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '?') {
        ++pos_;
        dims.push_back(kDynamic);
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        int64_t d = 0;
        auto res = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), d);
        if (res.ec != std::errc() || d > (int64_t{1} << 48)) error("a dimension in range");
        pos_ = res.ptr - text_.data();
        dims.push_back(d);
      } else {
        break;
      }
      if (pos_ >= text_.size() || text_[pos_] != 'x') error("'x' after a dimension");
      ++pos_;
    }
    std::string dt = parse_ident();
    auto dtype = parse_dtype(dt);
    if (!dtype) error("a dtype (f32, i64, bool, ...)");
    Layout layout = Layout::kAny;
    if (consume(",")) {
      auto l = parse_layout(parse_ident());
      if (!l) error("a layout (NCHW, NHWC, ...)");
      layout = *l;
    }
    expect(">");
    t = TensorType::get(ctx_, *dtype, dims, layout);
  } else if (consume("vec")) {
    expect("<");
    std::vector<Type> elems;
    if (!consume(">")) {
      do {
        elems.push_back(parse_type());
      } while (consume(","));
      expect(">");
    }
    t = VectorType::get(ctx_, elems);
  } else if (consume("!")) {
    std::string mnemonic = parse_ident();
    const AbstractKind* k = ctx_->find_kind(mnemonic);
    if (!k || !k->print_type || !k->dialect) error("a registered dialect type");
    t = k->dialect->parse_type(mnemonic, *this);
  } else {
    error("a type");
  }
  leave();
  return t;
}

// Attributes --------------------------------------------------------------------------------------
std::string_view AsmParser::scan_number() {
  skip_ws();
  size_t start = pos_;
  if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) ++pos_;
  while (pos_ < text_.size() &&
         (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.' ||
          ((text_[pos_] == '-' || text_[pos_] == '+') &&
           (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E')))) {
    ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

Attribute AsmParser::parse_number() {
  std::string_view tok = scan_number();
  size_t start = pos_ - tok.size();
  bool is_float = tok.find_first_of(".eEni") != std::string_view::npos;
  const char* b = tok.data();
  if (!tok.empty() && tok[0] == '+') ++b;
  const char* e = tok.data() + tok.size();
  if (is_float) {
    double v = 0;
    auto res = std::from_chars(b, e, v);
    if (res.ec != std::errc() || res.ptr != e) {
      pos_ = start;
      error("a number");
    }
    return FloatAttr::get(ctx_, v);
  }
  int64_t v = 0;
  auto res = std::from_chars(b, e, v);
  if (res.ec != std::errc() || res.ptr != e) {
    pos_ = start;
    error("an integer in range");
  }
  return IntAttr::get(ctx_, v);
}

LocAttr AsmParser::parse_loc() {
  expect("(");
  struct Frame {
    std::string file;
    int64_t line, col;
  };
  std::vector<Frame> frames;
  do {
    Frame f;
    f.file = parse_string();
    expect(":");
    f.line = parse_int();
    expect(":");
    f.col = parse_int();
    frames.push_back(std::move(f));
  } while (consume("at"));
  expect(")");
  LocAttr loc;
  for (size_t i = frames.size(); i-- > 0;) {
    loc = LocAttr::get(ctx_, frames[i].file, frames[i].line, frames[i].col, loc);
  }
  return loc;
}

// dense<tensor<..>, VALUE | [V, ...] | "0x..."> (see dense_elements.h).
Attribute AsmParser::parse_dense() {
  expect("<");
  auto type = parse_type().dyn_cast<TensorType>();
  if (!type || type.is_dynamic() || dtype_size(type.dtype()) == 0) {
    error("a static tensor type of dense elements");
  }
  expect(",");
  DataType dt = type.dtype();
  size_t es = dtype_size(dt);
  int64_t numel = type.numel();
  Attribute a;
  if (peek() == '"') {
    std::string bytes;
    if (!from_hex(parse_string(), bytes)) error("a hex blob \"0x...\"");
    auto data = std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    if (bytes.size() == es) {
      a = DenseElementsAttr::get_splat(ctx_, type, data);
    } else if (numel >= 0 && static_cast<uint64_t>(numel) <= bytes.size() / es &&
               bytes.size() == static_cast<size_t>(numel) * es) {
      a = DenseElementsAttr::get(ctx_, type, data);
    } else {
      error(str("a hex blob of one element or ", numel, " elements of ", es, " bytes"));
    }
  } else {
    bool list = consume("[");
    std::vector<uint8_t> bytes;
    if (!list || !consume("]")) {
      do {
        bytes.resize(bytes.size() + es);
        parse_dense_element(dt, bytes.data() + bytes.size() - es);
      } while (list && consume(","));
      if (list) expect("]");
    }
    size_t n = bytes.size() / es;
    if (!list) {
      a = DenseElementsAttr::get_splat(ctx_, type, bytes);
    } else if (static_cast<int64_t>(n) == numel) {
      a = DenseElementsAttr::get(ctx_, type, bytes);
    } else {
      error(str(numel, " elements (got ", n, ")"));
    }
  }
  expect(">");
  return a;
}

void AsmParser::parse_dense_element(DataType dt, uint8_t* p) {
  auto put = [p](auto v) { std::memcpy(p, &v, sizeof v); };
  if (dt == DataType::kBool) {
    if (consume("true")) {
      p[0] = 1;
    } else if (consume("false")) {
      p[0] = 0;
    } else {
      error("true or false");
    }
    return;
  }
  std::string_view tok = scan_number();
  size_t start = pos_ - tok.size();
  const char* b = tok.data() + (!tok.empty() && tok[0] == '+');
  const char* e = tok.data() + tok.size();
  auto parse_int = [&](int64_t lo, int64_t hi) {
    int64_t v = 0;
    auto r = std::from_chars(b, e, v);
    if (r.ec != std::errc() || r.ptr != e || v < lo || v > hi) {
      pos_ = start;
      error(str("an integer in [", lo, ", ", hi, "]"));
    }
    return v;
  };
  auto parse_float = [&](auto v) {
    auto r = std::from_chars(b, e, v);
    if (r.ec != std::errc() || r.ptr != e) {
      pos_ = start;
      error("a number");
    }
    return v;
  };
  switch (dt) {
    case DataType::kInt8:
      put(static_cast<int8_t>(parse_int(INT8_MIN, INT8_MAX)));
      break;
    case DataType::kUInt8:
      put(static_cast<uint8_t>(parse_int(0, UINT8_MAX)));
      break;
    case DataType::kInt16:
      put(static_cast<int16_t>(parse_int(INT16_MIN, INT16_MAX)));
      break;
    case DataType::kInt32:
      put(static_cast<int32_t>(parse_int(INT32_MIN, INT32_MAX)));
      break;
    case DataType::kInt64:
      put(parse_int(INT64_MIN, INT64_MAX));
      break;
    case DataType::kFloat32:
      put(parse_float(0.0f));
      break;
    case DataType::kFloat64:
      put(parse_float(0.0));
      break;
    default:
      pos_ = start;
      error(str("a hex blob for ", dtype_name(dt), " elements"));
  }
}

Attribute AsmParser::parse_attr() {
  enter();
  Attribute a;
  char c = peek();
  if (c == '"') {
    a = StrAttr::get(ctx_, parse_string());
  } else if (c == '[') {
    ++pos_;
    std::vector<Attribute> elems;
    if (!consume("]")) {
      do {
        elems.push_back(parse_attr());
      } while (consume(","));
      expect("]");
    }
    a = ArrayAttr::get(ctx_, elems);
  } else if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c))) {
    a = parse_number();
  } else if (c == '#') {
    ++pos_;
    std::string mnemonic = parse_ident();
    const AbstractKind* k = ctx_->find_kind(mnemonic);
    if (!k || !k->print_attr || !k->dialect) error("a registered dialect attribute");
    a = k->dialect->parse_attr(mnemonic, *this);
  } else if (consume("true")) {
    a = BoolAttr::get(ctx_, true);
  } else if (consume("false")) {
    a = BoolAttr::get(ctx_, false);
  } else if (consume("inf") || consume("nan")) {
    pos_ -= 3;
    a = parse_number();
  } else if (consume("dense")) {
    a = parse_dense();
  } else if (consume("type")) {
    expect("<");
    a = TypeAttr::get(ctx_, parse_type());
    expect(">");
  } else if (consume("loc")) {
    a = parse_loc();
  } else if (is_ident_start(c)) {
    size_t start = pos_;
    auto d = parse_dtype(parse_ident());
    if (!d) {
      pos_ = start;
      error("an attribute");
    }
    a = DTypeAttr::get(ctx_, *d);
  } else {
    error("an attribute");
  }
  leave();
  return a;
}

// Ops
// ----------------------------------------------------------------------------------------------
std::string AsmParser::parse_value_name() {
  if (peek() != '%') error("a value name (%...)");
  size_t start = pos_++;
  while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
  if (pos_ == start + 1) error("a value name after '%'");
  return std::string(text_.substr(start, pos_ - start));
}

namespace {
// The number of a name "%<digits>" (small enough to index a vector), or -1.
int64_t numbered(std::string_view name) {
  if (name.size() < 2 || name.size() > 8) return -1;
  int64_t n = 0;
  for (char c : name.substr(1)) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n;
}
}  // namespace

Value AsmParser::lookup_value(std::string_view name) {
  if (int64_t n = numbered(name); n >= 0) {
    if (n >= static_cast<int64_t>(numbered_.size()) || !numbered_[n]) {
      error("a value defined before its use");
    }
    return numbered_[n];
  }
  auto it = values_.find(std::string(name));
  if (it == values_.end()) error("a value defined before its use");
  return it->second;
}

void AsmParser::define_value(const std::string& name, Value v) {
  if (int64_t n = numbered(name); n >= 0) {
    if (n >= static_cast<int64_t>(numbered_.size())) numbered_.resize(n + 1);
    if (numbered_[n]) error(str("a fresh value name, '", name, "' is redefined"));
    numbered_[n] = v;
    return;
  }
  if (!values_.emplace(name, v).second) error(str("a fresh value name, '", name, "' is redefined"));
}

Operation* AsmParser::parse_op(Block* block) {
  std::vector<std::string> result_names;
  size_t op_start = pos_;
  if (peek() == '%') {
    do {
      result_names.push_back(parse_value_name());
    } while (consume(","));
    expect("=");
  }
  skip_ws();
  op_start = pos_;
  std::string name = parse_ident();
  const OpInfo* info = ctx_->find_op(name);
  if (!info) {
    pos_ = op_start;
    error(str("a registered op name, got '", name, "'"));
  }
  std::vector<Value> operands;
  if (consume("(")) {
    if (!consume(")")) {
      do {
        if (consume("null")) {
          operands.push_back(Value());
        } else {
          operands.push_back(lookup_value(parse_value_name()));
        }
      } while (consume(","));
      expect(")");
    }
  }
  std::vector<NamedAttribute> attrs;
  if (peek() == '{') {
    // An attribute dictionary is `{name = ...`; anything else is a region.
    size_t save = pos_++;
    skip_ws();
    bool is_dict = pos_ < text_.size() && is_ident_start(text_[pos_]);
    if (is_dict) {
      parse_ident();
      is_dict = consume("=");
    }
    pos_ = save + 1;
    if (is_dict) {
      do {
        std::string key = parse_ident();
        expect("=");
        attrs.push_back({StrAttr::get(ctx_, key), parse_attr()});
      } while (consume(","));
      expect("}");
    } else {
      pos_ = save;
    }
  }
  std::vector<Type> operand_types, result_types;
  skip_ws();
  size_t sig_pos = pos_;
  if (consume(":")) {
    expect("(");
    if (!consume(")")) {
      do {
        operand_types.push_back(parse_type());
      } while (consume(","));
      expect(")");
    }
    expect("->");
    if (consume("(")) {
      if (!consume(")")) {
        do {
          result_types.push_back(parse_type());
        } while (consume(","));
        expect(")");
      }
    } else {
      result_types.push_back(parse_type());
    }
  }
  size_t end_pos = pos_;
  pos_ = sig_pos;  // report signature mismatches at the signature
  if (operand_types.size() != operands.size()) error(str(operands.size(), " operand types"));
  if (result_types.size() != result_names.size()) error(str(result_names.size(), " result types"));
  for (size_t i = 0; i < operands.size(); ++i) {
    Type actual = operands[i] ? operands[i].type() : Type();
    if (actual != operand_types[i]) error(str("operand ", i, " of type ", to_string(actual)));
  }
  for (Type t : result_types) {
    if (!t) error("a result type other than none");
  }
  pos_ = end_pos;
  PendingRegions pending;
  auto& regions = pending.regions;
  while (peek() == '{') {
    regions.push_back(std::make_unique<Region>());
    parse_region(*regions.back());
  }
  LocAttr loc;
  if (consume("loc")) loc = parse_loc();
  Operation* op = Operation::create(info, operands, result_types, std::move(attrs),
                                    static_cast<uint32_t>(regions.size()), loc);
  if (block) {
    block->push_back(op);
  }
  std::unique_ptr<Operation, OpDeleter> guard(block ? nullptr : op);
  for (size_t i = 0; i < regions.size(); ++i)
    op->region(static_cast<uint32_t>(i)).take_body(*regions[i]);
  for (size_t i = 0; i < result_names.size(); ++i) {
    define_value(result_names[i], op->result(static_cast<uint32_t>(i)));
  }
  guard.release();
  return op;
}

void AsmParser::parse_region(Region& r) {
  enter();
  expect("{");
  if (consume("}")) {
    leave();
    return;
  }
  bool first = true;
  while (true) {
    char c = peek();
    Block* b = nullptr;
    if (c == '^') {
      ++pos_;
      parse_ident();
      b = r.add_block();
      if (consume("(")) {
        do {
          std::string n = parse_value_name();
          expect(":");
          Type t = parse_type();
          if (!t) error("a block argument type other than none");
          define_value(n, b->add_arg(t));
        } while (consume(","));
        expect(")");
      }
      expect(":");
    } else if (first) {
      b = r.add_block();
    } else {
      error("'^' (a block) or '}'");
    }
    first = false;
    parse_block_body(b);
    if (consume("}")) break;
  }
  leave();
}

void AsmParser::parse_block_body(Block* b) {
  while (true) {
    char c = peek();
    if (c == '}' || c == '^') return;
    if (c == '\0') error("'}'");
    parse_op(b);
  }
}

std::unique_ptr<Program> AsmParser::parse_program() {
  skip_ws();
  std::unique_ptr<Operation, OpDeleter> module(parse_op(nullptr));
  if (!module->isa<ModuleOp>() || module->num_regions() != 1 || module->region(0).size() != 1) {
    error("one builtin.module op with one block");
  }
  if (!at_end()) error("end of input after the module");
  return Program::adopt(ctx_, module.release());
}

}  // namespace skiff::ir
