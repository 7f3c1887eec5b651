//===- BufferizableOpInterfaceImpl.h - tir ops in bufferization -*- C++ -*-===//
//
// How tir's graph ops (tir.call_tir) take part in MLIR's one-shot
// bufferization, registered as external models as upstream dialects do.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define TENSORIR_DIALECT_TIR_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tir {
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
