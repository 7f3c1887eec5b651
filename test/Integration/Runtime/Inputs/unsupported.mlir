// A parameter the runtime has no way to pass.
// (see errors.test)
func.func @takes_vector(%A: memref<4xf32> {tir.name = "A"}, %v: vector<4xf32> {tir.name = "v"}) {
  return
}
