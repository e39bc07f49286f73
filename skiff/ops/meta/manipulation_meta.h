// Infer-meta for manipulation ops.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "skiff/core/place.h"
#include "skiff/core/scalar.h"
#include "skiff/core/tensor_impl.h"

namespace skiff::ops::meta {}  // namespace skiff::ops::meta
