//===- TIRTransformOps.td - transform.tir extension --------*- tablegen -*-===//
//
// Schedule primitives as transform-dialect ops. Each op is a thin wrapper over
// a function of the schedule library (include/TensorIR/Schedule).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRTRANSFORMOPS_TD
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRTRANSFORMOPS_TD

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Dialect/Transform/IR/TransformTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

class TIR_TransformOp<string mnemonic, list<Trait> traits = []>
    : Op<Transform_Dialect, "tir." # mnemonic, traits>;

def TIR_GetBlockOp : TIR_TransformOp<"get_block", [
    NavigationTransformOpTrait, MemoryEffectsOpInterface,
    DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "find a tir.block by name (TVM's Schedule.get_block)";
  let description = [{
    Returns a handle to the `tir.block` named `name` inside the payload ops of
    `target` (functions or a module). Block names are unique within a
    function; when the target holds several functions that each have such a
    block, the op fails (silenceably) and asks for a function handle, as
    TVM's `get_block(name, func_name)` does.

    ```mlir
    %b = transform.tir.get_block "C" in %func : (!transform.any_op) -> !transform.any_op
    ```

    Fails silenceably when no block has that name.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target, StrAttr:$name);
  let results = (outs TransformHandleTypeInterface:$result);
  let assemblyFormat = [{
    $name `in` $target attr-dict `:` functional-type(operands, results)
  }];
}

def TIR_GetLoopsOp : TIR_TransformOp<"get_loops", [
    NavigationTransformOpTrait, MemoryEffectsOpInterface,
    DeclareOpInterfaceMethods<TransformOpInterface>]> {
  let summary = "the loops above a block, outermost first (TVM's get_loops)";
  let description = [{
    Returns the `tir.for` loops that enclose the block, from the outermost
    to the innermost, stopping at the enclosing block or function (the
    block's scope), as TVM's `Schedule.get_loops` does. With one result, the
    handle holds all loops in that order; with several results, there must be
    exactly one per loop, as in `i, j, k = sch.get_loops(block)`.

    ```mlir
    %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %all = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    ```

    The target handle must hold exactly one `tir.block`.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs Variadic<TransformHandleTypeInterface>:$loops);
  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_TIRTRANSFORMOPS_TD
