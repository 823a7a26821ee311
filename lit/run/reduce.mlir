// sundial-run on the reductions, scans and the ops that keep engine accumulators: what one
// op leaves in the Vector or Scalar accumulators is what the next reads. Expected values are
// worked out by hand above each CHECK line (fp32 roundings where they matter: the f32
// nearest to the exact result).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/npy.py write %t/a.npy '<f4' 2,4 1.5,-2,3.25,0,7,-0.5,4,8 + write %t/b.npy '<f4' 2,4 iota + write %t/c.npy '<f4' 2,4 2,4,3,16,0.5,9,1,4 + write %t/u.npy '<u4' 2,4 1,2,4,8,16,0,0,1 + write %t/m.npy '<u4' 2,4 0xff,0x0f,3,7,0xf0,0xff,1,5
//
// tensor_reduce along the free axis (add; max negated; bitwise or) and across partitions
// (add; bitwise and), the partition reduction broadcast to dst's one partition.
// RUN: sundial-run %s --func reduce --arg 0=%t/a.npy --arg 3=%t/u.npy --arg 6=%t/m.npy --save 1=%t/sum.npy --save 2=%t/negmax.npy --save 4=%t/or.npy --save 5=%t/col.npy --save 7=%t/and.npy
// RUN: python3 %S/Inputs/npy.py dump %t/sum.npy + dump %t/negmax.npy + dump %t/or.npy + dump %t/col.npy + dump %t/and.npy | FileCheck %s --check-prefix=REDUCE
// 1.5-2+3.25+0 = 2.75; 7-0.5+4+8 = 18.5
// REDUCE: {{^}}2.75 18.5{{$}}
// REDUCE: {{^}}-3.25 -8.0{{$}}
// 1|2|4|8 = 15; 16|0|0|1 = 17
// REDUCE: {{^}}15 17{{$}}
// columns of a: 1.5+7, -2-0.5, 3.25+4, 0+8
// REDUCE: {{^}}8.5 -2.5 7.25 8.0{{$}}
// columns of m: 0xff&0xf0, 0x0f&0xff, 3&1, 7&5
// REDUCE: {{^}}240 15 1 5{{$}}
//
// tensor_scalar_reduce: a * 2 summed into the Vector accumulators (reset_reduce, also into
// reduce_res), then b + 0 summed onto them (reduce), then read out negated.
// RUN: sundial-run %s --func accumulate --arg 0=%t/a.npy --arg 3=%t/b.npy --save 1=%t/twice.npy --save 2=%t/first.npy --save 5=%t/readout.npy
// RUN: python3 %S/Inputs/npy.py dump %t/twice.npy + dump %t/first.npy + dump %t/readout.npy | FileCheck %s --check-prefix=ACC
// ACC: {{^}}3.0 -4.0 6.5 0.0 14.0 -1.0 8.0 16.0{{$}}
// 3-4+6.5+0 = 5.5; 14-1+8+16 = 37
// ACC: {{^}}5.5 37.0{{$}}
// -(5.5 + 0+1+2+3), -(37 + 4+5+6+7)
// ACC: {{^}}-11.5 -59.0{{$}}
//
// tensor_scalar_cumulative: the running sum of a (reset_reduce); the running max of b
// starting from 5 (load_reduce).
// RUN: sundial-run %s --func cumulative --arg 0=%t/a.npy --arg 2=%t/b.npy --save 1=%t/cumsum.npy --save 3=%t/cummax.npy
// RUN: python3 %S/Inputs/npy.py dump %t/cumsum.npy + dump %t/cummax.npy | FileCheck %s --check-prefix=CUM
// CUM: {{^}}1.5 -0.5 2.75 2.75 7.0 6.5 10.5 18.5{{$}}
// CUM: {{^}}5.0 5.0 5.0 5.0 5.0 5.0 6.0 7.0{{$}}
//
// tensor_tensor_scan: r[i] = c[i] * r[i-1] + b[i] from 1.0; then r[i] = max(c[i] + r[i-1], b[i])
// from a [P, 1] initial tile (10, -100).
// RUN: python3 %S/Inputs/npy.py write %t/init.npy '<f4' 2,1 10,-100
// RUN: sundial-run %s --func scan --arg 0=%t/c.npy --arg 1=%t/b.npy --arg 3=%t/init.npy --save 2=%t/scan.npy --save 4=%t/scanmax.npy
// RUN: python3 %S/Inputs/npy.py dump %t/scan.npy + dump %t/scanmax.npy | FileCheck %s --check-prefix=SCAN
// p0: 2*1+0 = 2, 4*2+1 = 9, 3*9+2 = 29, 16*29+3 = 467; p1: 0.5+4 = 4.5, 9*4.5+5 = 45.5, 45.5+6 = 51.5, 4*51.5+7 = 213
// SCAN: {{^}}2.0 9.0 29.0 467.0 4.5 45.5 51.5 213.0{{$}}
// p0: max(12, 0), max(16, 1), max(19, 2), max(35, 3); p1: max(-99.5, 4), max(13, 5), max(14, 6), max(18, 7)
// SCAN: {{^}}12.0 16.0 19.0 35.0 4.0 13.0 14.0 18.0{{$}}
//
// activation: square(a * 2 + bias) with a [P, 1] bias (1, -1), summed into the Scalar
// accumulators, then read out by activation_read_accumulator.
// RUN: python3 %S/Inputs/npy.py write %t/bias.npy '<f4' 2,1 1,-1
// RUN: sundial-run %s --func activation --arg 0=%t/a.npy --arg 1=%t/bias.npy --save 2=%t/sq.npy --save 3=%t/res.npy --save 4=%t/regs.npy
// RUN: python3 %S/Inputs/npy.py dump %t/sq.npy + dump %t/res.npy + dump %t/regs.npy | FileCheck %s --check-prefix=ACT
// p0: (3+1, -4+1, 6.5+1, 0+1)^2; p1: (14-1, -1-1, 8-1, 16-1)^2
// ACT: {{^}}16.0 9.0 56.25 1.0 169.0 4.0 49.0 225.0{{$}}
// ACT: {{^}}82.25 447.0{{$}}
// ACT: {{^}}82.25 447.0{{$}}
//
// exponential (NeuronCore v4): exp(x - 1) summed from 0; exp(-1) is the f32 nearest to
// 1/e, and the sum 1 + 1 + 1 + that rounds once more.
// RUN: python3 %S/Inputs/npy.py write %t/x.npy '<f4' 2,4 1,1,1,0,1,1,1,1
// RUN: sundial-run %s --func exponential --arg 0=%t/x.npy --save 1=%t/exp.npy --save 2=%t/expsum.npy
// RUN: python3 %S/Inputs/npy.py dump %t/exp.npy + dump %t/expsum.npy | FileCheck %s --check-prefix=EXP
// EXP: {{^}}1.0 1.0 1.0 0.3678794503211975 1.0 1.0 1.0 1.0{{$}}
// EXP: {{^}}3.3678793907165527 4.0{{$}}
//
// bn_stats of 1..6: even positions 1, 3, 5 (count 3, mean 3, squared deviations 4+0+4), odd
// positions 2, 4, 6 (3, 4, 8); bn_aggr: mean 3.5, variance (8 + 8 + 3/4 + 3/4) / 6 = 17.5/6.
// RUN: python3 %S/Inputs/npy.py write %t/six.npy '<f4' 1,6 1,2,3,4,5,6
// RUN: sundial-run %s --func stats --arg 0=%t/six.npy --save 1=%t/stats.npy --save 2=%t/aggr.npy
// RUN: python3 %S/Inputs/npy.py dump %t/stats.npy + dump %t/aggr.npy | FileCheck %s --check-prefix=STATS
// STATS: {{^}}3.0 3.0 8.0 3.0 4.0 8.0{{$}}
// STATS: {{^}}3.5 2.9166667461395264{{$}}
//
// The generic tensor_partition_reduce (the middle end's form), over partitions and then the
// trailing free axes of a (as the op table and sundial-legalize-partition-reduce define it).
// RUN: sundial-run %s --func partition_reduce --arg 0=%t/a.npy --save 1=%t/avg.npy --save 2=%t/all.npy --save 3=%t/max.npy
// RUN: python3 %S/Inputs/npy.py dump %t/avg.npy + dump %t/all.npy + dump %t/max.npy | FileCheck %s --check-prefix=PARTRED
// columns of a averaged: (1.5+7)/2, (-2-0.5)/2, (3.25+4)/2, (0+8)/2
// PARTRED: {{^}}4.25 -1.25 3.625 4.0{{$}}
// everything added: 2.75 + 18.5
// PARTRED: {{^}}21.25{{$}}
// PARTRED: {{^}}8.0{{$}}

