// sundial-translate --disassemble on the selection tests of the families selected since the
// first translate tests: range_select (S2D2_RS 0xbc and its 0x9b read-out) and the
// DMA-indirect gather and scatter (0xbb).
// RUN: sundial-translate %S/../isel/range-select.mlir --disassemble | FileCheck %s --check-prefix=RANGE
// RUN: sundial-translate %S/../isel/dma-indirect.mlir --disassemble | FileCheck %s --check-prefix=INDIRECT
// ACTIVATE 0x21 on the Scalar queue, then its accumulator read-out 0x24.
// RUN: sundial-translate %S/../isel/activation.mlir --disassemble | FileCheck %s --check-prefix=ACT
// A kernel written in BIR: the wide stream transpose with the lane map of its 0x69 half.
// RUN: sundial-translate %S/Inputs/bir-transpose.mlir --disassemble | FileCheck %s --check-prefix=WIDE

// The bounds come by pointer (bound0/1_src=ptr, the [P, 1] tiles at SBUF bytes 0x100 and
// 0x104), the range start 64 is the base (printed by codegen as lower_bound), the fill value
// -FLT_MAX; reset_reduce is the ZERO_ACCUMULATE command; the read-out writes the max.
// RANGE: # vector.bin: 2 bundles
// RANGE-NEXT: range_select {{.*}}reduce_cmd=zero_accumulate reduce_op=max lower_bound=64.0 upper_bound=-3.4028235e38 src_mem_pattern=t2d(sb[0]+0x0;1,1;64,1) comp_op0=is_ge comp_op1=is_lt bound0_src=ptr bound1_src=ptr bound0=0x100 bound1=0x104 dst_mem_pattern=t2d(sb[0]+0x0;1,1;64,1)
// RANGE-NEXT: dve_read_accumulator {{.*}}dst_mem_pattern=t1d(sb[0]+0x108;1;1)

// Gather rows of argument 0 (64 fp32 at a 64-element pitch), scatter into columns 256.. of
// argument 2's rows (byte 1024 of its window, a 128-element pitch), one partition per channel; the
// scatter's flags are save 2 | idx_bound_is_err 4 | non_unique_dst_idx 8 (unique_indices = false).
// INDIRECT: # dma.bin: 3 bundles
// INDIRECT: dma_indirect {{.*}}flags=5 src_start_addr=0x10000000000 src_step_elem=64 src_num_elem=64 src_elem_size=4 {{.*}}dst_step_elem=65536 dst_num_elem=64
// INDIRECT-NEXT: dma_indirect {{.*}}flags=14 {{.*}}src_step_elem=65536 src_num_elem=64 {{.*}}dst_start_addr=0x30000000400 dst_step_elem=128 dst_num_elem=64

// The 0x69 half's immediate is the lane map, one byte per lane.
// WIDE: # vector.bin: 2 bundles
// WIDE-NEXT: stream_transpose {{.*}}num_active_channels=32
// WIDE-NEXT: stream_shuffle {{.*}}immediate=010003020504070609080b0a0d0c0f0e111013121514171619181b1a1d1c1f1e

// exp(2x + bias[p]) into bf16 with the bias tile by pointer (bias_src_n=ptr, the
// inverted IMM_SRC_N polarity: 0 = pointer); Idle writes ZERO_ACCUMULATE (the CC's 0x21 rule);
// prelu with alpha 0.25 (0x3e800000) in the second immediate and the scale tile by pointer.
// ACT: # scalar.bin: 3 bundles
// ACT-NEXT: activate {{.*}}imm_src=inst scale_src=inst accumulator_cmd=zero_accumulate bias_src_n=ptr src_mem_pattern=t3d(sb[0]+0x0;1,1,1;64,1,1) in_dtype=fp32 out_dtype=bf16 num_active_channels=128 activation_func=exp scale_value=0x40000000 bias=0x100 imm=0x0
// ACT-NEXT: activate {{.*}}scale_src=ptr accumulator_cmd=zero_accumulate bias_src_n=inst {{.*}}activation_func=prelu scale_value=0x100 bias=0x0 imm=0x3e800000
// ACT-NEXT: activation_read_accumulator {{.*}}dtype=fp32 negated=0 num_active_channels=128
