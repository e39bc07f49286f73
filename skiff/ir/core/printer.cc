// The printer of the generic text form described in asm.h.
#include <charconv>
#include <cstring>
#include <sstream>

#include "skiff/base/error.h"
#include "skiff/ir/core/asm.h"
#include "skiff/ir/core/dense_elements.h"
#include "skiff/ir/core/dialect.h"

namespace skiff::ir {

void AsmPrinter::indent() {
  for (int i = 0; i < indent_; ++i) os_ << "  ";
}

void AsmPrinter::print_string(std::string_view s) {
  static const char* kHex = "0123456789abcdef";
  os_ << '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      os_ << '\\' << c;
    } else if (c == '\n') {
      os_ << "\\n";
    } else if (c == '\t') {
      os_ << "\\t";
    } else if (c < 0x20 || c >= 0x7f) {
      os_ << "\\x" << kHex[c >> 4] << kHex[c & 15];
    } else {
      os_ << c;
    }
  }
  os_ << '"';
}

void AsmPrinter::print_type(Type t) {
  if (!t) {
    os_ << "none";
    return;
  }
  if (auto tt = t.dyn_cast<TensorType>()) {
    os_ << "tensor<";
    for (int64_t d : tt.shape()) {
      if (d == kDynamic) {
        os_ << '?';
      } else {
        os_ << d;
      }
      os_ << 'x';
    }
    os_ << dtype_name(tt.dtype());
    if (tt.layout() != Layout::kAny) os_ << ", " << layout_name(tt.layout());
    os_ << '>';
    return;
  }
  if (auto vt = t.dyn_cast<VectorType>()) {
    os_ << "vec<";
    for (size_t i = 0; i < vt.size(); ++i) {
      if (i) os_ << ", ";
      print_type(vt.elements()[i]);
    }
    os_ << '>';
    return;
  }
  const AbstractKind* k = t.kind();
  SKIFF_CHECK(k->print_type != nullptr);
  os_ << '!' << k->mnemonic;
  k->print_type(t, *this);
}

// Shortest text that parses back to the same value (of the same type).
template <typename F>
static void print_double(std::ostream& os, F v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string_view s(buf, res.ptr - buf);
  os << s;
  if (s.find_first_of(".eni") == std::string_view::npos) os << ".0";
}

// One element of dense data in the inline form (not for f16, bf16 and complex: hex only).
static bool print_element(std::ostream& os, DataType dt, const uint8_t* p) {
  auto load = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (dt) {
    case DataType::kBool:
      os << (p[0] ? "true" : "false");
      return true;
    case DataType::kInt8:
      os << static_cast<int>(load(int8_t()));
      return true;
    case DataType::kUInt8:
      os << static_cast<int>(load(uint8_t()));
      return true;
    case DataType::kInt16:
      os << load(int16_t());
      return true;
    case DataType::kInt32:
      os << load(int32_t());
      return true;
    case DataType::kInt64:
      os << load(int64_t());
      return true;
    case DataType::kFloat32:
      print_double(os, load(float()));
      return true;
    case DataType::kFloat64:
      print_double(os, load(double()));
      return true;
    default:
      return false;
  }
}

static void print_dense(std::ostream& os, DenseElementsAttr d) {
  DataType dt = d.type().dtype();
  size_t es = dtype_size(dt);
  std::span<const uint8_t> raw = d.raw();
  bool inline_ok = dt != DataType::kFloat16 && dt != DataType::kBFloat16 &&
                   dt != DataType::kComplex64 && dt != DataType::kComplex128;
  if (inline_ok && (d.is_splat() || d.numel() == 1)) {
    print_element(os, dt, raw.data());
  } else if (inline_ok && d.numel() <= DenseElementsAttr::kInlineLimit) {
    os << '[';
    for (int64_t i = 0; i < d.numel(); ++i) {
      if (i) os << ", ";
      print_element(os, dt, raw.data() + i * es);
    }
    os << ']';
  } else {
    os << '"' << to_hex(raw) << '"';
  }
}

