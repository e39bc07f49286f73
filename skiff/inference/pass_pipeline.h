// The inference pass pipeline (docs/ARCHITECTURE.md "Inference"): named passes run in order on
// a loaded program before it is lowered to kernels. Most are IR passes of the registry
// (skiff/ir/passes, DRR fusions); `fold-params` is the predictor's own: it evaluates at load
// every op that depends only on parameters and constants and binds the results as new
// parameters (conv+bn folding, transposed or scaled weights, ...).
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "skiff/runtime/jit/capture.h"

namespace skiff::inference {

/// The passes of the predictor's own (not IR passes of the registry), by name.
inline constexpr const char* kFoldParamsPass = "fold-params";
inline constexpr const char* kWeightOnlyInt8Pass = "weight-only-int8";
inline constexpr const char* kWeightOnlyInt4Pass = "weight-only-int4";
inline constexpr const char* kLlmInt8Pass = "llm-int8";
inline constexpr const char* kCpuBfloat16Pass = "cpu-bfloat16";

/// The default list (Config with ir_optim on): simplification, parameter folding, CSE, DCE,
/// then with oneDNN (`mkldnn`) the fusions that have kernels.
std::vector<std::string> default_passes(bool mkldnn);

/// Every name a pipeline may hold, with a line each.
std::vector<std::pair<std::string, std::string>> known_passes();

/// Runs `passes` on `p` (op dialect) in order; `after(pass name, program text)` is called after
/// each pass when given (Config::SwitchIrDebug). An unknown name is an InvalidArgument error
/// listing the known ones.
void run_passes(jit::CapturedProgram& p, const std::vector<std::string>& passes,
                const std::function<void(const std::string&, const std::string&)>& after = {});

/// fold-params: ops whose operands are all parameters or constants (pure, no regions, not
/// random) are evaluated once; each such value used by the rest of the program becomes a new
/// builtin.parameter `folded<k>` bound to the computed tensor. Returns the number of values
/// folded.
int fold_params(jit::CapturedProgram& p);

/// weight-only-int8 / weight-only-int4: every op.linear, and op.matmul without transposes, whose
/// weight is a 2-D float32/bfloat16/float16 parameter becomes op.weight_only_linear on the
/// weight quantized at load (per-channel scales; bound as parameters `<name>.qweight` and
/// `<name>.qscale`, one copy per weight however many ops read it). The float weight is dropped
/// when nothing else reads it. Returns the number of ops rewritten.
int weight_only_quantize(jit::CapturedProgram& p, int bits);

/// llm-int8 (Config::EnableMkldnnInt8): the same ops become op.llm_int8_linear (LLM.int8) on the
/// weight quantized at load with algo llm.int8 (int8 rows, float32 per-channel scales); at run
/// time each row of x is quantized to int8 apart from its outlier columns (|value| >
/// threshold), and the product runs in int8 through oneDNN. Returns the number of ops rewritten.
int llm_int8_quantize(jit::CapturedProgram& p, float threshold = 6.0f);

/// cpu-bfloat16: the program as `paddle.amp.auto_cast(level='O1', dtype=dtype)` runs it eagerly
/// (the same class table, skiff/ops/amp_class.h): ops whose record says `amp: white` (matmul,
/// linear, conv2d, ...) compute on `dtype` operands, black ops on float32, the others follow
/// their float operands (float32 if any is). A cast goes wherever a value reaches an op in
/// another dtype; ops with regions, builtin ops and the program's outputs keep the float32
/// types they had (Paddle's keep_io_types). Casts of parameters are left for fold-params to
/// evaluate at load. `white`/`black` add op names (record names: "matmul", "linear") to the
/// white and black classes, as auto_cast's custom lists do; a name in both, or one that is no
/// op, is an InvalidArgument error. Returns the number of ops that now run in another dtype.
int mixed_precision(jit::CapturedProgram& p, DType dtype, const std::set<std::string>& white = {},
                    const std::set<std::string>& black = {});

}  // namespace skiff::inference
