// sundial-run --ranks N: N ranks run the kernel (SPMD), the collectives run over them. An
// --arg file holds the argument (every rank gets it) or one per rank stacked on a leading
// dimension of N; --save writes the stacked form. Expected values are worked out by hand
// above each CHECK line (rank r's part of a stacked array is row r).
// RUN: rm -rf %t && mkdir -p %t
//
// all_reduce (add) of x_r = 10 r + [0, 1, 2, 3] over 4 ranks: 60 + 4 [0, 1, 2, 3] on each.
// RUN: python3 %S/Inputs/npy.py write %t/x.npy '<f4' 4,2,2 0,1,2,3,10,11,12,13,20,21,22,23,30,31,32,33
// RUN: sundial-run %s --func all_reduce --ranks 4 --arg 0=%t/x.npy --save 0=%t/sum.npy
// RUN: python3 %S/Inputs/npy.py dump %t/sum.npy | FileCheck %s --check-prefix=ALLREDUCE
// ALLREDUCE: shape=(4, 2, 2)
// ALLREDUCE-NEXT: {{^}}60.0 64.0 68.0 72.0 60.0 64.0 68.0 72.0 60.0 64.0 68.0 72.0 60.0 64.0 68.0 72.0{{$}}
//
// all_gather of s_r = [r, r + 0.5]; reduce_scatter (add) of the same [0..8) on every rank
// (a file of the argument's own shape): rank j gets 4 * chunk j = 4 [2j, 2j + 1]; all_to_all
// of a_r[j] = 10 r + j: rank r gets [r, 10 + r, 20 + r, 30 + r].
// RUN: python3 %S/Inputs/npy.py write %t/s.npy '<f4' 4,1,2 0,0.5,1,1.5,2,2.5,3,3.5 + write %t/eight.npy '<f4' 4,2 iota + write %t/a.npy '<f4' 4,4,1 0,1,2,3,10,11,12,13,20,21,22,23,30,31,32,33
// RUN: sundial-run %s --func gather_scatter --ranks 4 --arg 0=%t/s.npy --arg 2=%t/eight.npy --arg 4=%t/a.npy --save 1=%t/gathered.npy --save 3=%t/scattered.npy --save 5=%t/exchanged.npy
// RUN: python3 %S/Inputs/npy.py dump %t/gathered.npy + dump %t/scattered.npy + dump %t/exchanged.npy | FileCheck %s --check-prefix=GATHER
// GATHER: shape=(4, 4, 2)
// GATHER-NEXT: {{^}}0.0 0.5 1.0 1.5 2.0 2.5 3.0 3.5 0.0 0.5 1.0 1.5 2.0 2.5 3.0 3.5 0.0 0.5 1.0 1.5 2.0 2.5 3.0 3.5 0.0 0.5 1.0 1.5 2.0 2.5 3.0 3.5{{$}}
// GATHER: shape=(4, 1, 2)
// GATHER-NEXT: {{^}}0.0 4.0 8.0 12.0 16.0 20.0 24.0 28.0{{$}}
// GATHER: {{^}}0.0 10.0 20.0 30.0 1.0 11.0 21.0 31.0 2.0 12.0 22.0 32.0 3.0 13.0 23.0 33.0{{$}}
//
// Permutes of p_r = r: the explicit pairs 0->1->2->3->0 and the implicit ring (each rank
// receives its predecessor's, 3 0 1 2), then the ring of p + 10 (13 10 11 12).
// RUN: python3 %S/Inputs/npy.py write %t/p.npy '<f4' 4,1,1 0,1,2,3 + write %t/ten.npy '<f4' 1,1 10
// RUN: sundial-run %s --func permute --ranks 4 --arg 0=%t/p.npy --arg 4=%t/ten.npy --save 1=%t/pairs.npy --save 2=%t/ring.npy --save 3=%t/ringsum.npy
// RUN: python3 %S/Inputs/npy.py dump %t/pairs.npy + dump %t/ring.npy + dump %t/ringsum.npy | FileCheck %s --check-prefix=PERMUTE
// PERMUTE: {{^}}3.0 0.0 1.0 2.0{{$}}
// PERMUTE: {{^}}3.0 0.0 1.0 2.0{{$}}
// PERMUTE: {{^}}13.0 10.0 11.0 12.0{{$}}
//
// Rank ids: rank_id into a register stored to a tile, rank_id_store, and the rank ring
// iteration 1 processes (one step back: 3 0 1 2).
// RUN: python3 %S/Inputs/npy.py write %t/one.npy '<i4' 1,1 1
// RUN: sundial-run %s --func ranks --ranks 4 --arg 2=%t/one.npy --save 0=%t/id.npy --save 1=%t/stored.npy --save 3=%t/processing.npy
// RUN: python3 %S/Inputs/npy.py dump %t/id.npy + dump %t/stored.npy + dump %t/processing.npy | FileCheck %s --check-prefix=RANKS
// RANKS: {{^}}0 1 2 3{{$}}
// RANKS: {{^}}0 1 2 3{{$}}
// RANKS: {{^}}3 0 1 2{{$}}
//
// all_to_all_v over 2 ranks, each with its own metadata (rows: send counts, send
// displacements, receive counts (known: left as they are), receive displacements [0, 2]).
// Rank 0 sends src_0[0:1] to itself and src_0[1:3] to rank 1; rank 1 sends src_1[0:2] to
// rank 0 and src_1[2:3] to itself. So dst_0 = [0, -, 10, 11], dst_1 = [1, 2, 12, -], the
// slots nobody writes keeping their contents (-1).
// RUN: python3 %S/Inputs/npy.py write %t/src.npy '<f4' 2,4 0,1,2,3,10,11,12,13 + write %t/dst.npy '<f4' 4 -1,-1,-1,-1 + write %t/meta.npy '<u4' 2,4,2 1,2,0,1,7,7,0,2,2,1,0,2,7,7,0,2
// RUN: sundial-run %s --func all_to_all_v --ranks 2 --arg 0=%t/dst.npy --arg 1=%t/src.npy --arg 2=%t/meta.npy --save 0=%t/v.npy --save 2=%t/meta-out.npy
// RUN: python3 %S/Inputs/npy.py dump %t/v.npy + dump %t/meta-out.npy | FileCheck %s --check-prefix=V
// V: {{^}}0.0 -1.0 10.0 11.0 1.0 2.0 12.0 -1.0{{$}}
// V: {{^}}1 2 0 1 7 7 0 2 2 1 0 2 7 7 0 2{{$}}
//
// Errors: a file whose shape is neither the argument's nor the stacked one; a collective the
// emulator rejects (a replica group naming rank 4 of 4); a per-rank failure names the rank;
// --ranks out of range.
// RUN: not sundial-run %s --func all_reduce --ranks 4 --arg 0=%t/s.npy 2>&1 | FileCheck %s --check-prefix=STACK
// STACK: sundial-run: error: --arg 0={{.*}}s.npy: shape mismatch: the file holds (4, 1, 2), the argument is (2, 2), or (4, 2, 2) for every rank (argument 0 is memref<2x2xf32, "hbm">)
// RUN: not sundial-run %s --func bad_group --ranks 4 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: python3 %S/Inputs/npy.py write %t/idx.npy '<i4' 2,1,1 1,5
// RUN: not sundial-run %s --func per_rank --ranks 2 --arg 1=%t/idx.npy 2>&1 | FileCheck %s --check-prefix=PERRANK
// RUN: not sundial-run %s --func all_reduce --ranks 0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: invalid value '0' for '--ranks <N>': 0 is not in 1..=256
// RUN: not sundial-run %s --func all_reduce --ranks 257 2>&1 | FileCheck %s --check-prefix=ZERO257
// ZERO257: error: invalid value '257' for '--ranks <N>': 257 is not in 1..=256

