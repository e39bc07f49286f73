// NumPy `.npy` files (format versions 1.0, 2.0 and 3.0) for the skiff_infer command: inputs are
// read from them and outputs written to them. The reader parses the header dict itself (no
// Python, nothing evaluated) and accepts only what the writer of a plain array produces:
// {'descr': <a little-endian or byte-sized dtype Skiff has>, 'fortran_order': False,
//  'shape': (<ints>)}, the header length limited, the rank limited to kMaxRank, the data exactly
// the size the shape says. Every rejection is a skiff::Error (InvalidArgument) naming the source
// and what was wrong; nothing is allocated before the sizes agree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "skiff/core/dense_tensor.h"

namespace skiff::inference {

/// The longest header accepted (numpy writes a few hundred bytes for any sane shape).
inline constexpr size_t kMaxNpyHeaderBytes = 64 * 1024;

/// Parses the `.npy` bytes `data[0, size)`; `source` names them in errors (a file name).
DenseTensor parse_npy(const uint8_t* data, size_t size, const std::string& source);
/// Reads the `.npy` file `path` (an unreadable file is an IOError naming it).
DenseTensor read_npy(const std::string& path);

/// The `.npy` (version 1.0, C order, little-endian) bytes of `t`; bfloat16, which numpy lacks,
/// is refused (Unimplemented) naming `what`.
std::string npy_bytes(const DenseTensor& t, const std::string& what = "tensor");
/// Writes npy_bytes(t) to `path` (through a temporary file renamed into place).
void write_npy(const DenseTensor& t, const std::string& path);

}  // namespace skiff::inference
