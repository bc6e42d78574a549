// Builds a World on the plain DES engine (SimGrid allows one engine per process, so in-process tests use DES).
#pragma once
#include "engine/des_engine.hpp"
#include "engine/lmm_engine.hpp"
#include "platform/machine.hpp"
#include "runner/registries.hpp"
#include "runner/stacks.hpp"
#include "mpi/stack.hpp"
#include "platform/world.hpp"

#include <memory>
#include <vector>

namespace ompisim::test {

// A job on `Engine` (the DES engine: flows without sharing; engine::LmmEngine: max-min sharing, as a run's).
template <class Engine>
struct BasicFixture {
  std::unique_ptr<Machine> machine;
  Engine sim;
  std::unique_ptr<World> world;
  std::unique_ptr<Stack> stack;
  McaParams mca_;
  BasicFixture(const std::string& m, long long ranks, int rpn, const std::string& stack_name = "",
               McaParams* mca = nullptr) {
    machine = load_machine(m);
    Placement p = make_placement(*machine, ranks, rpn, {}, "test");
    mca_ = mca ? *mca : machine_mca(*machine);
    world = std::make_unique<World>(sim, *machine, p);
    world->declare_resources();
    sim.seal();
    if (!stack_name.empty()) stack = make_stack(*world, mca_, stack_name, "test");
  }
};
using Fixture = BasicFixture<engine::DesEngine>;
using SharingFixture = BasicFixture<engine::LmmEngine>;

// A job's platform before its stack, as the runner builds it: the World on the DES engine with its resources not yet
// declared. Build the stack on `*world` (a stack may add progress threads), then seal().
struct Job {
  engine::DesEngine sim;
  std::unique_ptr<World> world;
  Job(Machine& m, Placement p) : world(std::make_unique<World>(sim, m, std::move(p))) {}
  void seal() {
    world->declare_resources();
    sim.seal();
  }
};

// A crusher job with its ranks on cores 1, 9, 17, ... of each node (map-by ppr:1:l3cache, bind-to core; rpn <= 8), as
// the Slingshot paper placed them; no stack (the provider tests build their own).
struct CrusherJob {
  std::unique_ptr<Machine> machine = load_machine("crusher");
  McaParams mca = machine_mca(*machine);  // the providers' parameter blocks (ofi/cxi's CxiMca, ofi/shm's ShmMca)
  engine::DesEngine sim;
  std::unique_ptr<World> world;
  CrusherJob(long long ranks, int rpn) {
    Json mapping = {{"map_by", "core"}};
    std::vector<int> cl{1, 9, 17, 25, 33, 41, 49, 57};
    cl.resize(static_cast<std::size_t>(rpn));
    mapping["cpu_list"] = cl;
    world = std::make_unique<World>(sim, *machine, make_placement(*machine, ranks, rpn, {}, "test", mapping));
    world->declare_resources();
    sim.seal();
  }
};

// Two messages of `bytes` from rank 0 (buffer at `send_addr`) to rank 1: tag 7 once its receive is posted, tag 8
// before its receive is posted (unexpected until then). Returns how many of the four requests completed.
inline int send_expected_and_unexpected(Fixture& f, std::uint64_t bytes, std::uint64_t send_addr = 4096) {
  int done = 0;
  f.stack->irecv(1, 0, 7, bytes, Buffer{1 << 20, true}, [&] { ++done; });
  f.sim.run();
  f.stack->isend(0, 1, 7, bytes, Buffer{send_addr, true}, [&] { ++done; });
  f.stack->isend(0, 1, 8, bytes, Buffer{send_addr, true}, [&] { ++done; });
  f.sim.run();
  f.stack->irecv(1, 0, 8, bytes, Buffer{1 << 20, true}, [&] { ++done; });
  f.sim.run();
  return done;
}

}  // namespace ompisim::test
