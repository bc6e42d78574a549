// A neighbour job's traffic patterns (platform/neighbour_job.hpp): the ordered node pairs each pattern makes, and
// that each pattern's count (checked before the pairs are made) agrees with them.
#include "platform/neighbour_job.hpp"

#include <catch2/catch.hpp>
#include <set>

using namespace ompisim;

TEST_CASE("neighbour job: pairs exchange node i with node i + n/2 both ways", "[neighbour]") {
  NeighbourJob j;
  j.nodes = {10, 11, 20, 21};
  j.pattern = "pairs";
  auto p = j.pairs();
  std::set<std::pair<long long, long long>> got(p.begin(), p.end());
  CHECK(got == std::set<std::pair<long long, long long>>{{10, 20}, {20, 10}, {11, 21}, {21, 11}});
  CHECK(p.size() == 4);
}

TEST_CASE("neighbour job: shift sends node i to node i + shift modulo n", "[neighbour]") {
  NeighbourJob j;
  j.nodes = {1, 2, 3, 4, 5};
  j.pattern = "shift";
  j.shift = 2;
  auto p = j.pairs();
  REQUIRE(p.size() == 5);
  CHECK(p[0] == std::pair<long long, long long>{1, 3});
  CHECK(p[3] == std::pair<long long, long long>{4, 1});
  CHECK(p[4] == std::pair<long long, long long>{5, 2});
}

TEST_CASE("neighbour job: alltoall makes every ordered pair once, none to itself", "[neighbour]") {
  NeighbourJob j;
  j.nodes = {7, 8, 9};
  j.pattern = "alltoall";
  auto p = j.pairs();
  std::set<std::pair<long long, long long>> got(p.begin(), p.end());
  CHECK(p.size() == 6);
  CHECK(got.size() == 6);
  for (auto [a, b] : p) CHECK(a != b);
}

TEST_CASE("neighbour job: each pattern's count is the number of pairs it makes", "[neighbour]") {
  for (auto& pat : neighbour_patterns())
    for (std::size_t n : {2u, 4u, 6u, 10u}) {
      NeighbourJob j;
      for (std::size_t i = 0; i < n; ++i) j.nodes.push_back(static_cast<long long>(100 + i));
      j.pattern = pat.name;
      INFO(pat.name << " on " << n << " nodes");
      CHECK(j.pairs().size() == pat.count(n));
    }
  NeighbourJob bad;
  bad.nodes = {1, 2};
  bad.pattern = "ring";
  CHECK_THROWS_AS(bad.pairs(), std::logic_error);
}
