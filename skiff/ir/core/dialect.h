// A Dialect groups ops, types and attributes under a name prefix ("builtin", "cf", "kernel", "op").
// Its constructor registers everything it owns; nothing registers itself from static
// constructors.
#pragma once

#include <string>
#include <string_view>

#include "skiff/ir/core/context.h"
#include "skiff/ir/core/op_info.h"

namespace skiff::ir {

class AsmParser;

class Dialect {
 public:
  Dialect(IrContext* ctx, std::string_view name) : ctx_(ctx), name_(name) {}
  virtual ~Dialect() = default;
  IrContext* context() const { return ctx_; }
  const std::string& name() const { return name_; }

  /// Parses the body of a dialect type `!name.mnemonic<...>`; the parser stands after the
  /// mnemonic. The default throws.
  virtual Type parse_type(std::string_view mnemonic, AsmParser& p);
  virtual Attribute parse_attr(std::string_view mnemonic, AsmParser& p);

  /// Registers a typed op class (see op_base.h).
  template <typename OpT>
  OpInfo* register_op() {
    auto info = std::make_unique<OpInfo>();
    info->name = std::string(OpT::kName);
    info->id = type_id<OpT>();
    info->dialect = this;
    info->ctx = ctx_;
    info->verify = &OpT::verify;
    if constexpr (requires(OpInfo & i) { OpT::populate(i); }) OpT::populate(*info);
    return ctx_->register_op(std::move(info));
  }
  /// Registers a type or attribute kind owned by this dialect.
  template <typename T>
  const AbstractKind* register_kind(std::string_view mnemonic,
                                    void (*print_type)(Type, AsmPrinter&),
                                    void (*print_attr)(Attribute, AsmPrinter&) = nullptr) {
    return ctx_->register_kind(AbstractKind{type_id<T>(), this, mnemonic, print_type, print_attr});
  }

 private:
  IrContext* ctx_;
  std::string name_;
};

}  // namespace skiff::ir
