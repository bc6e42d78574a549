// The replay's result: one point per row (the totals, each collective, each algorithm used, each point-to-point size
// class, each rank), every row with the same columns (null where a row has no value). See replay_state.hpp.
#include "benchmarks/replay/replay_state.hpp"
#include "benchmarks/replay/replay_tables.hpp"

#include <string>

namespace ompisim::bench::replay {

Json replay_points(const Run& x, double total) {
  const int n = x.n;

  auto row = [](const std::string& kind, const std::string& name) {
    return Json{{"row", kind}, {"name", name}, {"rank", nullptr}, {"calls", nullptr}, {"bytes", nullptr},
                {"time_s", nullptr}, {"compute_s", nullptr}, {"mpi_s", nullptr}, {"mpi_pct", nullptr},
                {"sends", nullptr}, {"send_bytes", nullptr}, {"recvs", nullptr}, {"recv_bytes", nullptr}};
  };
  Json pts = Json::array();
  double comp_sum = 0, mpi_sum = 0, pct_sum = 0;
  std::uint64_t actions = 0, sends = 0, sbytes = 0, recvs = 0, rbytes = 0;
  Json per_rank = Json::array();
  for (int r = 0; r < n; ++r) {
    const RankState& rs = x.ranks[static_cast<std::size_t>(r)];
    double mpi = rs.end - rs.compute;
    double pct = rs.end > 0 ? 100.0 * mpi / rs.end : 0.0;
    comp_sum += rs.compute, mpi_sum += mpi, pct_sum += pct;
    actions += rs.actions, sends += rs.sends, sbytes += rs.send_bytes, recvs += rs.recvs, rbytes += rs.recv_bytes;
    Json p = row("rank", std::to_string(r));
    p["rank"] = r;
    p["calls"] = rs.actions;
    p["time_s"] = rs.end;
    p["compute_s"] = rs.compute;
    p["mpi_s"] = mpi;
    p["mpi_pct"] = pct;
    p["sends"] = rs.sends, p["send_bytes"] = rs.send_bytes, p["recvs"] = rs.recvs, p["recv_bytes"] = rs.recv_bytes;
    per_rank.push_back(std::move(p));
  }
  Json t = row("total", "replay");
  t["calls"] = actions;
  t["time_s"] = total;
  t["compute_s"] = comp_sum / n;
  t["mpi_s"] = mpi_sum / n;
  t["mpi_pct"] = pct_sum / n;
  t["sends"] = sends, t["send_bytes"] = sbytes, t["recvs"] = recvs, t["recv_bytes"] = rbytes;
  t["bytes"] = sbytes;
  pts.push_back(t);
  for (auto& [name, st] : x.colls) {
    Json p = row("collective", name);
    p["calls"] = st.calls;
    p["bytes"] = st.bytes;
    p["time_s"] = st.calls ? st.time / static_cast<double>(st.calls) : 0.0;
    pts.push_back(std::move(p));
  }
  for (auto& [name, calls] : x.used) {
    Json p = row("algorithm", name);
    p["calls"] = calls;
    pts.push_back(std::move(p));
  }
  if (x.fallbacks) {
    Json p = row("algorithm", "fallback (decision named an algorithm not implemented here)");
    p["calls"] = x.fallbacks;
    pts.push_back(std::move(p));
  }
  for (auto& [k, v] : x.sizes) {
    Json p = row("size", size_class(k));
    p["sends"] = v.first;
    p["send_bytes"] = v.second;
    pts.push_back(std::move(p));
  }
  for (auto& p : per_rank) pts.push_back(std::move(p));
  return pts;
}

}  // namespace ompisim::bench::replay
