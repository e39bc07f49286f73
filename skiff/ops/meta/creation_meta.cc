#include "skiff/ops/meta/creation_meta.h"

#include "skiff/base/error.h"

namespace skiff::ops::meta {}  // namespace skiff::ops::meta
