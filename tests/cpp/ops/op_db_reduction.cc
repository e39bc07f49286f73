// OpDb entries of the reduction ops.
#include "op_db.h"

namespace skiff::testing {

void add_reduction_op_infos(OpDb& db) { (void)db; }

}  // namespace skiff::testing
