// sundial-resolve-engine's refusals (illegal explicit engines are the verifier's:
// lit/nisa/invalid-*.mlir).
// RUN: sundial-opt %s -split-input-file --pass-pipeline='builtin.module(sundial-resolve-engine)' -verify-diagnostics

// No op that shares the register names an engine: which sequencer holds it is unknown.
func.func @register_unused(%s: memref<1x1xi32, "sbuf">) {
  // expected-error@+1 {{'nisa.load_register' op engine: no op that shares its register names an engine, so the sequencer that holds the register is unknown; write the engine (rule: register engine)}}
  %r = "nisa.load_register"(%s) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
  return
}

// -----

// Its users run on two engines: a register lives in one sequencer.
func.func @register_shared(%table: memref<4096x128xbf16, "hbm">, %rows: memref<128x128xbf16, "sbuf">,
                           %s: memref<1x1xi32, "sbuf">) {
  // expected-error@+1 {{'nisa.load_register' op engine: the ops that share its register run on gpsimd and dma; a register lives in one engine's sequencer (rule: register engine)}}
  %r = "nisa.load_register"(%s) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
  %v = "nisa.ap"(%table, %r) {pattern = array<i64: 128, 128, 1, 128>, operandSegmentSizes = array<i32: 1, 0, 1>}
      : (memref<4096x128xbf16, "hbm">, !nisa.reg) -> memref<128x128xbf16, "hbm">
  "nisa.dma_copy_indirect"(%rows, %v) : (memref<128x128xbf16, "sbuf">, memref<128x128xbf16, "hbm">) -> ()
  %x = "nisa.collective_permute_implicit_current_processing_rank_id"(%r) {replica_group = [array<i64: 0, 1>]}
      : (!nisa.reg) -> !nisa.reg
  return
}
