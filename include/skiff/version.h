// The version of the Skiff library a program runs against (libskiff.so), as a C symbol so that a
// loader can check it without C++ name mangling.
#pragma once

extern "C" {
/// "major.minor.patch", the same string as Python's `paddle.__version__`.
const char* skiff_version();
}
