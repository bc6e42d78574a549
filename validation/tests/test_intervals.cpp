// Prediction intervals from the estimates' ranges.
#include "core/atomic_write.hpp"
#include "core/json_input.hpp"
#include "runner/registries.hpp"
#include "validation/validate.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

using namespace ompisim;

namespace {
// A copy of Cielo's machine file in which only bte_post_latency keeps a range, [lo, hi].
std::string cielo_with_one_range(const std::string& lo, const std::string& hi, const std::string& path) {
  Json m = load_json_file(data_dir() + "/models/gemini/machines/cielo.json");
  std::function<void(Json&)> strip = [&](Json& j) {
    if (!j.is_object()) return;
    if (j.contains("range")) j.erase("range"), j.erase("range_source");
    for (auto& [k, v] : j.items()) strip(v);
  };
  strip(m);
  Json& b = m["networks"]["gemini"]["nic"]["bte_post_latency"];
  b["range"] = {lo, hi};
  b["range_source"] = "test";
  write_file_atomic(path, m.dump(2));
  return path;
}

std::pair<double, Json> interval_of(const std::string& machine_file) {
  validation::set_machine_file(machine_file);
  // One prediction: the 16 KiB inter-node latency, an RGET whose GET runs on the BTE (bte_post_latency is on its path).
  Json doc{{"points", Json::array({{{"id", "t.16KiB"}, {"role", "prediction"}, {"value", 8.0},
                                    {"scenario", "scenarios/gemini/fig5_latency_2p_inter_openmpi.json"},
                                    {"select", {{"bytes", 16384}}}, {"metric", "latency_us"}}})}};
  Json v = validation::validate_reference(doc, "test-intervals");
  validation::set_machine_file("");
  const Json& p = v["points"][0];
  return {p["simulated"].get<double>(), p["interval"]};
}
}  // namespace

// Configuration: Cielo with a single estimate ranged (bte_post_latency, 1.5 us): first [1.4, 1.6] us, then
// [0.5, 3] us; one prediction point (osu_latency 16 KiB inter-node, openmpi), 8 Latin-hypercube samples.
// Expected: the interval contains the point prediction, has a width with the narrow range, and is wider with the
// wide range (the same samples of the unit interval, mapped onto a wider range). How validated: the bounds.
TEST_CASE("validate: the interval contains the prediction and widens with an estimate's range", "[validation]") {
  auto dir = std::filesystem::temp_directory_path() / "ompisim-test-intervals";
  std::filesystem::create_directories(dir);
  validation::set_interval_samples(8);
  auto [v1, narrow] = interval_of(cielo_with_one_range("1.4 us", "1.6 us", (dir / "narrow.json").string()));
  auto [v2, wide] = interval_of(cielo_with_one_range("0.5 us", "3 us", (dir / "wide.json").string()));
  validation::set_interval_samples(validation::kDefaultIntervalSamples);
  std::filesystem::remove_all(dir);
  CHECK(v1 == Approx(v2));
  for (auto& [v, iv] : {std::pair{v1, narrow}, std::pair{v2, wide}}) {
    CHECK(iv[0].get<double>() <= v);
    CHECK(v <= iv[1].get<double>());
  }
  const double w_narrow = narrow[1].get<double>() - narrow[0].get<double>();
  const double w_wide = wide[1].get<double>() - wide[0].get<double>();
  CHECK(w_narrow > 0);
  CHECK(w_wide > 2 * w_narrow);
}
