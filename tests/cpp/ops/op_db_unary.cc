// OpDb entries of the unary ops.
#include "op_db.h"

namespace skiff::testing {

void add_unary_op_infos(OpDb& db) { (void)db; }

}  // namespace skiff::testing
