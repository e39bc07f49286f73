// RUN: --passes=canonicalize
// Dead cf.if ops are erased with their regions, after the dead ops inside them (the replayed
// forward values of a second-order backward) were processed: the erased nested ops must not be
// queued again (a use after free the ASan/valgrind builds catch, and a double free in practice).
// The program is paddle.static.gradients taken twice through a cond.
// CHECK: builtin.module {
// CHECK-NOT: cf.if
builtin.module {
  %0 = builtin.parameter {name = "param0"} : () -> tensor<f64>
  %1 = builtin.parameter {name = "param1"} : () -> tensor<f64>
  %2 = op.data {dtype = f64, name = "x", shape = [3]} : () -> tensor<3xf64>
  %3 = op.sum(%2) {axis = [], dtype = undefined, keepdim = false} : (tensor<3xf64>) -> tensor<f64>
  %4 = op.greater_than(%3, %0) : (tensor<f64>, tensor<f64>) -> tensor<bool>
  %5 = cf.if(%4) : (tensor<bool>) -> tensor<3xf64> {
    %6 = op.multiply(%2, %2) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %7 = op.sin(%2) : (tensor<3xf64>) -> tensor<3xf64>
    %8 = op.multiply(%6, %7) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    cf.yield(%8) : (tensor<3xf64>) -> ()
  } {
    %9 = op.multiply(%2, %1) : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
    %10 = op.exp(%9) : (tensor<3xf64>) -> tensor<3xf64>
    cf.yield(%10) : (tensor<3xf64>) -> ()
  }
  %11 = op.sum(%5) {axis = [], dtype = undefined, keepdim = false} : (tensor<3xf64>) -> tensor<f64>
  %12 = op.full {dtype = f64, fill_value = 1.0, shape = []} : () -> tensor<f64>
  %13 = op.reshape(%12) {shape = [1]} : (tensor<f64>) -> tensor<1xf64>
  %14 = op.broadcast_to(%13) {shape = [3]} : (tensor<1xf64>) -> tensor<3xf64>
  %15 = cf.if(%4) : (tensor<bool>) -> tensor<3xf64> {
    %16 = op.multiply(%2, %2) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %17 = op.sin(%2) : (tensor<3xf64>) -> tensor<3xf64>
    %18 = op.multiply(%16, %17) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %19 = op.multiply(%14, %17) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %20 = op.multiply(%14, %16) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %21 = op.cos(%2) : (tensor<3xf64>) -> tensor<3xf64>
    %22 = op.multiply(%20, %21) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %23 = op.multiply(%19, %2) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %24 = op.multiply(%19, %2) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %25 = op.add(%22, %23) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %26 = op.add(%25, %24) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    cf.yield(%26) : (tensor<3xf64>) -> ()
  } {
    %27 = op.multiply(%2, %1) : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
    %28 = op.exp(%27) : (tensor<3xf64>) -> tensor<3xf64>
    %29 = op.multiply(%14, %28) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %30 = op.multiply(%29, %1) : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
    cf.yield(%30) : (tensor<3xf64>) -> ()
  }
  %31 = op.sum(%15) {axis = [], dtype = undefined, keepdim = false} : (tensor<3xf64>) -> tensor<f64>
  %32 = op.full {dtype = f64, fill_value = 1.0, shape = []} : () -> tensor<f64>
  %33 = op.reshape(%32) {shape = [1]} : (tensor<f64>) -> tensor<1xf64>
  %34 = op.broadcast_to(%33) {shape = [3]} : (tensor<1xf64>) -> tensor<3xf64>
  %35 = cf.if(%4) : (tensor<bool>) -> tensor<3xf64> {
    %36 = op.multiply(%2, %2) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %37 = op.sin(%2) : (tensor<3xf64>) -> tensor<3xf64>
    %38 = op.multiply(%36, %37) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %39 = op.multiply(%14, %37) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %40 = op.multiply(%14, %36) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %41 = op.cos(%2) : (tensor<3xf64>) -> tensor<3xf64>
    %42 = op.multiply(%40, %41) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %43 = op.multiply(%39, %2) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %44 = op.multiply(%39, %2) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %45 = op.add(%42, %43) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %46 = op.add(%45, %44) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %47 = op.multiply(%34, %2) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %48 = op.multiply(%34, %39) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %49 = op.multiply(%34, %2) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %50 = op.multiply(%34, %39) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %51 = op.add(%47, %49) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %52 = op.add(%48, %50) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %53 = op.multiply(%34, %41) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %54 = op.multiply(%34, %40) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %55 = op.sin(%2) : (tensor<3xf64>) -> tensor<3xf64>
    %56 = op.multiply(%54, %55) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %57 = op.neg(%56) : (tensor<3xf64>) -> tensor<3xf64>
    %58 = op.add(%52, %57) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %59 = op.multiply(%53, %14) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %60 = op.multiply(%51, %14) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %61 = op.cos(%2) : (tensor<3xf64>) -> tensor<3xf64>
    %62 = op.multiply(%60, %61) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %63 = op.add(%58, %62) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %64 = op.multiply(%59, %2) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %65 = op.multiply(%59, %2) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %66 = op.add(%63, %64) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %67 = op.add(%66, %65) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    cf.yield(%67) : (tensor<3xf64>) -> ()
  } {
    %68 = op.multiply(%2, %1) : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
    %69 = op.exp(%68) : (tensor<3xf64>) -> tensor<3xf64>
    %70 = op.multiply(%14, %69) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %71 = op.multiply(%70, %1) : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
    %72 = op.multiply(%34, %1) : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
    %73 = op.multiply(%72, %14) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %74 = op.multiply(%73, %69) : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    %75 = op.multiply(%74, %1) : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
    cf.yield(%75) : (tensor<3xf64>) -> ()
  }
}

