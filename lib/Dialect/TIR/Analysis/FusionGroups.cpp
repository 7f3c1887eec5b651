//===- FusionGroups.cpp - which steps of a graph fuse into one function ---===//
//
// The post-dominator tree of a FusionGraph and the three-phase grouping
// over it (TVM's DominatorTree and GraphPartitioner).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/FusionGroups.h"

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tir;

namespace {

constexpr int kNone = -1;

/// The post-dominator tree: each node's nearest common successor on every
/// path to the function's end, and the least fusible pattern on the way.
struct PostDominators {
  struct Entry {
    int parent = kNone;
    unsigned depth = 1;
    OpPattern pattern = OpPattern::Opaque;
  };

  explicit PostDominators(const FusionGraph &graph) {
    entries.resize(graph.nodes.size());
    // Readers come after what they read: fill from the last node back.
    for (unsigned i = graph.nodes.size(); i-- > 0;) {
      const FusionGraph::Node &node = graph.nodes[i];
      Entry &entry = entries[i];
      if (node.externRef || node.outputs.empty()) {
        entry = Entry{};
        entry.parent = kNone;
        entry.pattern = OpPattern::Opaque;
        continue;
      }
      OpPattern pattern = OpPattern::ElemWise;
      int parent = node.outputs.front().node;
      pattern = std::max(pattern, node.outputs.front().pattern);
      for (const FusionGraph::Edge &edge :
           llvm::ArrayRef(node.outputs).drop_front()) {
        parent = commonAncestor(parent, edge.node, pattern);
        pattern = std::max(pattern, edge.pattern);
      }
      entry.parent = parent;
      entry.depth = parent == kNone ? 1 : entries[parent].depth + 1;
      entry.pattern = pattern;
    }
  }

  /// The nearest node post-dominating both `a` and `b` (kNone: none), the
  /// patterns on the way combined into `pattern`.
  int commonAncestor(int a, int b, OpPattern &pattern) const {
    while (a != b) {
      if (a == kNone || b == kNone)
        return kNone;
      unsigned da = entries[a].depth, db = entries[b].depth;
      if (da < db) {
        pattern = std::max(pattern, entries[b].pattern);
        b = entries[b].parent;
      } else if (db < da) {
        pattern = std::max(pattern, entries[a].pattern);
        a = entries[a].parent;
      } else {
        pattern = std::max({pattern, entries[a].pattern, entries[b].pattern});
        a = entries[a].parent;
        b = entries[b].parent;
      }
    }
    return a;
  }

  SmallVector<Entry> entries;
};

/// Groups as a union-find forest over the nodes.
class Partitioner {
public:
  Partitioner(const FusionGraph &graph, unsigned maxDepth)
      : graph(graph), maxDepth(maxDepth) {
    for (const FusionGraph::Node &node : graph.nodes)
      groups.push_back(
          {kNone, node.pattern, 1, node.pattern == OpPattern::OutEWiseFusable});
  }

  SmallVector<unsigned> run() {
    PostDominators dominators(graph);
    for (int phase = 0; phase < 2; ++phase)
      runPhase(dominators, phase);
    SmallVector<unsigned> result;
    for (unsigned i = 0; i < groups.size(); ++i)
      result.push_back(root(i));
    return result;
  }

private:
  struct Group {
    int parent;
    OpPattern pattern;
    unsigned numNodes;
    /// Whether the group holds a matmul-like step (its anchor).
    bool anchored;
  };

  unsigned root(unsigned i) {
    unsigned r = i;
    while (groups[r].parent != kNone)
      r = groups[r].parent;
    while (groups[i].parent != kNone) {
      unsigned next = groups[i].parent;
      groups[i].parent = r;
      i = next;
    }
    return r;
  }

  void merge(unsigned child, unsigned parent) {
    child = root(child);
    parent = root(parent);
    if (child == parent)
      return;
    groups[parent].numNodes += groups[child].numNodes;
    groups[child].parent = parent;
    if (groups[child].anchored) {
      groups[parent].anchored = true;
      groups[parent].pattern =
          std::max(groups[child].pattern, groups[parent].pattern);
    }
  }

