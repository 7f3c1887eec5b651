//===- blas_probe.cpp - OpenBLAS's sgemm speed with this core type --------===//
//
// bench/run.sh runs this once per OpenBLAS core type (OPENBLAS_CORETYPE, read
// when the library loads, so one process each) and keeps the fastest as the
// run's baseline: OpenBLAS at its best on this host, chosen by measuring.
// Prints "sgemm <GFLOP/s> <core type>" for 1024^3 (or M N K given as
// arguments) on the threads OPENBLAS_NUM_THREADS gives, the best of at
// least 5 calls and 0.5 s; bench/cpu_peers.py runs it per problem.
//
//===----------------------------------------------------------------------===//

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  long m = 1024, n = 1024, k = 1024;
  if (argc == 4) {
    m = std::atol(argv[1]);
    n = std::atol(argv[2]);
    k = std::atol(argv[3]);
  }
  if ((argc != 1 && argc != 4) || m <= 0 || n <= 0 || k <= 0) {
    std::fprintf(stderr, "usage: %s [M N K]\n", argv[0]);
    return 2;
  }
  std::vector<float> a(m * k, 0.5f), b(k * n, 0.25f), c(m * n);
  auto once = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f,
                a.data(), k, b.data(), n, 0.0f, c.data(), n);
  };
  once();
  double best = 0, total = 0;
  for (int rep = 0; rep < 5 || total < 0.5; ++rep) {
    auto start = std::chrono::steady_clock::now();
    once();
    double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    total += s;
    best = std::max(best, 2.0 * m * n * k / s / 1e9);
  }
  std::printf("sgemm %.1f %s\n", best, openblas_get_corename());
  return 0;
}
