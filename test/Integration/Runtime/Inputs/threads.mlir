// Each iteration of a parallel loop records which OpenMP thread ran it.
func.func private @omp_get_thread_num() -> i32

func.func @threads(%T: memref<64xi32> {tir.name = "T"}) {
  tir.for %i = 0 to 64 parallel {
    tir.block "T"(%vi = spatial(64, %i)) {
      %id = func.call @omp_get_thread_num() : () -> i32
      tir.store %id, %T[%vi] : memref<64xi32>
    }
  }
  return
}
