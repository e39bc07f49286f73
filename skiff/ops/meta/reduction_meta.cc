#include "skiff/ops/meta/reduction_meta.h"

#include "skiff/base/error.h"

namespace skiff::ops::meta {}  // namespace skiff::ops::meta
