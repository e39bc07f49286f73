// libFuzzer target for the .npy reader of skiff_infer (skiff/inference/npy.h): any bytes must
// either parse or throw skiff::Error, never crash, hang or allocate more than the input holds.
// What parses must write and parse back to the same dtype, shape and bytes.
// Build and run: scripts/fuzz.sh npy_fuzz 600   (seeds: tests/fuzz/corpus/npy)
#include <cstdlib>
#include <cstring>

#include "skiff/base/error.h"
#include "skiff/inference/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  skiff::DenseTensor t;
  try {
    t = skiff::inference::parse_npy(data, size, "fuzz.npy");
  } catch (const skiff::Error&) {
    return 0;
  }
  const std::string bytes = skiff::inference::npy_bytes(t);
  const skiff::DenseTensor again = skiff::inference::parse_npy(
      reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "again.npy");
  if (again.dtype() != t.dtype() || !(again.dims() == t.dims())) std::abort();
  if (t.nbytes() > 0 &&
      std::memcmp(again.raw_data(), t.raw_data(), static_cast<size_t>(t.nbytes())) != 0) {
    std::abort();
  }
  return 0;
}
