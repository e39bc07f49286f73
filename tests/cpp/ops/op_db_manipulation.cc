// OpDb entries of the manipulation ops.
#include "op_db.h"

namespace skiff::testing {

void add_manipulation_op_infos(OpDb& db) { (void)db; }

}  // namespace skiff::testing
