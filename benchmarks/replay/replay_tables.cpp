#include "benchmarks/replay/replay_tables.hpp"

#include <fmt/format.h>

namespace ompisim::bench::replay {

// The algorithm of a collective when neither the scenario nor the decision library chooses one.
const std::map<std::string, std::string>& fallback() {
  static const std::map<std::string, std::string> m{
      {"barrier", "recursive_doubling"}, {"bcast", "binomial"},     {"reduce", "basic_log"},
      {"allreduce", "recursive_doubling"}, {"alltoall", "pairwise"}, {"gather", "basic_linear"},
      {"allgather", "ring"},             {"scatter", "basic_linear"}};
  return m;
}
const std::vector<std::string>& registry_colls() {
  static const std::vector<std::string> c{"barrier", "bcast", "reduce", "allreduce", "alltoall", "gather", "allgather",
                                          "scatter"};
  return c;
}

std::string size_class(int k) {
  if (k < 0) return "0 B";
  std::uint64_t hi = 1ull << k;
  auto fmtb = [](std::uint64_t b) {
    if (b >= (1ull << 40) && b % (1ull << 40) == 0) return fmt::format("{} TiB", b >> 40);
    if (b >= (1ull << 30) && b % (1ull << 30) == 0) return fmt::format("{} GiB", b >> 30);
    if (b >= (1ull << 20) && b % (1ull << 20) == 0) return fmt::format("{} MiB", b >> 20);
    if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KiB", b >> 10);
    return fmt::format("{} B", b);
  };
  // Above 64 KiB the lower bound is written from the class below's upper one ("2 GiB + 1 B", not "2147483649 B").
  const std::uint64_t half = hi >> 1;
  const std::string lo = half >= 65536 ? fmtb(half) + " + 1 B" : fmtb(half + 1);
  return k == 0 ? "1 B" : fmt::format("{} .. {}", lo, fmtb(hi));
}

std::string replay_table(const Json& res) {
  std::string out;
  for (auto& p : res["points"]) {
    std::string row = p["row"].get<std::string>();
    if (row == "total")
      out += fmt::format("# replay: {:.9f} s (last rank's end); mean compute {:.9f} s, mean MPI {:.9f} s ({:.1f} %); "
                         "{} actions, {} p2p sends ({} B)\n",
                         p["time_s"].get<double>(), p["compute_s"].get<double>(), p["mpi_s"].get<double>(),
                         p["mpi_pct"].get<double>(), p["calls"].get<std::uint64_t>(), p["sends"].get<std::uint64_t>(),
                         p["send_bytes"].get<std::uint64_t>());
    else if (row == "collective")
      out += fmt::format("{:<16}{:>10} calls {:>14.3f} us/call {:>14} B\n", p["name"].get<std::string>(),
                         p["calls"].get<std::uint64_t>(), p["time_s"].get<double>() * 1e6, p["bytes"].get<std::uint64_t>());
    else if (row == "algorithm")
      out += fmt::format("  algorithm {:<40}{:>10} calls (rank 0)\n", p["name"].get<std::string>(),
                         p["calls"].get<std::uint64_t>());
    else if (row == "size")
      out += fmt::format("  p2p {:<24}{:>10} sends {:>14} B\n", p["name"].get<std::string>(),
                         p["sends"].get<std::uint64_t>(), p["send_bytes"].get<std::uint64_t>());
  }
  return out;
}

}  // namespace ompisim::bench::replay
