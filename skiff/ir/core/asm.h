// The text form. Every op prints in one generic syntax that parses back to the same IR:
//   %3, %4 = dialect.op(%1, %2) {attr = 1, name = "x"} : (tensor<2x?xf32>, vec<...>) -> (T, T) {
//   ^bb0(%5: tensor<f32>):
//     ...
//   } loc("model.py":12:3)
// The type signature is printed when the op has operands, results or regions; regions follow it.
// Values are numbered %0, %1, ... in print order across the whole program. Absent optional
// operands print as `null` with type `none`. Dialect types print as !dialect.name<...> and
// dialect attributes as #dialect.name<...>.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "skiff/ir/core/operation.h"

namespace skiff::ir {

class Program;

class AsmPrinter {
 public:
  explicit AsmPrinter(std::ostream& os) : os_(os) {}
  std::ostream& os() { return os_; }
  void print_type(Type t);
  void print_attr(Attribute a);
  void print_op(Operation* op);
  void print_region(Region& r);
  void print_value(Value v);
  void print_string(std::string_view s);

 private:
  void indent();
  void print_block(Block* b, int label);  // label < 0: no header
  std::ostream& os_;
  std::unordered_map<detail::ValueImpl*, uint32_t> names_;
  uint32_t next_id_ = 0;
  int indent_ = 0;
};

std::string to_string(Type t);
std::string to_string(Attribute a);
std::string to_string(Operation* op);

class AsmParser {
 public:
  AsmParser(IrContext* ctx, std::string_view text) : ctx_(ctx), text_(text) {}
  IrContext* context() const { return ctx_; }

  /// Parses a whole program: one builtin.module op.
  std::unique_ptr<Program> parse_program();
  Type parse_type();
  Attribute parse_attr();

  // Lexical helpers for dialect hooks ------------------------------------------------------------
  void skip_ws();
  char peek();
  bool at_end();
  /// Consumes `tok` (after whitespace) when it is next.
  bool consume(std::string_view tok);
  void expect(std::string_view tok);
  std::string parse_ident();
  int64_t parse_int();
  std::string parse_string();
  [[noreturn]] void error(std::string_view expected) const;

 private:
  Operation* parse_op(Block* block);
  void parse_region(Region& r);
  void parse_block_body(Block* b);
  Value lookup_value(std::string_view name);
  void define_value(const std::string& name, Value v);
  std::string parse_value_name();
  Attribute parse_number();
  std::string_view scan_number();
  Attribute parse_dense();
  void parse_dense_element(DataType dt, uint8_t* p);
  LocAttr parse_loc();
  void enter();
  void leave() { --depth_; }

  IrContext* ctx_;
  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::unordered_map<std::string, Value> values_;
  std::vector<Value> numbered_;  // %0, %1, ...: the printer's names, looked up without hashing
};

}  // namespace skiff::ir
