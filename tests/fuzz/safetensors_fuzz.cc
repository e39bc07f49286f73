// libFuzzer target for the safetensors reader (skiff::load, include/skiff/checkpoint.h): any
// file must either load or throw skiff::Error, never crash, hang, leak or over-allocate. What
// loads must save and load back to the same names, dtypes, shapes and bytes.
// Build and run: scripts/fuzz.sh safetensors_fuzz 600   (seeds: tests/fuzz/corpus/safetensors)
#include <cstring>

#include "fuzz_util.h"
#include "skiff/base/error.h"
#include "skiff/checkpoint.h"
#include "skiff/core/dense_tensor.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& dir = skiff::fuzz::scratch_dir();
  const std::string path = dir + "/input.safetensors";
  skiff::fuzz::write_file(path, data, size);
  skiff::StateDict state;
  skiff::CheckpointMetadata meta;
  try {
    state = skiff::load(path, &meta);
  } catch (const skiff::Error&) {
    return 0;
  }
  const std::string again_path = dir + "/again.safetensors";
  skiff::save(state, again_path, meta);
  skiff::CheckpointMetadata meta2;
  const skiff::StateDict again = skiff::load(again_path, &meta2);
  if (again.size() != state.size() || meta2 != meta) std::abort();
  auto it = again.begin();
  for (const auto& [name, t] : state) {
    const auto& [name2, t2] = *it++;
    const skiff::DenseTensor& a = t.dense();
    const skiff::DenseTensor& b = t2.dense();
    if (name != name2 || a.dtype() != b.dtype() || !(a.dims() == b.dims())) std::abort();
    if (a.nbytes() != b.nbytes()) std::abort();
    if (a.nbytes() > 0 && std::memcmp(a.contiguous().raw_data(), b.contiguous().raw_data(),
                                      static_cast<size_t>(a.nbytes())) != 0) {
      std::abort();
    }
  }
  return 0;
}
