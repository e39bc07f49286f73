// Builtin attributes: scalars (bool, int, float), strings, arrays, dtypes, types and locations.
// All are uniqued by the context, so comparing two attributes is a pointer compare.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "skiff/ir/core/builtin_types.h"
#include "skiff/ir/core/type.h"

namespace skiff::ir {

class BoolAttr : public Attribute {
 public:
  using Attribute::Attribute;
  static BoolAttr get(IrContext* ctx, bool v);
  static bool classof(Attribute a);
  bool value() const;
};

/// A 64-bit integer; records' int and int64_t arguments both use it.
class IntAttr : public Attribute {
 public:
  using Attribute::Attribute;
  static IntAttr get(IrContext* ctx, int64_t v);
  static bool classof(Attribute a);
  int64_t value() const;
};

/// A double; records' float, double and Scalar arguments use it (Scalar also accepts IntAttr).
class FloatAttr : public Attribute {
 public:
  using Attribute::Attribute;
  static FloatAttr get(IrContext* ctx, double v);
  static bool classof(Attribute a);
  double value() const;
};

class StrAttr : public Attribute {
 public:
  using Attribute::Attribute;
  static StrAttr get(IrContext* ctx, std::string_view v);
  static bool classof(Attribute a);
  const std::string& value() const;
};

class ArrayAttr : public Attribute {
 public:
  using Attribute::Attribute;
  static ArrayAttr get(IrContext* ctx, std::span<const Attribute> elements);
  static ArrayAttr get_ints(IrContext* ctx, std::span<const int64_t> values);
  static ArrayAttr get_floats(IrContext* ctx, std::span<const double> values);
  static bool classof(Attribute a);
  std::span<const Attribute> elements() const;
  size_t size() const { return elements().size(); }
  Attribute operator[](size_t i) const { return elements()[i]; }
  /// Elements as int64 (throws when an element is not an IntAttr).
  std::vector<int64_t> ints() const;
  std::vector<double> floats() const;
};

class DTypeAttr : public Attribute {
 public:
  using Attribute::Attribute;
  static DTypeAttr get(IrContext* ctx, DataType v);
  static bool classof(Attribute a);
  DataType value() const;
};

/// type<tensor<2xf32>>: a type used as an attribute value.
class TypeAttr : public Attribute {
 public:
  using Attribute::Attribute;
  static TypeAttr get(IrContext* ctx, Type t);
  static bool classof(Attribute a);
  Type value() const;
};

/// A source location, optionally with its caller: loc("model.py":12:5 at "train.py":40:1).
/// Every op carries one (unknown locations are null and are not printed).
class LocAttr : public Attribute {
 public:
  using Attribute::Attribute;
  static LocAttr get(IrContext* ctx, std::string_view file, int64_t line, int64_t col,
                     LocAttr caller = LocAttr());
  static bool classof(Attribute a);
  const std::string& file() const;
  int64_t line() const;
  int64_t col() const;
  LocAttr caller() const;
  std::string to_string() const;
};

/// An attribute with its name; ops keep them sorted by name.
struct NamedAttribute {
  StrAttr name;
  Attribute value;
};

}  // namespace skiff::ir
