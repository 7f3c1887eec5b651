//===- blas_probe.cpp - OpenBLAS's sgemm speed with this core type --------===//
//
// bench/run.sh runs this once per OpenBLAS core type (OPENBLAS_CORETYPE, read
// when the library loads, so one process each) and keeps the fastest as the
// run's baseline: OpenBLAS at its best on this host, chosen by measuring.
// Prints "sgemm <GFLOP/s>" for 1024^3 on the threads OPENBLAS_NUM_THREADS
// gives, best of 5.
//
//===----------------------------------------------------------------------===//

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main() {
  const int n = 1024;
  std::vector<float> a(n * n, 0.5f), b(n * n, 0.25f), c(n * n);
  auto once = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                a.data(), n, b.data(), n, 0.0f, c.data(), n);
  };
  once();
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    auto start = std::chrono::steady_clock::now();
    once();
    double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    best = std::max(best, 2.0 * n * n * n / s / 1e9);
  }
  std::printf("sgemm %.1f %s\n", best, openblas_get_corename());
  return 0;
}
