#include "skiff/core/scalar.h"

namespace skiff {

std::ostream& operator<<(std::ostream& os, const Scalar& s) {
  switch (s.kind()) {
    case ScalarKind::kBool:
      return os << (s.to<bool>() ? "True" : "False");
    case ScalarKind::kInt:
      return os << s.to<int64_t>();
    case ScalarKind::kFloat:
      return os << s.to_double();
  }
  return os;
}

}  // namespace skiff
