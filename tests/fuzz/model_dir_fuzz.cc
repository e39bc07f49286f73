// libFuzzer target for an inference model directory (what jit.load and
// static.load_inference_model read): `prefix.pdmodel` (text IR) and `prefix.pdiparams`
// (safetensors). An input is the .pdmodel text, a NUL byte, then the .pdiparams bytes (no NUL:
// all of it is the program and there are no parameters). Any input must either load (params
// read, program parsed, verified and bound to them) or throw skiff::Error; never crash or hang.
// With parameters, the predictor's reader (skiff/inference/saved_model.h: format version and
// metadata checks) reads the same two files.
// Build and run: scripts/fuzz.sh model_dir_fuzz 600   (seeds: tests/fuzz/corpus/model_dir)
#include <cstring>
#include <string_view>

#include "fuzz_util.h"
#include "skiff/base/error.h"
#include "skiff/checkpoint.h"
#include "skiff/inference/saved_model.h"
#include "skiff/runtime/jit/capture.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const void* nul = std::memchr(data, 0, size);
  const size_t text_size =
      nul ? static_cast<size_t>(static_cast<const uint8_t*>(nul) - data) : size;
  const std::string_view text(reinterpret_cast<const char*>(data), text_size);
  std::vector<std::pair<std::string, skiff::Tensor>> params;
  try {
    if (nul) {
      const std::string path = skiff::fuzz::scratch_dir() + "/model.pdiparams";
      skiff::fuzz::write_file(path, data + text_size + 1, size - text_size - 1);
      const skiff::StateDict state = skiff::load(path);
      params.assign(state.begin(), state.end());
    }
    skiff::jit::CapturedProgram program = skiff::jit::parse_program(text, params);
    // What loaded prints to text that loads again (the params bind the same way).
    const std::string printed = program.program->print();
    skiff::jit::CapturedProgram again = skiff::jit::parse_program(printed, params);
    if (again.program->print() != printed) std::abort();
  } catch (const skiff::Error&) {
  }
  if (nul) {
    const std::string model = skiff::fuzz::scratch_dir() + "/model.pdmodel";
    skiff::fuzz::write_file(model, data, text_size);
    try {
      skiff::inference::read_saved_model(model, skiff::fuzz::scratch_dir() + "/model.pdiparams");
    } catch (const skiff::Error&) {
    }
  }
  return 0;
}
