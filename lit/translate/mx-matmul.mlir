// sundial-translate on the shipped MX kernel (mariana): quantize_mx on Vector, the MX matmul
// pair on Tensor (its completion signalled by an EventSemaphore: the MATMUL bundle has no sync
// band), the DMA loads and store.
// RUN: sundial-translate %S/../../examples/kernels/mx_matmul.mlir --disassemble | FileCheck %s
// RUN: not sundial-translate %S/../../examples/kernels/mx_matmul.mlir --target=cayman --disassemble 2>&1 | FileCheck %s --check-prefix=CAYMAN

// CHECK: # vector.bin: 3 bundles
// CHECK-NEXT: quantize_mx {{.*}}in_dtype=bf16 out_dtype=fp8e4 dst_mem_pattern=mx1d(
// CHECK-NEXT: memset
// CHECK-NEXT: copy
// CHECK: # tensor.bin: 4 bundles
// CHECK-NEXT: event_semaphore wait_mode=sem_ge_imm
// CHECK-NEXT: ldweights_mx {{.*}}in_dtype=fp4
// CHECK-NEXT: matmul_mx {{.*}}in_dtype=fp8e5 {{.*}}out_dtype=fp32 psum_accumulate_flags=3
// CHECK-NEXT: event_semaphore {{.*}}events_extended.update_mode=sem_inc
// CHECK: # dma.bin: 4 bundles
// CAYMAN: error: the module's sundial.target is "mariana" but the target option says "cayman"
