// Exit statuses, checked exactly (`not` alone would also accept a crash): 0 on success, 1 on
// a diagnostic or an unreadable input, 2 on a command-line error; --help and --version exit 0.
// RUN: python3 %S/Inputs/status.py sundial-opt %s | FileCheck %s --check-prefix=OK
// RUN: python3 %S/Inputs/status.py sundial-opt %S/Inputs/diag-unexpected.mlir | FileCheck %s --check-prefix=DIAG
// RUN: python3 %S/Inputs/status.py sundial-opt %t.none | FileCheck %s --check-prefix=DIAG
// RUN: python3 %S/Inputs/status.py sundial-opt %S/Inputs/diag-missing.mlir -verify-diagnostics | FileCheck %s --check-prefix=DIAG
// RUN: python3 %S/Inputs/status.py sundial-opt %s --bogus-flag | FileCheck %s --check-prefix=USAGE
// RUN: python3 %S/Inputs/status.py sundial-opt --help | FileCheck %s --check-prefix=OK
// RUN: sundial-opt --help | FileCheck %s --check-prefix=HELP
// RUN: sundial-opt --version | FileCheck %s --check-prefix=VERSION
// RUN: not sundial-opt %s --bogus-flag 2>&1 | FileCheck %s --check-prefix=BOGUS

// OK: exit status 0
// DIAG: exit status 1
// USAGE: exit status 2
// HELP: Usage: sundial-opt [OPTIONS] [INPUT]
// HELP: --pass-pipeline <PIPELINE>
// VERSION: sundial-opt {{[0-9]+\.[0-9]+\.[0-9]+}}
// BOGUS: error: unexpected argument '--bogus-flag' found

// The input: a valid (empty) function.
func.func @f() {
  return
}
