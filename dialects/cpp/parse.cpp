// Parses MLIR text into a module WITHOUT running MLIR's verifier on it.
//
// MLIR's C API (mlirModuleCreateParse) always verifies what it parsed, so IR that leaves an
// attribute implied (a static nisa.ap written without operandSegmentSizes) would be rejected
// before Sundial could fill the attribute in. Sundial parses with this function, completes
// the implied attributes (dialects/src/implied.rs), then verifies through the C API
// (mlirOperationVerify): the same checks, in the same order, with the same diagnostics.
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

extern "C" MlirModule sundialParseModuleUnverified(MlirContext context, MlirStringRef source) {
  mlir::ParserConfig config(unwrap(context), /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(unwrap(source), config);
  if (!module)
    return MlirModule{nullptr};
  return MlirModule{module.release().getOperation()};
}
