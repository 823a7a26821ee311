// sundial-translate on the shipped elementwise kernel: the listing of every engine queue
// (sundial-mc's disassembler), checked against values worked out by hand:
// - allocation: a_tile at SBUF byte 0, b_tile at 2048 = 0x800 (128 x 512 fp32 = 2048 bytes per
//   partition, both live at the add);
// - DMA addresses (isel/src/address.rs): argument k at (k + 1) << 40, SBUF at 0x20_0000_0000
//   plus partition * 2^18; steps in elements: an HBM row is 512, an SBUF partition 2^18 / 4;
// - 0.5 is 0x3f000000 in fp32;
// - sync: the add waits for the second load (the DMA queue's first signaller: count >= 1), the
//   store waits for the multiply (the Vector queue's first signaller).
// RUN: sundial-translate %S/../../examples/kernels/elementwise.mlir --disassemble | FileCheck %s
// RUN: sundial-translate %S/../../examples/kernels/elementwise.mlir -disassemble -o %t && FileCheck %s < %t

// CHECK: # vector.bin: 2 bundles
// CHECK-NEXT: tensor_tensor_arith wait_mode=sem_ge_imm wait_idx=[[DMASEM:[0-9]+]] update_mode=none {{.*}}semaphore_value=1 in0_in1_dtype=fp32:fp32 out_dtype=fp32 op=add num_active_channels=128 src0_mem_pattern=t3d(sb[0]+0x0;1,1,1;512,1,1) src1_mem_pattern=t3d(sb[0]+0x800;1,1,1;512,1,1) dst_mem_pattern=t3d(sb[0]+0x0;1,1,1;512,1,1)
// CHECK-NEXT: tensor_scalar_arith wait_mode=none {{.*}}update_mode=sem_inc update_idx=[[VECSEM:[0-9]+]] {{.*}}op0=mult op1=bypass {{.*}}imm0=0x3f000000
// CHECK-NEXT: # dma.bin: 3 bundles
// CHECK-NEXT: dma_direct2d wait_mode=none {{.*}}update_mode=none {{.*}}src_start_addr=0x10000000000 src_step_elem[0]=1 src_step_elem[1]=512 src_num_elem[0]=512 src_num_elem[1]=128 src_elem_size=4 {{.*}}dst_start_addr=0x2000000000 dst_step_elem[0]=1 dst_step_elem[1]=65536 dst_num_elem[0]=512 dst_num_elem[1]=128 dst_elem_size=4 in_dtype=fp32 out_dtype=fp32
// CHECK-NEXT: dma_direct2d wait_mode=none {{.*}}update_mode=sem_inc update_idx=[[DMASEM]] {{.*}}src_start_addr=0x20000000000 {{.*}}dst_start_addr=0x2000000800
// CHECK-NEXT: dma_direct2d wait_mode=sem_ge_imm wait_idx=[[VECSEM]] {{.*}}semaphore_value=1 {{.*}}src_start_addr=0x2000000000 {{.*}}dst_start_addr=0x30000000000
