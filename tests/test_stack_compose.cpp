// Stacks composed from registered components (runner/stacks.hpp) against their presets, and the input errors of stack
// objects and MCA keys.
#include "runner/run.hpp"
#include "runner/scenario.hpp"
#include "runner/stacks.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

namespace {
Json latency(const std::string& machine, const Json& stack, Json mca = Json::object()) {
  Json j{{"id", "compose"}, {"machine", machine}, {"stack", stack}, {"engine", "des"}, {"ranks", 2},
         {"benchmark", {{"name", "osu_latency"}, {"sizes", {0, 1024, 65536, 1048576}}, {"iterations", 20}, {"skip", 2}}}};
  if (!mca.empty()) j["mca"] = mca;
  Scenario s = scenario_from_json(j, "compose.json");
  return run_one(s, 2, {});
}
std::string input_error(const std::string& machine, const Json& stack, Json mca = Json::object()) {
  try {
    latency(machine, stack, std::move(mca));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

// Configuration: osu_latency (0 B to 1 MiB, 2 ranks, DES engine) with each preset and with the equivalent stack object.
// Expected: identical points, counters and stack name (the composed stack is the same components in the same order).
// How validated: exact equality of the result's points and stats.
TEST_CASE("stack objects give their preset's results", "[unit][stack]") {
  struct Case {
    std::string machine, preset;
    Json object;
  };
  std::vector<Case> cases{
      {"cielo", "openmpi", {{"pml", "ob1"}, {"btl", {"self", "vader", "ugni"}}}},
      {"cielo", "native", {{"native", "mpich_gni"}}},
      {"red-storm", "openmpi-cm", {{"pml", "cm"}, {"mtl", "portals"}}},
      {"red-storm", "openmpi-ob1", {{"pml", "ob1"}, {"btl", {"self", "portals"}}}},
      {"red-storm", "native", {{"native", "mpich_portals"}}},
      {"loggp", "loggp", {{"model", "loggp"}}},
  };
  for (auto& c : cases) {
    INFO(c.machine << " " << c.preset);
    Json a = latency(c.machine, c.preset), b = latency(c.machine, c.object);
    CHECK(a["points"] == b["points"]);
    CHECK(a["stats"] == b["stats"]);
    CHECK(b["stack"] == c.preset);
    CHECK(a.value("mailbox_memory", Json()) == b.value("mailbox_memory", Json()));
  }
  // A composition that is no preset runs too (on-node only: self + vader), under its own label.
  Json j{{"id", "sv"}, {"machine", "cielo"}, {"stack", {{"pml", "ob1"}, {"btl", {"self", "vader"}}}}, {"engine", "des"},
         {"ranks", 2}, {"ranks_per_node", 2}, {"benchmark", {{"name", "osu_latency"}, {"sizes", {8}}, {"iterations", 5}}}};
  Json r = run_one(scenario_from_json(j, "sv.json"), 2, {});
  CHECK(r["stack"] == "pml/ob1+btl/{self,vader}");
  CHECK(r["points"].size() == 1);
}

// Configuration: bad stack objects and MCA keys. Expected: InputError naming the file, the key path and the reason.
// How validated: the error text.
TEST_CASE("bad stack objects and foreign MCA keys are refused", "[unit][stack]") {
  using Catch::Contains;
  CHECK_THAT(input_error("cielo", {{"pml", "ob1"}, {"btl", {"self", "vadr"}}}),
             Contains("key 'stack.btl[1]'") && Contains("unknown btl component 'vadr'") && Contains("did you mean 'vader'"));
  CHECK_THAT(input_error("red-storm", {{"pml", "ob1"}, {"btl", {"self", "vader"}}}),
             Contains("key 'stack.btl[1]'") && Contains("btl/vader runs on gemini") && Contains("red-storm"));
  CHECK_THAT(input_error("cielo", {{"pml", "ob1"}}), Contains("key 'stack.btl'") && Contains("at least one BTL"));
  CHECK_THAT(input_error("red-storm", {{"pml", "cm"}}), Contains("key 'stack.mtl'") && Contains("needs an MTL"));
  CHECK_THAT(input_error("red-storm", {{"pml", "cm"}, {"mtl", "portals"}, {"btl", {"self"}}}),
             Contains("key 'stack.btl'") && Contains("not BTLs"));
  CHECK_THAT(input_error("cielo", {{"pmll", "ob1"}}), Contains("key 'stack.pmll'") && Contains("did you mean 'pml'"));
  CHECK_THAT(input_error("cielo", {{"native", "mpich_gni"}, {"pml", "ob1"}}), Contains("key 'stack.pml'"));
  CHECK_THAT(input_error("cielo", {{"pml", "ob1"}, {"btl", {"self", "self"}}}),
             Contains("key 'stack.btl[1]'") && Contains("twice"));
  // MCA keys: a parameter of a component outside the run's stack names its owner.
  CHECK_THAT(input_error("cielo", "native", {{"btl_ugni_eager_limit", 1024}}),
             Contains("key 'mca.btl_ugni_eager_limit'") && Contains("btl/ugni") && Contains("stack 'openmpi'"));
  CHECK_THAT(input_error("cielo", {{"pml", "ob1"}, {"btl", {"self", "vader"}}}, {{"btl_ugni_eager_limit", 1024}}),
             Contains("parameter of btl/ugni") && Contains("btl/self, btl/vader"));
  CHECK_THAT(input_error("cielo", {{"pml", "ob1"}, {"btl", {"self", "vader"}}}, {{"btl_vader_eager_limt", 1024}}),
             Contains("did you mean 'btl_vader_eager_limit'"));
  CHECK(input_error("cielo", {{"pml", "ob1"}, {"btl", {"self", "vader", "ugni"}}}, {{"btl_ugni_eager_limit", 4096}}).empty());
}

// Configuration: every registered component's parameters. Expected: each MCA name is owned by exactly one component,
// and the aggregate McaParams lists each once. How validated: counts.
TEST_CASE("each MCA parameter has one owning component", "[unit][stack]") {
  McaParams mca = component_registry().defaults();
  auto all = param_names(param_list(mca));
  std::size_t sum = 0;
  for (auto& c : component_registry().all()) {
    for (auto& n : c.param_names()) CHECK(mca_owner(n) == &c);
    sum += c.param_names().size();
  }
  CHECK(sum == all.size());
  // 26 + ptl/elan4 (10: cq_qdma, num_qdescs, num_putget added) + native/mpich_qsnet (1) + native/elan4_qdma (1) + pml/ob1 (4: stripe policy and size, send and recv
  // pipeline depths) + btl/openib, gm, tcp (9 each: min_send_size added) + btl/portals needs_ack (its per-peer
  // credits became max_pending_ops)
  // + mtl/portals copy blocks (2) + btl/portals eager_frag_limit + pml/ob1 use_early_completion
  // + native/mpich_gni num_bufs (the E1 eager path's DMA buffers)
  // + ofi/cxi fi_cxi_* (6), ofi/shm shm_inject_size, mtl/ofi ompi_mtl_ofi_inject, native/mpich_cxi mpich_ofi_inject
  // + native/mpich_cxi's bcast tunables (mpich_bcast_only_tree, mpich_bcast_internode_radix, _intranode_radix)
  // + native/mpich_gni mpich_eager_short_size (CH3's data-in-header send on the node)
  // + btl/portals send_end_event (the 2007 trunk's SEND_END read beside the ACK)
  // + pml/ob1 mpi_leave_pinned (Open MPI 1.1's registration lookup)
  // + btl/portals peer_window (the SeaStar paper's rate limit, fitted; 0 in Open MPI's own defaults)
  CHECK(all.size() == 94);
}
