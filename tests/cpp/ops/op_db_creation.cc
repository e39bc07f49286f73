// OpDb entries of the creation ops.
#include "op_db.h"

namespace skiff::testing {

void add_creation_op_infos(OpDb& db) { (void)db; }

}  // namespace skiff::testing
