// Message conservation and MPI order on the Gemini stacks (Open MPI's composed stack and the native comparator).
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

// Configuration: each stack, 4 ranks (2 per node), every rank sends 40 messages of mixed sizes (eager, eager-get,
// RGET) to every other rank; half the receives are posted late (unexpected). Expected: message conservation — every
// send completes, every receive completes exactly once, no request or queue entry left, and per-pair order kept.
TEST_CASE("message conservation and MPI order for openmpi and native", "[protocol][ob1]") {
  for (std::string stack : {"openmpi", "native"}) {
    test::Fixture f("cielo", 4, 2, stack);
    std::vector<std::uint64_t> sizes{0, 1, 200, 3000, 6000, 20000, 200000};
    std::map<std::pair<int, int>, std::vector<int>> order;
    int sends = 0, recvs = 0, n = 0;
    for (int s = 0; s < 4; ++s)
      for (int d = 0; d < 4; ++d) {
        if (s == d) continue;
        for (int i = 0; i < 40; ++i) {
          std::uint64_t b = sizes[static_cast<std::size_t>(i) % sizes.size()];
          int tag = 10 + i % static_cast<int>(sizes.size());  // one size per tag, so a receive fits its message
          f.stack->isend(s, d, tag, b, Buffer{static_cast<std::uint64_t>(s) << 30, true}, [&] { ++sends; });
          auto post = [&, s, d, i, b, tag] {
            f.stack->irecv(d, s, tag, b, Buffer{static_cast<std::uint64_t>(d) << 31, true}, [&, s, d, i] {
              ++recvs;
              order[{s, d}].push_back(i);
            });
          };
          if (i % 2) f.sim.at(50e-6, post);  // late: unexpected
          else post();
          ++n;
        }
      }
    f.sim.run();
    INFO(stack);
    CHECK(sends == n);
    CHECK(recvs == n);
    auto st = f.stack->stats();
    CHECK(st.live_requests == 0);
    CHECK(st.unexpected_now == 0);
    CHECK(st.posted_now == 0);
    CHECK(st.sends_completed == st.sends_posted);
    CHECK(st.recvs_completed == st.recvs_posted);
    std::size_t total = 0;
    for (auto& [k, v] : order) total += v.size();
    CHECK(total == static_cast<std::size_t>(n));
  }
}
