// sundial-translate --disassemble on the shipped example kernels of scripts/example.sh
// (elementwise and mx_matmul have their own files: add-kernel.mlir, mx-matmul.mlir).
// RUN: sundial-translate %S/../../examples/kernels/rmsnorm.mlir --disassemble | FileCheck %s --check-prefix=RMS
// RUN: sundial-translate %S/../../examples/kernels/moe_gather.mlir --disassemble | FileCheck %s --check-prefix=MOE
// RUN: sundial-translate %S/../../examples/kernels/paged_attention.mlir --disassemble | FileCheck %s --check-prefix=PAGED

// rmsnorm: squares, their free-axis sum, mean + eps, rsqrt, the row scale by pointer, gamma.
// RMS: # vector.bin: 6 bundles
// RMS-NEXT: tensor_tensor_arith {{.*}}op=mult
// RMS-NEXT: tensor_reduce_arith {{.*}}op=add op_dim=x
// RMS-NEXT: tensor_scalar_arith {{.*}}op0=mult op1=add
// RMS-NEXT: tensor_scalar_arith {{.*}}op0=rsqrt op1=bypass
// RMS-NEXT: tensor_scalar_arith {{.*}}imm0_src=ptr op0=mult
// RMS-NEXT: tensor_tensor_arith {{.*}}op=mult
// RMS: # dma.bin: 3 bundles

// moe_gather: the gather (flags 5 = load 1 | idx_bound_is_err 4) reads 256-element bf16 rows
// of argument 0 (window 1 << 40) at a 256-element pitch through the index at SBUF 0, into one
// partition per channel (the 2^18-byte partition stride is 131072 bf16 elements); the scatter
// (flags 6 = save 2 | 4) writes them to argument 3's rows after the Vector scaling.
// MOE: # vector.bin: 1 bundles
// MOE-NEXT: tensor_scalar_arith {{.*}}imm0_src=ptr op0=mult
// MOE: # dma.bin: 4 bundles
// MOE: dma_indirect {{.*}}idx_num_active_channels=128 flags=5 src_start_addr=0x10000000000 src_step_elem=256 src_num_elem=256 src_elem_size=2 dst_start_addr={{.*}} dst_step_elem=131072 dst_num_elem=256 dst_elem_size=2 src_idx_start_addr=sb[0]+0x0
// MOE-NEXT: dma_indirect wait_mode=sem_ge_imm {{.*}}flags=6 {{.*}}src_step_elem=131072 {{.*}}dst_start_addr=0x40000000000 dst_step_elem=256 dst_num_elem=256 {{.*}}dst_idx_start_addr=sb[0]+0x0

// paged_attention: two gathers of 128 V rows (128 bf16 each), then one accumulation group of
// two matmuls (BEGIN 1, END 2) and the copy out of PSUM.
// PAGED: # vector.bin: 1 bundles
// PAGED-NEXT: copy {{.*}}src_mem_pattern=t4d(ps[0]
// PAGED: # tensor.bin: 5 bundles
// PAGED-NEXT: ldweights
// PAGED-NEXT: matmul {{.*}}psum_accumulate_flags=1
// PAGED-NEXT: ldweights
// PAGED-NEXT: matmul {{.*}}psum_accumulate_flags=2
// PAGED-NEXT: event_semaphore
// PAGED: # dma.bin: 7 bundles
// PAGED-COUNT-2: dma_indirect {{.*}}flags=5 src_start_addr=0x10000000000 src_step_elem=128 src_num_elem=128
