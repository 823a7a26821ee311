// --compare-pipeline: the kernel before and after a pipeline, on the same inputs.
// RUN: rm -rf %t && mkdir -p %t
//
// Upstream cleanups leave this kernel's results unchanged (NISA ops have no traits, so
// canonicalize and cse keep them); --save writes the results of the transformed kernel.
// RUN: sundial-run %s --func f --random-inputs 3 --compare-pipeline='builtin.module(canonicalize,cse)' --save 1=%t/out.npy | FileCheck %s --check-prefix=SAME
// SAME: sundial-run: @f computes the same after 'builtin.module(canonicalize,cse)' (2 arguments compared bit-exactly, NaNs equal whatever their payload)
// RUN: sundial-run %s --func f --random-inputs 3 --save 1=%t/plain.npy
// RUN: cmp %t/out.npy %t/plain.npy
// RUN: sundial-run %s --func f -compare-pipeline 'builtin.module(sundial-verify,symbol-privatize)' | FileCheck %s --check-prefix=PRIVATE
// PRIVATE: sundial-run: @f computes the same after 'builtin.module(sundial-verify,symbol-privatize)'
//
// A pipeline that removes the function leaves nothing to compare with.
// RUN: not sundial-run %s --func g --compare-pipeline='builtin.module(symbol-dce)' --save 0=%t/never.npy 2>&1 | FileCheck %s --check-prefix=GONE
// GONE: sundial-run: error: the module has no function @g (functions: @f)
// GONE-NEXT: note: in @g after the pipeline 'builtin.module(symbol-dce)'
// RUN: not ls %t/never.npy
//
// A pipeline that changes the function's arguments (remove-dead-values drops the unused
// arguments of a private function) leaves nothing to compare.
// RUN: not sundial-run %s --func g --compare-pipeline='builtin.module(remove-dead-values)' 2>&1 | FileCheck %s --check-prefix=SIGNATURE
// SIGNATURE: sundial-run: error: the pipeline changed the arguments of the function: (memref<4xf32, "hbm">) became ()
//
// A pipeline that fails, a malformed one and an empty one.
// RUN: not sundial-run %S/Inputs/cayman-op.mlir --compare-pipeline='builtin.module(sundial-verify{target=sunda})' 2>&1 | FileCheck %s --check-prefix=FAILS
// FAILS: cayman-op.mlir:6:5: error: 'nisa.dma_gather_transpose' op is not available on sunda (NeuronCore v2); it needs cayman (v3) or newer (rule: target)
// RUN: not sundial-run %s --compare-pipeline='builtin.module(bogus)' 2>&1 | FileCheck %s --check-prefix=BOGUS
// BOGUS: sundial-run: error: --compare-pipeline: 'bogus': MLIR Textual PassPipeline Parser:1:1: error: 'bogus' does not refer to a registered pass or pass pipeline
// RUN: not sundial-run %s --compare-pipeline= 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: sundial-run: error: --compare-pipeline needs a pipeline, e.g. 'builtin.module(cse)'

module {
  func.func @f(%a: memref<16x8xbf16, "hbm">, %b: memref<16x8xf32, "hbm">) {
    %t = "nisa.alloc"() : () -> memref<16x8xbf16, "sbuf">
    "nisa.dma_copy"(%t, %a) : (memref<16x8xbf16, "sbuf">, memref<16x8xbf16, "hbm">) -> ()
    "nisa.dma_copy"(%b, %t) : (memref<16x8xf32, "hbm">, memref<16x8xbf16, "sbuf">) -> ()
    return
  }
  func.func private @g(%a: memref<4xf32, "hbm">) {
    return
  }
}
