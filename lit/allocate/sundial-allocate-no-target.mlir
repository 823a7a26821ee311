// sundial-allocate needs a target: the module's sundial.target or the pass option. (The
// module's location is the file itself, line 0, so the error is checked as text.)
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(sundial-allocate)' 2>&1 | FileCheck %s
// RUN: not sundial-opt %s --pass-pipeline='builtin.module(sundial-isel)' 2>&1 | FileCheck %s --check-prefix=ISEL

// CHECK: error: 'builtin.module' op sundial-allocate needs a target: set `sundial.target` on the module or the pass option `target`
// ISEL: error: 'builtin.module' op sundial-isel needs a target: set `sundial.target` on the module or the pass option `target`
func.func @k() {
  return
}
