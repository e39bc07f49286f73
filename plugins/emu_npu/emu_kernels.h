// The emulated NPU's kernels (emu_kernels.cc): the table handed to Skiff at init.
#pragma once

#include <cstdint>

#include "skiff/c/device_ext.h"

namespace emu {

const SkiffKernelDef* kernel_defs(uint32_t* count);

}  // namespace emu
