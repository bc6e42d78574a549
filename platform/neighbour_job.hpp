// Another job on the machine: a congesting neighbour. Its nodes lie outside this run's placement; its traffic is the
// network-bound part of a communication-heavy job (a bandwidth-bound exchange that never lets up), modelled as
// endless bulk transfers between its nodes (Simulator::stream) that share the network's links with this run's flows
// for as long as the run has work. Each transfer is routed by the run's route policy when the World declares its
// resources, with the NIC kind's bulk path (the neighbour's own NIC resources, then the links), so an adaptive policy
// sees the neighbour's load on the links and a minimal one does not care.
// Links are shared fairly per transfer in flight (max-min over flows), not per node: a run's share of a link the
// neighbour crosses grows with its own transfers in flight there (flows_per_pair sets the neighbour's side).
// LIMITATIONS: the neighbour's traffic is steady (no phases, no compute gaps) and its routes are fixed for the run; it
// uses port 0 of each of its nodes; it has no MPI software of its own (no CPU, no message rate limit).
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ompisim {

struct NeighbourJob {
  std::vector<long long> nodes;  // machine node ids, in order (none of them in the run's placement)
  std::string pattern = "pairs";  // one of neighbour_patterns()
  int shift = 1;                  // "shift": node i sends to node i + shift (mod the node count)
  int flows_per_pair = 1;         // concurrent transfers per ordered node pair (several ranks per node communicating)
  int net = -1;                   // network index (-1: the machine's only network)
  // The ordered (source, destination) node pairs the pattern makes, each with flows_per_pair transfers.
  std::vector<std::pair<long long, long long>> pairs() const;
};

// The traffic patterns a neighbour job may have, with what each means (for errors and `describe`).
struct NeighbourPattern {
  const char* name;
  const char* description;
  std::vector<std::pair<long long, long long>> (*pairs)(const NeighbourJob&);
  std::size_t (*count)(std::size_t nodes);  // how many pairs it makes on `nodes` nodes (checked before making them)
  bool even_nodes = false;  // pairs node i with node i + n/2
  bool has_shift = false;   // reads NeighbourJob::shift
};
const std::vector<NeighbourPattern>& neighbour_patterns();
const NeighbourPattern* find_neighbour_pattern(const std::string& name);  // null when unknown

}  // namespace ompisim
