// Reading a saved inference model (docs/FORMATS.md): `prefix.pdmodel` (text IR) and
// `prefix.pdiparams` (safetensors with skiff.* metadata), the C++ twin of
// python/skiff/jit/model_files.py. Every check failure is a skiff::Error naming the file; the
// program is parsed and verified, never run.
#pragma once

#include <string>
#include <vector>

#include "skiff/runtime/jit/capture.h"

namespace skiff::inference {

/// The format version this library reads and writes.
inline constexpr int kModelFormatVersion = 1;
/// Skiff's version (python/skiff/version.py says the same; a test checks it).
inline constexpr const char* kSkiffVersion = "0.1.0";

struct SavedModel {
  /// The program (op dialect) with its builtin.parameters bound to the loaded tensors.
  jit::CapturedProgram program;
  struct Input {
    std::string name;
    std::vector<int64_t> shape;  // -1: any size
    DType dtype = DType::kFloat32;
  };
  std::vector<Input> inputs;  // program order
  std::string producer;       // skiff.producer, or "an unknown producer"
};

/// Reads and validates the model in `prog_file` + `params_file`.
SavedModel read_saved_model(const std::string& prog_file, const std::string& params_file);

/// The files of a model directory: the one `*.pdmodel` in it and the `*.pdiparams` of the same
/// stem (`prefix` given: `dir/prefix.pdmodel`). Errors name the directory and what it holds.
std::pair<std::string, std::string> model_files_in(const std::string& dir,
                                                    const std::string& prefix = "");

}  // namespace skiff::inference