  /// Whether every path from `src`'s readers to `sink` passes only groups
  /// `accept` takes (told whether it is looking at the sink).
  template <typename F>
  bool pathsAccepted(unsigned src, unsigned sink, F accept) {
    visited.clear();
    for (const FusionGraph::Edge &edge : graph.nodes[src].outputs)
      if (!pathAccepted(edge.node, sink, accept))
        return false;
    return true;
  }
  template <typename F>
  bool pathAccepted(unsigned node, unsigned sink, F accept) {
    if (!visited.insert(node).second)
      return true;
    if (!accept(groups[root(node)].pattern, node == sink))
      return false;
    if (node == sink)
      return true;
    for (const FusionGraph::Edge &edge : graph.nodes[node].outputs)
      if (!pathAccepted(edge.node, sink, accept))
        return false;
    return true;
  }

  /// Merges `src` and everything on its paths to `sink` into sink's group.
  void fuse(unsigned src, unsigned sink) {
    visited.clear();
    fuseFrom(src, sink, root(sink));
  }
  void fuseFrom(unsigned node, unsigned sink, unsigned target) {
    if (node == sink || !visited.insert(node).second)
      return;
    merge(node, target);
    for (const FusionGraph::Edge &edge : graph.nodes[node].outputs)
      fuseFrom(edge.node, sink, target);
  }

  /// The nodes the group of `sink` would hold with `child` and the paths
  /// from it.
  unsigned countWith(unsigned child, unsigned sink) {
    visited.clear();
    return groups[root(sink)].numNodes + countTo(child, sink);
  }
  unsigned countTo(unsigned node, unsigned sink) {
    if (node == sink || !visited.insert(node).second)
      return 0;
    unsigned sum = groups[node].numNodes;
    for (const FusionGraph::Edge &edge : graph.nodes[node].outputs)
      sum += countTo(edge.node, sink);
    return sum;
  }

  void runPhase(const PostDominators &dominators, int phase) {
    for (unsigned i = 0; i < graph.nodes.size(); ++i) {
      OpPattern pattern = groups[i].pattern;
      const PostDominators::Entry &dom = dominators.entries[i];
      if (pattern == OpPattern::Opaque || dom.parent == kNone)
        continue;
      unsigned sink = dom.parent;
      if (countWith(i, sink) > maxDepth)
        continue;
      if (root(i) == root(sink))
        continue;
      if (pattern == OpPattern::OutEWiseFusable) {
        // Element-wise work after a matmul-like step, through broadcasts.
        if (phase != 0 || dom.pattern != OpPattern::ElemWise)
          continue;
        if (pathsAccepted(i, sink, [](OpPattern p, bool) {
              return p <= OpPattern::Broadcast;
            }))
          fuse(i, sink);
      } else if (pattern <= OpPattern::Broadcast) {
        // Into an injective, reduction or matmul-like step after it.
        if (dom.pattern > OpPattern::Injective &&
            dom.pattern != OpPattern::CommReduce)
          continue;
        if (pathsAccepted(i, sink, [](OpPattern p, bool isSink) {
              if (!isSink)
                return p <= OpPattern::Injective;
              return p <= OpPattern::CommReduce ||
                     p == OpPattern::OutEWiseFusable;
            }))
          fuse(i, sink);
      } else if (pattern == OpPattern::Injective) {
        // Once matmul-like groups are complete.
        if (phase != 1)
          continue;
        if (pathsAccepted(i, sink, [](OpPattern p, bool) {
              return p <= OpPattern::Injective;
            }))
          fuse(i, sink);
      }
    }
  }

  const FusionGraph &graph;
  unsigned maxDepth;
  SmallVector<Group> groups;
  llvm::DenseSet<unsigned> visited;
};

} // namespace

bool mlir::tir::isSizeComputation(Operation *op) {
  if (op->getNumRegions() != 0 || op->getNumResults() == 0 || !isPure(op))
    return false;
  return llvm::all_of(op->getResultTypes(), [](Type type) {
    return type.isIndex() || type.isSignlessInteger();
  });
}

bool mlir::tir::isPrimitiveFunction(Operation *func) {
  auto attrs =
      func->getAttrOfType<DictionaryAttr>(TIRDialect::kFuncAttrsAttrName);
  Attribute flag = attrs ? attrs.get("Primitive") : Attribute();
  if (auto b = dyn_cast_or_null<BoolAttr>(flag))
    return b.getValue();
  if (auto i = dyn_cast_or_null<IntegerAttr>(flag))
    return !i.getValue().isZero();
  return false;
}

SmallVector<unsigned> mlir::tir::partitionFusionGraph(const FusionGraph &graph,
                                                      unsigned maxDepth) {
  return Partitioner(graph, maxDepth).run();
}
