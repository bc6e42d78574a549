// pingpong_layers: osu_latency, one size at a time, with the cost of each layer of the stack beside the latency
// (qsnet-elan4 paper §6.3, Fig. 9). A stack that accounts for the time its PML and the layers above it hold a
// message (counters layer_pml_ns and layer_pml_count: from a fragment handed up for matching to the next one handed
// down) gets "pml_us" (that time per message) and "ptl_us" = latency - pml_us (the transport's share, network
// included); a stack without such counters reports pml_us 0 (all of its latency is below the MPI layer).
#include "benchmarks/benchmarks.hpp"
#include "benchmarks/osu_block.hpp"
#include "protocols/pml/teg/pml_teg.hpp"

#include <fmt/format.h>

namespace ompisim::bench {

Json run_pingpong_layers(World& w, Stack& s, const OsuConfig& c) {
  Json points = Json::array();
  // pml/teg's declared layer counters (0 for a stack that does not report them).
  auto counter = [](const StackStats& st, pml::teg::TegStat id) {
    return static_cast<double>(st.value(statistic(pml::teg::kTegStatistics, id)));
  };
  using pml::teg::TegStat;
  for (std::uint64_t size : c.sizes) {
    OsuConfig one = c;
    one.name = "osu_latency";
    one.sizes = {size};
    StackStats before = s.stats();
    Json p = run_osu(w, s, one).at(0);
    StackStats after = s.stats();
    double n = counter(after, TegStat::LayerPmlCount) - counter(before, TegStat::LayerPmlCount);
    double pml = n > 0 ? (counter(after, TegStat::LayerPmlNs) - counter(before, TegStat::LayerPmlNs)) / n / 1000.0 : 0.0;
    double lat = p.at("latency_us").get<double>();
    points.push_back({{"bytes", size}, {"latency_us", lat}, {"pml_us", pml}, {"ptl_us", lat - pml}});
  }
  return points;
}

namespace {
class LayersDriver final : public ConfiguredDriver<LayersDriver, OsuConfig> {
public:
  using ConfiguredDriver::ConfiguredDriver;
  Json run(World& w, Stack& s, const std::string&) const override { return run_pingpong_layers(w, s, c_); }
  void check(const DriverContext& ctx) const override { check_pair_ranks(ctx, "pingpong_layers", true); }
  std::string label() const override { return "pingpong_layers"; }
  std::string alloc_mem_key() const override { return c_.alloc_mem ? "benchmark.alloc" : ""; }
  bool narrow_for_calibration(const Json& sel) override { return narrow_osu(c_, sel); }
  std::optional<MessageBound> largest_message() const override { return osu_largest_message(c_); }
};
}  // namespace

void register_layers_driver(DriverRegistry& reg) {
  DriverInfo d;
  d.name = "pingpong_layers";
  d.family = "layer costs";
  d.description = "osu_latency per size with the time the PML and above hold each message (pml_us) and the rest "
                  "(ptl_us): qsnet-elan4 Fig. 9";
  d.params = {{"sizes", "list of sizes (bytes or \"8 KiB\")", "0, then powers of two 1 B .. 4 MiB", "message sizes"}};
  for (const DriverParam& p : osu_params(osu_kind("osu_latency"), false))  // the loop counts osu_latency reads with
    if (p.name == "iterations" || p.name == "skip") d.params.push_back(p);
  d.parse = [](ObjectReader& b, const DriverContext&) -> std::unique_ptr<Driver> {
    OsuConfig c = read_osu_block(b, osu_kind("osu_latency"), osu_params(osu_kind("osu_latency"), false));
    c.name = "osu_latency";
    return std::make_unique<LayersDriver>(std::move(c));
  };
  d.table = [](const Json& res) {
    std::string out = fmt::format("{:<10}{:>18}{:>18}{:>18}\n", "# Size", "Latency (us)", "PML+above (us)", "PTL (us)");
    for (auto& p : res["points"])
      out += fmt::format("{:<10}{:>18.2f}{:>18.2f}{:>18.2f}\n", p["bytes"].get<std::uint64_t>(),
                         p["latency_us"].get<double>(), p["pml_us"].get<double>(), p["ptl_us"].get<double>());
    return out;
  };
  reg.add(std::move(d));
}

}  // namespace ompisim::bench
