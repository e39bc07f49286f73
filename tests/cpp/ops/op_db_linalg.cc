// OpDb entries of the linalg ops.
#include "op_db.h"

namespace skiff::testing {

void add_linalg_op_infos(OpDb& db) { (void)db; }

}  // namespace skiff::testing
