// What a kernel file includes, next to its family's generated header
// ("skiff/ops/generated/kernels/<family>.h": argument structs, kernel declarations and
// SKIFF_INSTANTIATE_KERNEL(func, backend), which instantiates a kernel template for exactly the
// dtypes the op record declares; a missing one is a link error).
#pragma once

#include "skiff/base/error.h"
#include "skiff/core/dense_tensor.h"
#include "skiff/ops/kernel_registry.h"
