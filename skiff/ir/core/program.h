// Program: owns the top-level builtin.module op (one region, one block) of a computation.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "skiff/ir/core/operation.h"

namespace skiff::ir {

class Program {
 public:
  explicit Program(IrContext* ctx);
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  IrContext* context() const { return ctx_; }
  Operation* module() const { return module_; }
  Block* block() const;
  /// Deep copy with fresh values.
  std::unique_ptr<Program> clone() const;
  /// Number of ops, including nested ones and excluding the module.
  size_t num_ops() const;

  std::string print() const;
  /// Parses text produced by print() (the module op); throws skiff::Error with line:col.
  static std::unique_ptr<Program> parse(IrContext* ctx, std::string_view text);
  /// Runs the verifier over the module; throws on the first error.
  void verify() const;

  /// Takes ownership of a detached builtin.module op.
  static std::unique_ptr<Program> adopt(IrContext* ctx, Operation* module);

 private:
  Program(IrContext* ctx, Operation* module) : ctx_(ctx), module_(module) {}
  IrContext* ctx_;
  Operation* module_;
};

}  // namespace skiff::ir
