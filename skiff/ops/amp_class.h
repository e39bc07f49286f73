// Paddle's auto-mixed-precision classes of the ops (python/paddle/amp/amp_lists.py), from each
// record's `amp` key: white ops run in the AMP dtype, black ops in float32, promote ops follow
// their inputs. The table is generated beside the schemas (op_schemas.cc) so that adding it
// touches no header every kernel includes. The AMP dispatch mode (skiff/runtime/eager/amp_mode.h)
// reads it.
#pragma once

#include <cstdint>
#include <iterator>

#include "skiff/core/dtype.h"
#include "skiff/ops/op_schema.h"

namespace skiff::ops {

enum class AmpClass : uint8_t { kPromote, kWhite, kBlack };

/// The class of op `id` when AMP runs in `amp_dtype` (float16 or bfloat16; the records may
/// classify an op differently per dtype). kPromote for ids out of range and other dtypes.
AmpClass amp_class(OpId id, DType amp_dtype);

}  // namespace skiff::ops