module {
  func.func @all_reduce(%x: memref<2x2xf32, "hbm">) {
    "nisa.all_reduce"(%x, %x) {replica_group = [array<i64: 0, 1, 2, 3>], op = "add", operandSegmentSizes = array<i32: 1, 1>}
        : (memref<2x2xf32, "hbm">, memref<2x2xf32, "hbm">) -> ()
    return
  }
  func.func @gather_scatter(%s: memref<1x2xf32, "hbm">, %gathered: memref<4x2xf32, "hbm">, %eight: memref<4x2xf32, "hbm">,
                            %scattered: memref<1x2xf32, "hbm">, %a: memref<4x1xf32, "hbm">, %exchanged: memref<4x1xf32, "hbm">) {
    "nisa.all_gather"(%gathered, %s) {replica_group = [array<i64: 0, 1, 2, 3>], operandSegmentSizes = array<i32: 1, 1>}
        : (memref<4x2xf32, "hbm">, memref<1x2xf32, "hbm">) -> ()
    "nisa.reduce_scatter"(%scattered, %eight) {replica_group = [array<i64: 0, 1, 2, 3>], op = "add", priority = 1,
                                              operandSegmentSizes = array<i32: 1, 1>}
        : (memref<1x2xf32, "hbm">, memref<4x2xf32, "hbm">) -> ()
    "nisa.all_to_all"(%exchanged, %a) {replica_group = [array<i64: 0, 1, 2, 3>], operandSegmentSizes = array<i32: 1, 1>}
        : (memref<4x1xf32, "hbm">, memref<4x1xf32, "hbm">) -> ()
    return
  }
  func.func @permute(%p: memref<1x1xf32, "hbm">, %pairs: memref<1x1xf32, "hbm">, %ring: memref<1x1xf32, "hbm">,
                     %ringsum: memref<1x1xf32, "hbm">, %ten: memref<1x1xf32, "hbm">) {
    "nisa.collective_permute"(%pairs, %p) {source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 2>, array<i64: 2, 3>, array<i64: 3, 0>]}
        : (memref<1x1xf32, "hbm">, memref<1x1xf32, "hbm">) -> ()
    "nisa.collective_permute_implicit"(%ring, %p) {replica_group = [array<i64: 0, 1, 2, 3>], operandSegmentSizes = array<i32: 1, 1>}
        : (memref<1x1xf32, "hbm">, memref<1x1xf32, "hbm">) -> ()
    "nisa.collective_permute_implicit_reduce"(%ringsum, %p, %ten) {replica_group = [array<i64: 0, 1, 2, 3>], op = "add",
                                                                   operandSegmentSizes = array<i32: 1, 1, 1>}
        : (memref<1x1xf32, "hbm">, memref<1x1xf32, "hbm">, memref<1x1xf32, "hbm">) -> ()
    return
  }
  func.func @ranks(%id: memref<1x1xi32, "sbuf">, %stored: memref<1x1xi32, "sbuf">, %one: memref<1x1xi32, "sbuf">,
                   %processing: memref<1x1xi32, "sbuf">) {
    %r = "nisa.rank_id"() : () -> !nisa.reg
    "nisa.store_register"(%id, %r) : (memref<1x1xi32, "sbuf">, !nisa.reg) -> ()
    "nisa.rank_id_store"(%stored) : (memref<1x1xi32, "sbuf">) -> ()
    %it = "nisa.load_register"(%one) : (memref<1x1xi32, "sbuf">) -> !nisa.reg
    %k = "nisa.collective_permute_implicit_current_processing_rank_id"(%it) {replica_group = [array<i64: 0, 1, 2, 3>]}
        : (!nisa.reg) -> !nisa.reg
    "nisa.store_register"(%processing, %k) : (memref<1x1xi32, "sbuf">, !nisa.reg) -> ()
    return
  }
  func.func @all_to_all_v(%dst: memref<4xf32, "hbm">, %src: memref<4xf32, "hbm">, %meta: memref<4x2xui32, "hbm">) {
    "nisa.all_to_all_v"(%dst, %src, %meta) {replica_group = [array<i64: 0, 1>], recv_counts_known = true, has_rdispls = true}
        : (memref<4xf32, "hbm">, memref<4xf32, "hbm">, memref<4x2xui32, "hbm">) -> ()
    return
  }
  func.func @bad_group(%x: memref<2x2xf32, "hbm">) {
    "nisa.all_reduce"(%x, %x) {replica_group = [array<i64: 0, 4>], op = "add", operandSegmentSizes = array<i32: 1, 1>}
        : (memref<2x2xf32, "hbm">, memref<2x2xf32, "hbm">) -> ()
// GROUP: collectives.mlir:[[@LINE-2]]:5: error: 'nisa.all_reduce' op failed in the emulator: all_reduce: collective error: rank 4 in the replica group, but the group has 4 ranks{{$}}
// GROUP-NOT: on rank
    return
  }
  func.func @per_rank(%table: memref<4x2xf32, "hbm">, %idx: memref<1x1xi32, "hbm">) {
    %i = "nisa.alloc"() {name = "idx"} : () -> memref<1x1xi32, "sbuf">
    "nisa.dma_copy"(%i, %idx) : (memref<1x1xi32, "sbuf">, memref<1x1xi32, "hbm">) -> ()
    %g = "nisa.ap"(%table, %i) {pattern = array<i64: 2, 1, 1, 2>, operandSegmentSizes = array<i32: 1, 1, 0>}
        : (memref<4x2xf32, "hbm">, memref<1x1xi32, "sbuf">) -> memref<1x2xf32, "hbm">
    %row = "nisa.alloc"() {name = "row"} : () -> memref<1x2xf32, "sbuf">
    "nisa.dma_copy_indirect"(%row, %g) : (memref<1x2xf32, "sbuf">, memref<1x2xf32, "hbm">) -> ()
// PERRANK: collectives.mlir:[[@LINE-1]]:5: error: 'nisa.dma_copy_indirect' op failed in the emulator: dma_copy_indirect: index value 5 {{.*}} (on rank 1 of 2)
    return
  }
}
