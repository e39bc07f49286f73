// OpDb entries of the nn ops.
#include "op_db.h"

namespace skiff::testing {

void add_nn_op_infos(OpDb& db) { (void)db; }

}  // namespace skiff::testing
