// OpDb entries of the activation ops.
#include "op_db.h"

namespace skiff::testing {

void add_activation_op_infos(OpDb& db) { (void)db; }

}  // namespace skiff::testing
