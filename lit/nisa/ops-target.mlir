// Targets: `sundial.target` on a module gates ops by NeuronCore generation, and a nested
// module may name its own target (the nearest one applies). Also matmul in transpose mode,
// whose bf16 result is legal on every generation (a bf16 product needs v4).
// RUN: sundial-opt %s | FileCheck %s
// RUN: sundial-opt %s -o %t.1 && sundial-opt %t.1 -o %t.2 && diff %t.1 %t.2

// CHECK: module attributes {sundial.target = "sunda"}
module attributes {sundial.target = "sunda"} {

  // A PE transpose (nc_transpose on the Tensor engine) of bf16 data on NeuronCore v2: dst keeps
  // bf16, which a product could only have on v4.
  // CHECK-LABEL: func.func @transpose_v2
  // CHECK: "nisa.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {is_transpose = true} : (memref<64x128xbf16, "psum">, memref<128x64xbf16, "sbuf">, memref<128x128xbf16, "sbuf">) -> ()
  func.func @transpose_v2(%d: memref<64x128xbf16, "psum">, %data: memref<128x64xbf16, "sbuf">, %id: memref<128x128xbf16, "sbuf">) {
    "nisa.matmul"(%d, %data, %id) {is_transpose = true}
        : (memref<64x128xbf16, "psum">, memref<128x64xbf16, "sbuf">, memref<128x128xbf16, "sbuf">) -> ()
    return
  }

  // fp16 and fp8 transposes keep their dtype too (the product rule would demand fp32).
  // CHECK-LABEL: func.func @transpose_narrow
  // CHECK: "nisa.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {is_transpose = true} : (memref<64x128xf16, "psum">
  // CHECK: "nisa.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {is_transpose = true} : (memref<64x128xf8E5M2, "psum">
  func.func @transpose_narrow(%d: memref<64x128xf16, "psum">, %data: memref<128x64xf16, "sbuf">, %id: memref<128x128xf16, "sbuf">,
                              %d8: memref<64x128xf8E5M2, "psum">, %data8: memref<128x64xf8E5M2, "sbuf">, %id8: memref<128x128xf8E5M2, "sbuf">) {
    "nisa.matmul"(%d, %data, %id) {is_transpose = true}
        : (memref<64x128xf16, "psum">, memref<128x64xf16, "sbuf">, memref<128x128xf16, "sbuf">) -> ()
    "nisa.matmul"(%d8, %data8, %id8) {is_transpose = true}
        : (memref<64x128xf8E5M2, "psum">, memref<128x64xf8E5M2, "sbuf">, memref<128x128xf8E5M2, "sbuf">) -> ()
    return
  }

  // CHECK: module attributes {sundial.target = "cayman"}
  module attributes {sundial.target = "cayman"} {
    // A bf16 PE transpose on NeuronCore v3; tf32 data is transposed into fp32.
    // CHECK-LABEL: func.func @transpose_bf16
    // CHECK: "nisa.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {is_transpose = true} : (memref<32x128xbf16, "psum">, memref<128x32xbf16, "sbuf">, memref<128x128xbf16, "sbuf">) -> ()
    // CHECK: "nisa.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {is_transpose = true} : (memref<32x128xf32, "psum">, memref<128x32xtf32, "sbuf">, memref<128x128xtf32, "sbuf">) -> ()
    func.func @transpose_bf16(%d: memref<32x128xbf16, "psum">, %data: memref<128x32xbf16, "sbuf">, %id: memref<128x128xbf16, "sbuf">,
                              %d32: memref<32x128xf32, "psum">, %t32: memref<128x32xtf32, "sbuf">, %id32: memref<128x128xtf32, "sbuf">) {
      "nisa.matmul"(%d, %data, %id) {is_transpose = true}
          : (memref<32x128xbf16, "psum">, memref<128x32xbf16, "sbuf">, memref<128x128xbf16, "sbuf">) -> ()
      "nisa.matmul"(%d32, %t32, %id32) {is_transpose = true}
          : (memref<32x128xf32, "psum">, memref<128x32xtf32, "sbuf">, memref<128x128xtf32, "sbuf">) -> ()
      return
    }

    // A v4-only op in a module nested two levels down, inside v2 and v3 modules.
    // CHECK: module attributes {sundial.target = "mariana"}
    module attributes {sundial.target = "mariana"} {
      // CHECK-LABEL: func.func @exp_v4
      // CHECK: "nisa.exponential"
      func.func @exp_v4(%t: memref<128x64xf32, "sbuf">) {
        "nisa.exponential"(%t, %t) : (memref<128x64xf32, "sbuf">, memref<128x64xf32, "sbuf">) -> ()
        return
      }
    }
  }
}
