// Copies and text round trips of captured programs (jit.save / jit.load build on them).
#include <algorithm>

#include "skiff/base/error.h"
#include "skiff/ir/dialects/builtin.h"
#include "skiff/ir/dialects/op_dialect.h"
#include "skiff/ops/ir/convert.h"
#include "skiff/runtime/jit/capture.h"

namespace skiff::jit {

CapturedProgram clone_program(const CapturedProgram& p) {
  CapturedProgram c;
  c.context = p.context;
  c.program = p.program->clone();
  c.inputs = p.inputs;
  c.params = p.params;
  c.outputs = p.outputs;
  c.updates = p.updates;
  return c;
}

CapturedProgram parse_program(std::string_view text,
                              const std::vector<std::pair<std::string, Tensor>>& params) {
  CapturedProgram c;
  c.context = default_context();
  c.program = ir::Program::parse(c.context.get(), text);
  c.program->verify();
  for (ir::Operation* op = c.program->block()->front(); op; op = op->next()) {
    if (op->name() == ir::op::DataOp::kName) {
      c.inputs.push_back(ir::op::DataOp(op).name());
    } else if (op->name() == ir::ShadowOutputOp::kName) {
      c.outputs.push_back(op->attr_of<ir::StrAttr>("name").value());
    } else if (op->name() == ir::ParameterOp::kName) {
      const std::string& name = ir::ParameterOp(op).param_name();
      auto it = std::find_if(params.begin(), params.end(),
                             [&](const auto& kv) { return kv.first == name; });
      SKIFF_ENFORCE(it != params.end(), kNotFound, "load program", "params",
                    "a tensor for every builtin.parameter of the program", name);
      SKIFF_ENFORCE(it->second.is_dense(), kInvalidArgument, "load program", name, "a dense tensor",
                    "a symbolic tensor");
      const TensorMeta declared =
          ops::ir_bridge::to_meta(op->result_type(0).cast<ir::TensorType>());
      SKIFF_ENFORCE(declared.dtype == it->second.dtype() && declared.dims == it->second.dims(),
                    kInvalidArgument, "load program", name,
                    str("a tensor of ", dtype_name(declared.dtype), " ", declared.dims),
                    str(dtype_name(it->second.dtype()), " ", it->second.dims()));
      c.params.push_back(*it);
    }
  }
  return c;
}

}  // namespace skiff::jit
