// A logical 256-partition tile through the default middle end: partition tiling makes the
// 256x64 f32 SBUF tile one 128x2x64 tile (half h at element 64 * h of each partition row, byte
// 256 * h) and cuts the HBM side of each DMA with nisa.slice (rows 128 * h.., byte offset
// 128 * 64 * 4 * h = 32768 * h). Selection folds each slice: its 128 x 64 rows are contiguous,
// one run of 8192 elements (64 * 128 merges while the count fits 16 bits).
// RUN: sundial-translate %S/Inputs/logical-tile.mlir --emit=bir | FileCheck %s --check-prefix=BIR
// RUN: sundial-translate %S/Inputs/logical-tile.mlir --disassemble | FileCheck %s --check-prefix=ASM

// BIR-NOT: nisa.
// BIR: "bir.dma_copy"() {dge_mode = "hwdge", dst = {dtype = "float32", num_partitions = 128 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}, engine = "dma", opcodes = array<i64: 184>, src = {dtype = "float32", offset = 0 : i64, pattern = array<i64: 1, 8192>, space = "hbm", tensor = 0 : i64}}
// BIR: "bir.dma_copy"() {dge_mode = "hwdge", dst = {dtype = "float32", num_partitions = 128 : i64, offset = 256 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}, engine = "dma", opcodes = array<i64: 184>, src = {dtype = "float32", offset = 32768 : i64, pattern = array<i64: 1, 8192>, space = "hbm", tensor = 0 : i64}}
// BIR: "bir.dma_copy"() {dge_mode = "hwdge", dst = {dtype = "float32", offset = 0 : i64, pattern = array<i64: 1, 8192>, space = "hbm", tensor = 1 : i64}, engine = "dma", opcodes = array<i64: 184>, src = {dtype = "float32", num_partitions = 128 : i64, offset = 0 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}}
// BIR: "bir.dma_copy"() {dge_mode = "hwdge", dst = {dtype = "float32", offset = 32768 : i64, pattern = array<i64: 1, 8192>, space = "hbm", tensor = 1 : i64}, engine = "dma", opcodes = array<i64: 184>, src = {dtype = "float32", num_partitions = 128 : i64, offset = 256 : i64, partition = 0 : i64, pattern = array<i64: 1, 64>, space = "sbuf"}}
// BIR-NOT: nisa.

// The descriptors: HBM tensor t at (t + 1) << 40 plus the byte offset (0x8000 for the second
// half); the SBUF aperture 0x20_0000_0000 plus the byte offset (0x100), 64 elements per
// partition, partitions 2^18 bytes = 65536 f32 elements apart, 128 of them.
// ASM: # dma.bin: 4 bundles
// ASM-NEXT: dma_direct2d {{.*}} src_start_addr=0x10000000000 src_step_elem[0]=1 src_step_elem[1]=8192 src_num_elem[0]=8192 src_num_elem[1]=1 src_elem_size=4 {{.*}} dst_start_addr=0x2000000000 dst_step_elem[0]=1 dst_step_elem[1]=65536 dst_num_elem[0]=64 dst_num_elem[1]=128 dst_elem_size=4
// ASM-NEXT: dma_direct2d {{.*}} src_start_addr=0x10000008000 src_step_elem[0]=1 src_step_elem[1]=8192 src_num_elem[0]=8192 src_num_elem[1]=1 src_elem_size=4 {{.*}} dst_start_addr=0x2000000100 dst_step_elem[0]=1 dst_step_elem[1]=65536 dst_num_elem[0]=64 dst_num_elem[1]=128 dst_elem_size=4
// ASM-NEXT: dma_direct2d {{.*}} src_start_addr=0x2000000000 src_step_elem[0]=1 src_step_elem[1]=65536 src_num_elem[0]=64 src_num_elem[1]=128 src_elem_size=4 {{.*}} dst_start_addr=0x20000000000 dst_step_elem[0]=1 dst_step_elem[1]=8192 dst_num_elem[0]=8192 dst_num_elem[1]=1 dst_elem_size=4
// ASM-NEXT: dma_direct2d {{.*}} src_start_addr=0x2000000100 src_step_elem[0]=1 src_step_elem[1]=65536 src_num_elem[0]=64 src_num_elem[1]=128 src_elem_size=4 {{.*}} dst_start_addr=0x20000008000 dst_step_elem[0]=1 dst_step_elem[1]=8192 dst_num_elem[0]=8192 dst_num_elem[1]=1 dst_elem_size=4