void AsmPrinter::print_attr(Attribute a) {
  if (!a) {
    os_ << "none";
    return;
  }
  if (auto b = a.dyn_cast<BoolAttr>()) {
    os_ << (b.value() ? "true" : "false");
  } else if (auto i = a.dyn_cast<IntAttr>()) {
    os_ << i.value();
  } else if (auto f = a.dyn_cast<FloatAttr>()) {
    print_double(os_, f.value());
  } else if (auto s = a.dyn_cast<StrAttr>()) {
    print_string(s.value());
  } else if (auto arr = a.dyn_cast<ArrayAttr>()) {
    os_ << '[';
    for (size_t k = 0; k < arr.size(); ++k) {
      if (k) os_ << ", ";
      print_attr(arr[k]);
    }
    os_ << ']';
  } else if (auto d = a.dyn_cast<DTypeAttr>()) {
    os_ << dtype_name(d.value());
  } else if (auto t = a.dyn_cast<TypeAttr>()) {
    os_ << "type<";
    print_type(t.value());
    os_ << '>';
  } else if (auto dense = a.dyn_cast<DenseElementsAttr>()) {
    os_ << "dense<";
    print_type(dense.type());
    os_ << ", ";
    print_dense(os_, dense);
    os_ << '>';
  } else if (auto l = a.dyn_cast<LocAttr>()) {
    os_ << "loc(";
    for (LocAttr c = l; c; c = c.caller()) {
      if (c != l) os_ << " at ";
      print_string(c.file());
      os_ << ':' << c.line() << ':' << c.col();
    }
    os_ << ')';
  } else {
    const AbstractKind* k = a.kind();
    SKIFF_CHECK(k->print_attr != nullptr);
    os_ << '#' << k->mnemonic;
    k->print_attr(a, *this);
  }
}

void AsmPrinter::print_value(Value v) {
  if (!v) {
    os_ << "null";
    return;
  }
  auto [it, inserted] = names_.try_emplace(v.impl(), next_id_);
  if (inserted) ++next_id_;
  os_ << '%' << it->second;
}

void AsmPrinter::print_op(Operation* op) {
  indent();
  for (uint32_t i = 0; i < op->num_results(); ++i) {
    if (i) os_ << ", ";
    print_value(op->result(i));
  }
  if (op->num_results()) os_ << " = ";
  os_ << op->name();
  if (op->num_operands()) {
    os_ << '(';
    for (uint32_t i = 0; i < op->num_operands(); ++i) {
      if (i) os_ << ", ";
      print_value(op->operand(i));
    }
    os_ << ')';
  }
  if (!op->attrs().empty()) {
    os_ << " {";
    bool first = true;
    for (const auto& na : op->attrs()) {
      if (!first) os_ << ", ";
      first = false;
      os_ << na.name.value() << " = ";
      print_attr(na.value);
    }
    os_ << '}';
  }
  if (op->num_operands() || op->num_results()) {
    os_ << " : (";
    for (uint32_t i = 0; i < op->num_operands(); ++i) {
      if (i) os_ << ", ";
      Value v = op->operand(i);
      print_type(v ? v.type() : Type());
    }
    os_ << ") -> ";
    if (op->num_results() == 1) {
      print_type(op->result_type(0));
    } else {
      os_ << '(';
      for (uint32_t i = 0; i < op->num_results(); ++i) {
        if (i) os_ << ", ";
        print_type(op->result_type(i));
      }
      os_ << ')';
    }
  }
  for (uint32_t r = 0; r < op->num_regions(); ++r) {
    os_ << ' ';
    print_region(op->region(r));
  }
  if (op->loc()) {
    os_ << ' ';
    print_attr(op->loc());
  }
  os_ << '\n';
}

void AsmPrinter::print_region(Region& r) {
  os_ << '{';
  if (r.empty()) {
    os_ << '}';
    return;
  }
  os_ << '\n';
  size_t index = 0;
  for (Block* b : r) {
    bool header = r.size() != 1 || b->num_args() != 0 || b->empty();
    print_block(b, header ? static_cast<int>(index) : -1);
    ++index;
  }
  indent();
  os_ << '}';
}

void AsmPrinter::print_block(Block* b, int label) {
  ++indent_;
  if (label >= 0) {
    for (int i = 1; i < indent_; ++i) os_ << "  ";
    os_ << "^bb" << label;
    if (b->num_args()) {
      os_ << '(';
      for (uint32_t i = 0; i < b->num_args(); ++i) {
        if (i) os_ << ", ";
        print_value(b->arg(i));
        os_ << ": ";
        print_type(b->arg(i).type());
      }
      os_ << ')';
    }
    os_ << ":\n";
  }
  for (Operation* op : *b) print_op(op);
  --indent_;
}

std::string to_string(Type t) {
  std::ostringstream os;
  AsmPrinter(os).print_type(t);
  return os.str();
}
std::string to_string(Attribute a) {
  std::ostringstream os;
  AsmPrinter(os).print_attr(a);
  return os.str();
}
std::string to_string(Operation* op) {
  std::ostringstream os;
  AsmPrinter(os).print_op(op);
  return os.str();
}

}  // namespace skiff::ir
