// Element copy between two CPU tensors of equal dims and dtype with arbitrary strides: the
// engine behind contiguous() and the copy of views. Runs in parallel above a size threshold.
#pragma once

namespace skiff {

class DenseTensor;

void strided_copy(const DenseTensor& src, DenseTensor& dst);

}  // namespace skiff
