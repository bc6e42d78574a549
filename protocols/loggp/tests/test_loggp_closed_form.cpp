#include "benchmarks/benchmarks.hpp"
#include "models/loggp/nic.hpp"
#include "tests/test_helpers.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace ompisim;

namespace {
double one_way(double s, double o, double L, double G_bw, double O_bw) {
  // LogGOPS, uncontended: 2o + L + max((s-1)O, (s-1)G) (LogGOPSim.cpp: the sender's first byte leaves after o, the
  // receiver pays o + max((s-1)O, (s-1)G) from the first byte's arrival).
  const double extra = std::max(0.0, s - 1);
  return 2 * o + L + std::max(extra / O_bw, extra / G_bw);
}

Json latency(test::Fixture& f, std::vector<std::uint64_t> sizes) {
  bench::OsuConfig c;
  c.name = "osu_latency";
  c.sizes = std::move(sizes);
  c.iterations = 4;
  c.skip = 1;
  return bench::run_osu(*f.world, *f.stack, c);
}
}  // namespace

// Configuration: the loggp reference machine (L = 1 us, o = 0.5 us, G = 1 GB/s, O = 100 GB/s, S = 64 KiB), osu_latency
// at eager sizes 0 B to S; then the same with O = 0.5 GB/s, so the per-byte CPU cost O exceeds the wire's G.
// Expected: half the round trip is 2o + L + max((s-1)O, (s-1)G) at every size (the header's formula).
// How validated: relative error below 1e-9. Charging s*O instead of (s-1)O, or adding O to G instead of overlapping
// them, misses by more than that (at 64 KiB with O = 0.5 GB/s by 65 us).
TEST_CASE("loggp: eager osu_latency matches 2o + L + max((s-1)O, (s-1)G)", "[protocol][golden]") {
  for (double O_bw : {100e9, 0.5e9}) {
    test::Fixture f("loggp", 2, 1, "loggp");
    loggp::nic(*f.machine).p.O_bandwidth.value = O_bw;
    const std::vector<std::uint64_t> sizes{0, 1, 2, 1024, 65536};
    Json r = latency(f, sizes);
    REQUIRE(r.size() == sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      double expect = one_way(static_cast<double>(sizes[i]), 0.5e-6, 1e-6, 1e9, O_bw) * 1e6;
      INFO("O = " << O_bw << " B/s, s = " << sizes[i]);
      CHECK(r[i]["latency_us"].get<double>() == Approx(expect).epsilon(1e-9));
    }
  }
}
