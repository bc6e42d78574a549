// native/mpich_cxi's collective tunables (Cray MPICH's MPICH_BCAST_ONLY_TREE and bcast radices, MpichOfiMca): the
// stack declares the values of its MCA block to the decision table, and a machine file's out-of-range value is refused.
#include "collectives/decision.hpp"
#include "core/errors.hpp"
#include "protocols/mtl/ofi/mtl_ofi_mca.hpp"
#include "protocols/mtl/ofi/ofi_stacks.hpp"
#include "runner/registries.hpp"
#include "tests/test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace ompisim;

namespace {
mtl::ofi::OfiParts parts(test::CrusherJob& job) {
  return {job.sim, job.world->contexts(), job.world->cpus(), job.world->fabric()};
}
}  // namespace

// Configuration: a 16-rank Crusher job (8 a node); the native stack built from the machine's MCA defaults, then with
// mpich_bcast_internode_radix set to 8 (the "--set" path: the MCA block's value, source "test").
// Expected: coll_tunables() carries the documented defaults (only_tree 1, radices 4 and 4), then 8 between nodes, and
// the decision's roots stage radix follows it; Open MPI's stacks declare none.
// How validated: against the MCA block's declared defaults and the value set; the radix through coll::stage_radix.
TEST_CASE("native/mpich_cxi: collective tunables come from the declared MCA parameters", "[unit][protocol][mpich_cxi]") {
  test::CrusherJob job(16, 8);
  auto stack = mtl::ofi::make_mpich_cxi_stack(parts(job), job.mca, "native");
  auto t = stack->coll_tunables();
  CHECK(t.at("mpich_bcast_only_tree") == 1);
  CHECK(t.at("mpich_bcast_internode_radix") == 4);
  CHECK(t.at("mpich_bcast_intranode_radix") == 4);
  auto list = param_list(job.mca);
  REQUIRE(set_param(list, "mpich_bcast_internode_radix", "8", "test"));
  auto stack8 = mtl::ofi::make_mpich_cxi_stack(parts(job), job.mca, "native");
  const auto lib = coll::load_decision(data_dir() + "/collectives/decision/mpich_default.json");
  CHECK(coll::stage_radix(lib, "bcast", coll::Stage::Roots, stack8->coll_tunables()) == 8);
  CHECK(coll::stage_radix(lib, "bcast", coll::Stage::Node, stack8->coll_tunables()) == 4);
}

// Configuration: the crusher machine with "mca_defaults": {"mpich_bcast_internode_radix": {"value": 1, ...}}, and with
// 65; then a valid 8.
// Expected: 1 and 65 are refused (the declared range is 2 to 64) with an InputError naming the machine file and the
// key (exit status 2 through the CLI); 8 is taken with its source.
// How validated: machine_mca on the modified machine, the error's key and text.
TEST_CASE("native/mpich_cxi: an out-of-range bcast radix in the machine file is refused", "[unit][protocol][mpich_cxi]") {
  auto m = load_machine("crusher");
  for (int bad : {1, 65}) {
    m->mca_defaults = Json{{"mpich_bcast_internode_radix", {{"value", bad}, {"source", "test"}}}};
    try {
      (void)machine_mca(*m);
      FAIL("radix " << bad << " accepted");
    } catch (const InputError& e) {
      CHECK_THAT(std::string(e.what()), Catch::Contains("mpich_bcast_internode_radix"));
      CHECK_THAT(std::string(e.what()), Catch::Contains("crusher"));
    }
  }
  m->mca_defaults = Json{{"mpich_bcast_internode_radix", {{"value", 8}, {"source", "test"}}}};
  auto mca = machine_mca(*m);
  CHECK(mca.get<mtl::ofi::MpichOfiMca>().mpich_bcast_internode_radix.value == 8);
}
