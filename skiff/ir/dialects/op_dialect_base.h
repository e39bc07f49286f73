// What the generated op classes (op_dialect.gen.h) build on: op views, the builder, the schema and
// typed attribute readers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "skiff/ir/core/builder.h"
#include "skiff/ir/core/dialect.h"
#include "skiff/ir/core/op_base.h"
#include "skiff/ir/core/op_schema.h"

namespace skiff::ir {

int64_t attr_int(Operation* op, std::string_view name);
/// Reads a FloatAttr or an IntAttr as double.
double attr_double(Operation* op, std::string_view name);
bool attr_bool(Operation* op, std::string_view name);
const std::string& attr_str(Operation* op, std::string_view name);
std::vector<int64_t> attr_ints(Operation* op, std::string_view name);
std::vector<double> attr_doubles(Operation* op, std::string_view name);
DataType attr_dtype(Operation* op, std::string_view name);

}  // namespace skiff::ir
