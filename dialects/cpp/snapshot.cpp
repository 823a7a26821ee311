// The verifier's snapshot of an op and everything nested in it (dialects/src/verify.rs,
// `snapshot`), recorded in one C++ walk.
//
// The snapshot is a list of words: per op, in pre-order, its identity, name, location, parent
// block, operands (values and types), result types, attribute dictionary, successors and the
// blocks of its regions with their argument types. Types, attributes, locations and names are
// uniqued in their context, so equal words are equal values; the attribute dictionary
// (inherent attributes kept as properties included) is one uniqued attribute. Walking through
// the C API cost about ten calls per op and materialised the attribute list once per
// attribute of an op with properties; here each word is a load.
#include "mlir/CAPI/IR.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"

#include <cstddef>
#include <cstdint>

// Writes up to `capacity` words of the snapshot of `root` to `out` and returns the number of
// words the whole snapshot has: when that is more than `capacity`, the caller grows its buffer
// and calls again (the words beyond `capacity` were not written).
extern "C" size_t sundialSnapshot(MlirOperation root, uintptr_t *out, size_t capacity) {
  size_t n = 0;
  auto word = [&](uintptr_t w) {
    if (n < capacity)
      out[n] = w;
    ++n;
  };
  auto ptr = [&](const void *p) { word(reinterpret_cast<uintptr_t>(p)); };
  unwrap(root)->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
    ptr(op);
    ptr(op->getName().getAsOpaquePointer());
    ptr(op->getLoc().getAsOpaquePointer());
    ptr(op->getBlock());
    word(op->getNumOperands());
    for (mlir::Value v : op->getOperands()) {
      ptr(v.getAsOpaquePointer());
      ptr(v.getType().getAsOpaquePointer());
    }
    word(op->getNumResults());
    for (mlir::Type t : op->getResultTypes())
      ptr(t.getAsOpaquePointer());
    ptr(op->getAttrDictionary().getAsOpaquePointer());
    word(op->getNumSuccessors());
    for (mlir::Block *b : op->getSuccessors())
      ptr(b);
    word(op->getNumRegions());
    for (mlir::Region &region : op->getRegions()) {
      for (mlir::Block &block : region) {
        ptr(&block);
        word(block.getNumArguments());
        for (mlir::BlockArgument arg : block.getArguments()) {
          ptr(arg.getAsOpaquePointer());
          ptr(arg.getType().getAsOpaquePointer());
        }
      }
      // Ends the region's block list.
      word(0);
    }
  });
  return n;
}
