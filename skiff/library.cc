// The one translation unit of the shared libskiff.so (cmake/SkiffInstall.cmake): the static
// libraries are linked into it whole, around this file.
#include "skiff/inference/saved_model.h"
#include "skiff/version.h"

const char* skiff_version() { return skiff::inference::kSkiffVersion; }
