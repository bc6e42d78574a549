// Curve labels of reproduce's plots (validation/curve_labels.hpp) on the heterogeneous paper's Fig. 3 and Fig. 4
// scenarios, whose curves share stack, benchmark and rank count.
#include "platform/machine.hpp"
#include "runner/scenario.hpp"
#include "validation/curve_labels.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

using namespace ompisim;

namespace {
std::vector<Scenario> load(const std::vector<std::string>& ids) {
  std::vector<Scenario> out;
  for (const auto& id : ids) out.push_back(load_scenario(data_dir() + "/scenarios/hetero/" + id + ".json"));
  return out;
}
std::vector<std::string> labels_of(const std::vector<Scenario>& s, const std::string& base) {
  std::vector<std::string> labels(s.size(), base);
  std::vector<const Scenario*> p;
  for (const auto& x : s) p.push_back(&x);
  validation::distinguish_labels(labels, p);
  return labels;
}
}  // namespace

// Configuration: scenarios/hetero/fig4_imb_reduce_{opteron,g5,block,rr} on hetero-cpu (nodes 0-127 Opteron, 128-143
// G5), all "openmpi imb_reduce 16p". Expected: the placement phrases from the scenarios' node lists (16 Opterons; 16
// G5s; 8 + 8 in two blocks; alternating), and labels that are all different and carry them. How validated: by hand
// from the node lists.
TEST_CASE("reproduce labels: Fig. 4 curves name homogeneous/heterogeneous and block/round-robin", "[unit][validation][hetero]") {
  auto s = load({"fig4_imb_reduce_opteron", "fig4_imb_reduce_g5", "fig4_imb_reduce_block", "fig4_imb_reduce_rr"});
  CHECK(validation::placement_phrase(s[0]) == "homogeneous opteron");
  CHECK(validation::placement_phrase(s[1]) == "homogeneous g5");
  CHECK(validation::placement_phrase(s[2]) == "heterogeneous, block 8 opteron + 8 g5");
  CHECK(validation::placement_phrase(s[3]) == "heterogeneous, round robin opteron/g5");
  auto l = labels_of(s, "openmpi imb_reduce 16p");
  CHECK(l[0] == "openmpi imb_reduce 16p, homogeneous opteron");
  CHECK(l[3] == "openmpi imb_reduce 16p, heterogeneous, round robin opteron/g5");
  CHECK(std::set<std::string>(l.begin(), l.end()).size() == 4);
}

// Configuration: scenarios/hetero/fig3_netpipe_{byte_hetero,int_hetero,int_opteron}, all "openmpi netpipe 2p".
// Expected: the datatype (the one benchmark input that differs) and the placement (G5 to Opteron vs two Opterons)
// in every label of the group, all labels different. Curves that already differ keep their labels.
TEST_CASE("reproduce labels: Fig. 3 curves name datatype and placement", "[unit][validation][hetero]") {
  auto s = load({"fig3_netpipe_byte_hetero", "fig3_netpipe_int_hetero", "fig3_netpipe_int_opteron"});
  auto l = labels_of(s, "openmpi netpipe 2p");
  CHECK(l[0] == "openmpi netpipe 2p datatype=MPI_BYTE, g5-opteron, heterogeneous");
  CHECK(l[1] == "openmpi netpipe 2p datatype=MPI_INT, g5-opteron, heterogeneous");
  CHECK(l[2] == "openmpi netpipe 2p datatype=MPI_INT, homogeneous opteron");
  std::vector<std::string> distinct = {"a", "b", "c"};
  std::vector<const Scenario*> p = {&s[0], &s[1], &s[2]};
  validation::distinguish_labels(distinct, p);
  CHECK(distinct == std::vector<std::string>{"a", "b", "c"});
  // Same scenario twice: nothing tells them apart but the id.
  std::vector<std::string> same = {"x", "x"};
  std::vector<const Scenario*> q = {&s[0], &s[0]};
  validation::distinguish_labels(same, q);
  CHECK(same[0] == "x (fig3_netpipe_byte_hetero)");
}