module attributes {sundial.target = "mariana"} {
  func.func @partition_reduce(%a: memref<2x4xf32, "sbuf">, %avg: memref<1x4xf32, "sbuf">, %all: memref<1x1xf32, "sbuf">,
                              %max: memref<1x1xf32, "sbuf">) {
    "nisa.tensor_partition_reduce"(%avg, %a) {op = "average"} : (memref<1x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.tensor_partition_reduce"(%all, %a) {op = "add", axis = array<i64: 0, 1>} : (memref<1x1xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.tensor_partition_reduce"(%max, %a) {op = "max", axis = array<i64: 0, 1>} : (memref<1x1xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    return
  }
  func.func @reduce(%a: memref<2x4xf32, "sbuf">, %sum: memref<2x1xf32, "sbuf">, %negmax: memref<2x1xf32, "sbuf">,
                    %u: memref<2x4xui32, "sbuf">, %or: memref<2x1xui32, "sbuf">, %col: memref<1x4xf32, "sbuf">,
                    %m: memref<2x4xui32, "sbuf">, %and: memref<1x4xui32, "sbuf">) {
    "nisa.tensor_reduce_arith"(%sum, %a) {op = "add", axis = array<i64: 1>}
        : (memref<2x1xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.tensor_reduce_arith"(%negmax, %a) {op = "max", axis = array<i64: 1>, negate = true}
        : (memref<2x1xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.tensor_reduce_bitvec"(%or, %u) {op = "bitwise_or", axis = array<i64: 1>}
        : (memref<2x1xui32, "sbuf">, memref<2x4xui32, "sbuf">) -> ()
    "nisa.cross_lane_reduce_arith"(%col, %a) {op = "add"} : (memref<1x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.cross_lane_reduce_bitvec"(%and, %m) {op = "bitwise_and"} : (memref<1x4xui32, "sbuf">, memref<2x4xui32, "sbuf">) -> ()
    return
  }
  func.func @accumulate(%a: memref<2x4xf32, "sbuf">, %twice: memref<2x4xf32, "sbuf">, %first: memref<2x1xf32, "sbuf">,
                        %b: memref<2x4xf32, "sbuf">, %copy: memref<2x4xf32, "sbuf">, %readout: memref<2x1xf32, "sbuf">) {
    "nisa.tensor_scalar_cache_reduce"(%twice, %a, %first) {op0 = "mult", imm0 = 2.0 : f32, reduce_op = "add",
                                                           reduce_cmd = "reset_reduce", operandSegmentSizes = array<i32: 1, 1, 0, 1>}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x1xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_cache_reduce"(%copy, %b) {op0 = "add", imm0 = 0.0 : f32, reduce_op = "add", reduce_cmd = "reduce",
                                                  operandSegmentSizes = array<i32: 1, 1, 0, 0>}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.dve_read_accumulator"(%readout) {negate = true} : (memref<2x1xf32, "sbuf">) -> ()
    return
  }
  func.func @cumulative(%a: memref<2x4xf32, "sbuf">, %cumsum: memref<2x4xf32, "sbuf">, %b: memref<2x4xf32, "sbuf">,
                        %cummax: memref<2x4xf32, "sbuf">) {
    "nisa.tensor_scalar_cache_cumulative"(%cumsum, %a) {op0 = "mult", imm0 = 1.0 : f32, op1 = "add"}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.tensor_scalar_cache_cumulative"(%cummax, %b) {op0 = "add", imm0 = 0.0 : f32, op1 = "max", imm1 = 5.0 : f32,
                                                        reduce_cmd = "load_reduce"}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    return
  }
  func.func @scan(%c: memref<2x4xf32, "sbuf">, %b: memref<2x4xf32, "sbuf">, %scan: memref<2x4xf32, "sbuf">,
                  %init: memref<2x1xf32, "sbuf">, %scanmax: memref<2x4xf32, "sbuf">) {
    "nisa.tensor_tensor_scan"(%scan, %c, %b) {op0 = "mult", op1 = "add", initial_value = 1.0 : f32}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">) -> ()
    "nisa.tensor_tensor_scan"(%scanmax, %c, %b, %init) {op0 = "add", op1 = "max"}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x1xf32, "sbuf">) -> ()
    return
  }
  func.func @activation(%a: memref<2x4xf32, "sbuf">, %bias: memref<2x1xf32, "sbuf">, %sq: memref<2x4xf32, "sbuf">,
                        %res: memref<2x1xf32, "sbuf">, %regs: memref<2x1xf32, "sbuf">) {
    "nisa.activation"(%sq, %a, %bias, %res) {op = "square", scale_value = 2.0 : f32, reduce_op = "add",
                                             reduce_cmd = "reset_reduce", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x1xf32, "sbuf">, memref<2x1xf32, "sbuf">) -> ()
    "nisa.activation_read_accumulator"(%regs) : (memref<2x1xf32, "sbuf">) -> ()
    return
  }
  func.func @exponential(%x: memref<2x4xf32, "sbuf">, %exp: memref<2x4xf32, "sbuf">, %sum: memref<2x1xf32, "sbuf">) {
    "nisa.exponential"(%exp, %x, %sum) {max_value = 1.0 : f32, reduce_cmd = "reset_reduce"}
        : (memref<2x4xf32, "sbuf">, memref<2x4xf32, "sbuf">, memref<2x1xf32, "sbuf">) -> ()
    return
  }
  func.func @stats(%x: memref<1x6xf32, "sbuf">, %stats: memref<1x6xf32, "sbuf">, %aggr: memref<1x2xf32, "sbuf">) {
    "nisa.bn_stats"(%stats, %x) : (memref<1x6xf32, "sbuf">, memref<1x6xf32, "sbuf">) -> ()
    "nisa.bn_aggr"(%aggr, %stats) : (memref<1x2xf32, "sbuf">, memref<1x6xf32, "sbuf">) -> ()
    return
  }
}
