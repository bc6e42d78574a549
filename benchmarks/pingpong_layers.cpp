// pingpong_layers: osu_latency, one size at a time, with the cost of each layer of the stack beside the latency
// (qsnet-elan4 paper §6.3, Fig. 9). A stack that accounts for the time its PML and the layers above it hold a
// message (counters layer_pml_ns and layer_pml_count: from a fragment handed up for matching to the next one handed
// down) gets "pml_us" (that time per message) and "ptl_us" = latency - pml_us (the transport's share, network
// included); a stack without such counters reports pml_us 0 (all of its latency is below the MPI layer).
#include "benchmarks/benchmarks.hpp"

namespace ompisim::bench {

Json run_pingpong_layers(World& w, Stack& s, const OsuConfig& c) {
  if (w.ranks() != 2) throw InputError("", "ranks", "pingpong_layers runs on exactly 2 ranks");
  Json points = Json::array();
  auto counter = [](const StackStats& st, const char* k) {
    auto it = st.counters.find(k);
    return it == st.counters.end() ? 0.0 : static_cast<double>(it->second);
  };
  for (std::uint64_t size : c.sizes) {
    OsuConfig one = c;
    one.name = "osu_latency";
    one.sizes = {size};
    StackStats before = s.stats();
    Json p = run_osu(w, s, one).at(0);
    StackStats after = s.stats();
    double n = counter(after, "layer_pml_count") - counter(before, "layer_pml_count");
    double pml = n > 0 ? (counter(after, "layer_pml_ns") - counter(before, "layer_pml_ns")) / n / 1000.0 : 0.0;
    double lat = p.at("latency_us").get<double>();
    points.push_back({{"bytes", size}, {"latency_us", lat}, {"pml_us", pml}, {"ptl_us", lat - pml}});
  }
  return points;
}

}  // namespace ompisim::bench
