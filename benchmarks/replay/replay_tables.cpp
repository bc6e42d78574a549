#include "benchmarks/replay/replay_tables.hpp"

#include "core/units.hpp"

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
  if (k == 0) return "1 B";
  // Above 64 KiB the lower bound is written from the class below's upper one ("2 GiB + 1 B", not "2147483649 B").
  const auto hi = static_cast<double>(1ull << k), half = hi / 2;
  const std::string lo = half >= 65536 ? byte_label(half) + " + 1 B" : byte_label(half + 1);
  return fmt::format("{} .. {}", lo, byte_label(hi));
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
