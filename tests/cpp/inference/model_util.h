// Saving a C++ function as an inference model (what jit.save writes, docs/FORMATS.md), for the
// predictor tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "skiff/checkpoint.h"
#include "skiff/runtime/eager/grad_mode.h"
#include "skiff/runtime/jit/capture.h"

namespace skiff::inference::testing {

inline std::string temp_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() /
           ("skiff_inference_test_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d.string();
}

/// Captures `fn` for `specs` and writes prefix.pdmodel + prefix.pdiparams.
inline void save_model(const std::string& prefix, const jit::Function& fn,
                       const std::vector<jit::InputSpec>& specs,
                       CheckpointMetadata extra = {}) {
  autograd::NoGradGuard no_grad;
  jit::CapturedProgram p = jit::capture(fn, specs);
  StateDict state;
  for (const auto& [name, t] : p.params) state.set(name, t);
  std::string inputs = "[";
  for (size_t i = 0; i < specs.size(); ++i) {
    inputs += i ? ", " : "";
    inputs += "{\"name\": \"" + specs[i].name + "\", \"shape\": [";
    for (size_t d = 0; d < specs[i].shape.size(); ++d) {
      inputs += (d ? ", " : "") + std::to_string(specs[i].shape[d]);
    }
    inputs += "], \"dtype\": \"" + std::string(dtype_name(specs[i].dtype)) + "\"}";
  }
  inputs += "]";
  CheckpointMetadata meta = {
      {"skiff.format", "1"},
      {"skiff.producer", "skiff 0.1.0"},
      {"skiff.inputs", inputs},
      {"skiff.outputs",
       "{\"count\": " + std::to_string(p.outputs.size()) + ", \"single\": false}"}};
  for (const auto& [k, v] : extra) meta[k] = v;
  save(state, prefix + ".pdiparams", meta);
  std::ofstream(prefix + ".pdmodel") << p.program->print();
}

}  // namespace skiff::inference::testing
