// Input limits: every bound the loaders enforce, in one place, each with the reason it exists. An input beyond one is
// bad input (exit status 2) and the message states the limit.
#pragma once
#include <cstddef>

namespace ompisim::limits {

// Largest input file read (scenario, machine, reference, app file), checked before reading. The largest committed
// file is a few KiB; --max-input-size overrides it for one run.
inline constexpr std::size_t kDefaultMaxInputBytes = 4u << 20;  // 4 MiB
// Deepest nesting of JSON objects and arrays. Committed files nest 4 levels; the limit keeps parsing and every
// recursive walk of the document (dump, merge) bounded.
inline constexpr int kMaxJsonDepth = 64;
// Longest name that becomes part of a path (scenario id, output stem, figure, machine name).
inline constexpr std::size_t kMaxNameLength = 128;
// Longest file name written into an output folder: a name of kMaxNameLength and the suffix the tool adds to it
// ("<id>.json", "sweep_<axis>.svg"); below NAME_MAX (255) of every Linux file system.
inline constexpr std::size_t kMaxFileNameLength = kMaxNameLength + 64;
// Message sizes in one scenario (the default OSU list has 23, NetPIPE's 70): each size is a full benchmark loop.
inline constexpr std::size_t kMaxSizes = 256;
// Rank counts in one sweep and radices in one radix sweep: each entry (x each radix) is one simulation process.
inline constexpr std::size_t kMaxRankList = 64;
inline constexpr std::size_t kMaxRadixList = 32;
// Latin-hypercube samples per paper (validate --samples): each sample reruns the paper's scenarios (1 to 4 min per
// paper on this 2-core machine), so 1000 is days of CPU; the bound keeps the sample table (samples x dimensions)
// from exhausting memory before the first run.
inline constexpr int kMaxIntervalSamples = 1000;
// A machine file's node type: NUMA nodes per node (packages x numa_per_package) and cores per node. A node's memory
// resources are keyed by a 16-bit index and the links between its NUMA nodes (and packages) are one per ordered
// pair, so 256 NUMA nodes (65,536 pairs) is the most that index holds; the largest single-image nodes built (SGI UV
// 3000: 256 sockets, 4,096 cores) fit both bounds.
inline constexpr long long kMaxNumaPerNode = 256;
inline constexpr long long kMaxCoresPerNode = 1 << 20;
// A machine file's network shape, bounded by the memory its model takes (measured: peak RSS of a two-rank
// osu_latency on a machine file of that shape): a torus about 1.9 KB per router (96 x 96 x 96 = 884,736 routers:
// 1.6 GB), a fat tree about 2.1 KB per node slot (a 4-ary 10-tree, 1,048,576 slots: 2.2 GB), a dragonfly about
// 0.4 KB per link (128 groups of 64 routers, 4 nodes and 2 global links each: 0.26 GB). Each bound keeps a network's
// model under about 4 GB of this machine's 24 GiB, far above the machines modelled (Titan's torus: 9,600 routers;
// Frontier's dragonfly: about 106,000 links).
inline constexpr long long kMaxTorusRouters = 1LL << 21;
inline constexpr long long kMaxFatTreeSlots = 1LL << 21;
inline constexpr long long kMaxDragonflyLinks = 1LL << 23;
// GPUs and NICs of a node type: the links between its GPUs are kept per ordered pair of GPUs; the largest nodes built
// carry 8 to 16 GPUs and up to 8 NICs.
inline constexpr long long kMaxGpusPerNode = 64;
inline constexpr long long kMaxNicsPerNode = 64;
// A neighbour job (scenario "neighbour_job"): its nodes, and its endless transfers (each one SimGrid comm for the whole
// run, and SimGrid 3.32 scans its in-flight comms on every completion).
inline constexpr std::size_t kMaxNeighbourNodes = 65536;
inline constexpr std::size_t kMaxNeighbourStreams = 65536;

// The limit in force for input files (kDefaultMaxInputBytes unless --max-input-size changed it).
std::size_t max_input_bytes();
void set_max_input_bytes(std::size_t n);

}  // namespace ompisim::limits
