//===- FusionGroups.h - which steps of a graph fuse into one function -*- C++
//-*-===//
//
// TVM's graph partitioning for operator fusion (relax's FuseOps): a graph of
// a function's values, each with the operator pattern of the step computing
// it and edges to the steps reading it, split into groups by the
// post-dominator tree. A value joins the step that post-dominates it when
// every path between them keeps the patterns fusible: element-wise and
// broadcast steps join the injective, reduction or matmul-like step after
// them; a matmul-like step takes the element-wise work after it; injective
// steps join one another (in a second phase, once matmul-like groups are
// complete). Opaque steps and values read outside the function stay alone.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ANALYSIS_FUSIONGROUPS_H
#define TENSORIR_DIALECT_TIR_ANALYSIS_FUSIONGROUPS_H

#include "TensorIR/Dialect/TIR/Analysis/OpPattern.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tir {

/// A function's values in definition order (TVM's IndexedForwardGraph).
struct FusionGraph {
  struct Edge {
    /// The reading node.
    unsigned node;
    /// The pattern of the step reading through this edge.
    OpPattern pattern;
  };
  struct Node {
    /// The pattern of the step computing the value (opaque for parameters
    /// and constants).
    OpPattern pattern = OpPattern::Opaque;
    /// Whether the value is read outside the function (a parameter, a
    /// returned value): it cannot be an intermediate of a group.
    bool externRef = false;
    /// The steps reading it.
    SmallVector<Edge, 2> outputs;
  };

  /// Adds a node; returns its index.
  unsigned addNode(OpPattern pattern, bool externRef) {
    nodes.push_back({pattern, externRef, {}});
    return nodes.size() - 1;
  }
  /// Node `to` reads node `from` with pattern `pattern`.
  void addEdge(unsigned from, unsigned to, OpPattern pattern) {
    nodes[from].outputs.push_back({to, pattern});
  }

  SmallVector<Node> nodes;
};

/// Whether graph function `func` is a fused group (Relax's Primitive
/// function, as FuseOps makes them): `Primitive` true or nonzero in its
/// tir.func_attrs.
bool isPrimitiveFunction(Operation *func);

/// Whether `op`, a step of a graph function, computes sizes rather than
/// graph values (tensor.dim, index constants): pure, of integer or index
/// results. No node of a fusion graph: a group recomputes what it reads.
bool isSizeComputation(Operation *op);

/// The group of each node of `graph`, named by one of its nodes' indices;
/// a group holds at most `maxDepth` nodes.
SmallVector<unsigned> partitionFusionGraph(const FusionGraph &graph,
                                           unsigned maxDepth = 256);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ANALYSIS_FUSIONGROUPS_H
