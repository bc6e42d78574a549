// Copies between NUMA nodes on the SimGrid engine (its own process: one SimGrid engine per process).
// Configuration: one Cielo node (2 packages x 2 dies x 4 cores; per-core copy rate dram_copy_bandwidth, per-die memory
//                numa_copy_bandwidth, inter-socket link inter_socket_bandwidth per direction), 16 ranks mapped by core
//                (rank r on core r), 64 MiB copies (far beyond the cache).
//   (a) rank 0 copies within its own die;
//   (b) rank 0 copies from die 2's memory (the other package) into its own;
//   (c) ranks 0, 1 (die 0) and 4, 5 (die 1) each copy from dies 2 and 3 at once (two copies per source die).
// Expected: (b) takes longer than (a) (the link's latency); in (c) the DRAM parts of the four copies share the
//           package 1 -> package 0 link, each at a quarter of inter_socket_bandwidth (the link is the bottleneck: a
//           quarter of it is below the per-core rate and below half a die's memory rate), so each takes
//           cache_time + latency + dram_bytes / (inter_socket_bandwidth / 4) within 1 %.
// How validated: completion times against closed forms from the machine file's values.
#include "engine/simgrid_engine.hpp"
#include "platform/tests/engine/check.hpp"
#include "platform/world.hpp"
#include "runner/registries.hpp"

#include <cmath>
#include <cstdio>

using namespace ompisim;

using platform_test::check;
using platform_test::failures;

int main() {
  auto m = load_machine("cielo");
  const auto& mem = m->node_type(0).memory();
  const auto& links = m->node_type(0).links();
  engine::SimGridEngine sim;
  Placement p = make_placement(*m, 16, 16, {}, "test", Json{{"map_by", "core"}});
  World w(sim, *m, p);
  w.declare_resources();
  sim.seal();
  const double bytes = 64.0 * 1024 * 1024;
  double t_local = -1, t_remote = -1;
  std::vector<double> shared(4, -1);
  // (a), then (b) after it, then (c) after that: one at a time, so they do not share.
  w.cpus().cpu_copy(0, bytes, [&] {
    t_local = sim.now();
    double start_b = sim.now();
    w.cpus().cpu_copy(0, bytes, [&, start_b] {
      t_remote = sim.now() - start_b;
      double start_c = sim.now();
      int k = 0;
      for (int r : {0, 1, 4, 5}) {
        int i = k++;
        w.cpus().cpu_copy(r, bytes, [&, i, start_c] { shared[static_cast<std::size_t>(i)] = sim.now() - start_c; },
                   MemSpace{MemKind::Host, 2 + i % 2});
      }
    }, MemSpace{MemKind::Host, 2});
  });
  sim.run();
  double local_rate = std::min<double>(mem.dram_copy_bandwidth, mem.numa_copy_bandwidth);
  double split_cache = m->node_type(0).split_copy(bytes).cache_time, split_dram = m->node_type(0).split_copy(bytes).dram_bytes;
  check(std::abs(t_local - (split_cache + split_dram / local_rate)) < 1e-3 * t_local, "(a) local copy", t_local,
        split_cache + split_dram / local_rate);
  check(t_remote > t_local, "(b) cross-package copy slower than local", t_remote, t_local);
  double lat = m->node_type(0).copy_latency(0, platform::MemSpace::host(2), platform::MemSpace::host(0));
  double want = split_cache + lat + split_dram / (links.inter_socket_bandwidth / 4);
  for (double t : shared) check(std::abs(t - want) < 0.01 * want, "(c) four copies share the inter-socket link", t, want);
  return failures ? 1 : 0;
}
