/* A C program of another project against the installed C API: its header
   from include/, the library from lib/. */
#include "TensorIR-c/Runtime.h"

#include <stdio.h>

int main(void) {
  const char *error = tirGetLastError();
  printf("C API: last error '%s'\n", error ? error : "");
  return 0;
}
