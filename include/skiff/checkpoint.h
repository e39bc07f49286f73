// Checkpoints: state dicts saved as safetensors files (https://github.com/huggingface/safetensors):
//   8 bytes   little-endian uint64 N, the header size
//   N bytes   JSON object: name -> {"dtype": "F32"|"F64"|"BF16"|"F16"|"I64"|"I32"|"I16"|"I8"|
//             "U8"|"BOOL", "shape": [...], "data_offsets": [begin, end]}, plus an optional
//             "__metadata__": {string: string}; padded with spaces to a multiple of 8
//   data      every tensor's bytes, row-major, little-endian, at its offsets (relative to the
//             end of the header), packed without gaps in header order
// save() writes a temporary file in the same directory, fsyncs it, renames it over `path` and
// fsyncs the directory: a crash leaves either the old file or the new one, never a mix.
// load() checks everything it reads and throws an InvalidArgument error naming the file and
// what is wrong (truncated, bad header, bad entry).
#pragma once

#include <map>
#include <string>

#include "skiff/state_dict.h"

namespace skiff {

using CheckpointMetadata = std::map<std::string, std::string>;

/// Saves the tensors of `state` (copied to the host, made contiguous) to `path` atomically.
void save(const StateDict& state, const std::string& path, const CheckpointMetadata& metadata = {});
/// Loads a safetensors file into CPU tensors; fills `metadata` if given.
StateDict load(const std::string& path, CheckpointMetadata* metadata = nullptr);

}  // namespace skiff
