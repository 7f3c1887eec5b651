/* Exercises the C API end to end (see test/Integration/Runtime/capi.test):
 * compile vector_add.mlir, call it, make every kind of bad call, export it
 * as a shared library, load that back and call it again. */
#include "TensorIR-c/Runtime.h"

#include <stdio.h>
#include <stdlib.h>

static char *readFile(const char *path, size_t *length) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc(size + 1);
  *length = fread(text, 1, size, f);
  text[*length] = 0;
  fclose(f);
  return text;
}

static void callMain(tirModule *m, const char *what) {
  float a[8], b[8] = {0};
  int64_t shape[1] = {8};
  for (int i = 0; i < 8; ++i)
    a[i] = (float)i;
  tirArg args[2] = {tirBufferArg(a, 1, shape, TIR_FLOAT, 32),
                    tirBufferArg(b, 1, shape, TIR_FLOAT, 32)};
  if (tirModuleCall(m, "main", args, 2) != 0) {
    printf("%s: error: %s\n", what, tirGetLastError());
    return;
  }
  printf("%s: B =", what);
  for (int i = 0; i < 8; ++i)
    printf(" %g", b[i]);
  printf("\n");
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s vector_add.mlir out.so\n", argv[0]);
    return 2;
  }
  size_t length;
  char *source = readFile(argv[1], &length);
  if (!source)
    return 2;

  tirModule *m = tirModuleCompile(source, length, "native");
  if (!m) {
    printf("compile: error: %s\n", tirGetLastError());
    return 1;
  }
  for (int32_t i = 0; i < tirModuleNumFunctions(m); ++i) {
    printf("signature: %s\n", tirModuleFunctionSignature(m, i));
    // The same, as data.
    for (int32_t j = 0; j < tirModuleFunctionNumParams(m, i); ++j) {
      tirParam p;
      if (tirModuleFunctionParam(m, i, j, &p))
        return 1;
      printf("param: %s %s %s code %d bits %d shape [",
             tirModuleFunctionName(m, i), p.name,
             p.kind == TIR_ARG_BUFFER ? "buffer" : "scalar", p.code, p.bits);
      for (int32_t d = 0; d < p.ndim; ++d)
        printf(d ? ", %lld" : "%lld", (long long)p.shape[d]);
      printf("]%s%s\n", p.written ? " written" : "", p.result ? " result" : "");
    }
  }
  tirParam none;
  if (tirModuleFunctionParam(m, 0, 2, &none))
    printf("param range: %s\n", tirGetLastError());
  callMain(m, "jit");

  float small[4] = {0}, out[8] = {0};
  int32_t ints[8] = {0};
  int64_t four[1] = {4}, eight[1] = {8};
  tirArg wrongShape[2] = {tirBufferArg(small, 1, four, TIR_FLOAT, 32),
                          tirBufferArg(out, 1, eight, TIR_FLOAT, 32)};
  if (tirModuleCall(m, "main", wrongShape, 2))
    printf("shape: %s\n", tirGetLastError());
  tirArg wrongType[2] = {tirBufferArg(out, 1, eight, TIR_FLOAT, 32),
                         tirBufferArg(ints, 1, eight, TIR_INT, 32)};
  if (tirModuleCall(m, "main", wrongType, 2))
    printf("type: %s\n", tirGetLastError());
  if (tirModuleCall(m, "main", wrongType, 1))
    printf("count: %s\n", tirGetLastError());
  tirArg scalar[2] = {tirIntArg(3), tirBufferArg(out, 1, eight, TIR_FLOAT, 32)};
  if (tirModuleCall(m, "main", scalar, 2))
    printf("scalar: %s\n", tirGetLastError());
  float both[12] = {0};
  tirArg overlapping[2] = {tirBufferArg(both, 1, eight, TIR_FLOAT, 32),
                           tirBufferArg(both + 4, 1, eight, TIR_FLOAT, 32)};
  if (tirModuleCall(m, "main", overlapping, 2))
    printf("overlap: %s\n", tirGetLastError());
  if (tirModuleCall(m, "missing", wrongType, 2))
    printf("name: %s\n", tirGetLastError());
  tirModuleDestroy(m);

  if (!tirModuleCompile("func.func @f(", 13, NULL))
    printf("parse: %s\n", tirGetLastError());

  if (tirModuleExport(source, length, "native", argv[2]) != 0) {
    printf("export: error: %s\n", tirGetLastError());
    return 1;
  }
  tirModule *loaded = tirModuleLoad(argv[2]);
  if (!loaded) {
    printf("load: error: %s\n", tirGetLastError());
    return 1;
  }
  callMain(loaded, "loaded");
  tirModuleDestroy(loaded);
  free(source);
  return 0;
}
