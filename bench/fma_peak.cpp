//===- fma_peak.cpp - the machine's fp32 FMA peak, measured ---------------===//
//
// What a matmul kernel on this host can reach at best: independent chains of
// fp32 fused multiply-adds on full vector registers (16 accumulators, more
// than the FMA latency times the ports), timed for a fixed number of
// iterations, best of 5, on 1 and 2 threads. With AVX-512 both 512-bit (zmm)
// and 256-bit (ymm) registers are measured: on some CPUs zmm is no faster.
// Prints one line per width for bench/run.sh.
//
//===----------------------------------------------------------------------===//

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace {
constexpr int kChains = 16;
constexpr long kIterations = 20'000'000;

template <typename Vec, Vec (*Fma)(Vec, Vec, Vec), Vec (*Set)(float)>
float chains(long iterations) {
  Vec acc[kChains];
  for (int i = 0; i < kChains; ++i)
    acc[i] = Set(1.0f + i * 1e-3f);
  Vec a = Set(0.999999f), b = Set(1e-7f);
  for (long n = 0; n < iterations; ++n) {
#pragma GCC unroll 16
    for (int i = 0; i < kChains; ++i)
      acc[i] = Fma(acc[i], a, b);
    // Keep the chains in registers and the loop from being folded.
    asm volatile("" : "+m"(a));
  }
  Vec sum = acc[0];
  for (int i = 1; i < kChains; ++i)
    sum = Fma(sum, a, acc[i]);
  float out[sizeof(Vec) / sizeof(float)];
  std::memcpy(out, &sum, sizeof(Vec));
  return out[0];
}

#ifdef __AVX512F__
__m512 fma512(__m512 a, __m512 b, __m512 c) { return _mm512_fmadd_ps(a, b, c); }
__m512 set512(float x) { return _mm512_set1_ps(x); }
#endif
__m256 fma256(__m256 a, __m256 b, __m256 c) { return _mm256_fmadd_ps(a, b, c); }
__m256 set256(float x) { return _mm256_set1_ps(x); }

/// GFLOP/s of `threads` threads each running `run`, best of 5.
double measure(int threads, int lanes, float (*run)(long)) {
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    std::vector<std::thread> pool;
    std::vector<float> sink(threads);
    auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] { sink[t] = run(kIterations); });
    for (std::thread &th : pool)
      th.join();
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    double flops = 2.0 * lanes * kChains * double(kIterations) * threads;
    best = std::max(best, flops / seconds / 1e9);
    if (sink[0] == 12345.f)
      std::printf(" ");
  }
  return best;
}
} // namespace

int main() {
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  int two = std::min(2u, cores);
#ifdef __AVX512F__
  auto z = [](long n) { return chains<__m512, fma512, set512>(n); };
  std::printf("fma-peak zmm %.1f %.1f\n", measure(1, 16, z),
              measure(two, 16, z));
#endif
  auto y = [](long n) { return chains<__m256, fma256, set256>(n); };
  std::printf("fma-peak ymm %.1f %.1f\n", measure(1, 8, y), measure(two, 8, y));
  return 0;
}
