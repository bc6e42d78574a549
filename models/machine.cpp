#include "models/machine.hpp"

#include <filesystem>
#include <fmt/format.h>

#ifndef OMPISIM_SOURCE_DIR
#define OMPISIM_SOURCE_DIR "."
#endif

namespace fs = std::filesystem;

namespace ompisim {

std::string data_dir() {
  if (const char* d = std::getenv("OMPISIM_DATA")) return d;
  return OMPISIM_SOURCE_DIR;
}

std::vector<std::pair<std::string, std::string>> list_machines() {
  std::vector<std::pair<std::string, std::string>> out;
  fs::path models = fs::path(data_dir()) / "models";
  if (!fs::exists(models)) return out;
  for (auto& fam : fs::directory_iterator(models)) {
    fs::path m = fam.path() / "machines";
    if (!fs::is_directory(m)) continue;
    for (auto& f : fs::directory_iterator(m))
      if (f.path().extension() == ".json") out.emplace_back(f.path().stem().string(), f.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string machine_file(const std::string& name) {
  if (name.find('/') != std::string::npos || name.ends_with(".json")) return name;
  std::vector<std::string> names;
  for (auto& [n, f] : list_machines()) {
    if (n == name) return f;
    names.push_back(n);
  }
  std::string hint = did_you_mean(name, names);
  throw InputError("", "machine", fmt::format("unknown machine '{}'{} (known: {})", name,
                                              hint.empty() ? "" : " (did you mean '" + hint + "'?)",
                                              fmt::join(names, ", ")));
}

static void deep_merge(Json& base, const Json& child) {
  for (auto it = child.begin(); it != child.end(); ++it) {
    if (base.contains(it.key()) && base[it.key()].is_object() && it.value().is_object() &&
        !it.value().contains("value"))
      deep_merge(base[it.key()], it.value());
    else
      base[it.key()] = it.value();
  }
}

static Json load_with_base(const std::string& file, int depth = 0) {
  Json j = load_json_file(file);
  if (!j.is_object()) throw InputError(file, "", "a machine file must be a JSON object");
  if (j.contains("base")) {
    if (depth > 4 || !j["base"].is_string()) throw InputError(file, "base", "expected a machine name (no cycles)");
    Json base = load_with_base(machine_file(j["base"].get<std::string>()), depth + 1);
    base.erase("description");
    deep_merge(base, j);
    base.erase("base");
    return base;
  }
  return j;
}

ParamList Machine::physical_params() {
  ParamList all;
  auto add = [&](ParamList l) { all.insert(all.end(), l.begin(), l.end()); };
  if (family == "gemini") {
    add(param_list(host, "host."));
    add(param_list(gemini, "nic."));
    add(param_list(software, "software."));
  } else if (family == "seastar") {
    add(param_list(host, "host."));
    add(param_list(seastar, "nic."));
    add(param_list(seastar_software, "software."));
  } else if (family == "loggp") {
    add(param_list(loggp, "loggp."));
  }
  return all;
}

void Machine::rebuild_topology() {
  if (!torus) return;
  std::array<double, 3> bw{};
  double hop = 0;
  if (family == "gemini") {
    double eff = gemini.packet_payload_efficiency;
    bw = {gemini.link_bandwidth_x * eff, gemini.link_bandwidth_y * eff, gemini.link_bandwidth_z * eff};
    hop = gemini.router_hop_latency;
  } else if (family == "seastar") {
    double l = seastar.link_bandwidth * seastar.packet_payload_efficiency;
    bw = {l, l, l};
    hop = seastar.router_hop_latency;
  }
  torus = std::make_unique<topology::Torus>(torus->dims(), torus->nodes_per_router(), bw, hop, torus->wrap());
}

double Machine::injection_bandwidth() const {
  if (family == "gemini") return gemini.nic_ht_capacity;
  if (family == "seastar") return seastar.ht_bandwidth;
  return loggp.G_bandwidth;
}

double Machine::nic_latency() const {
  if (family == "gemini") return gemini.nic_latency;
  if (family == "seastar") return seastar.nic_latency;
  return loggp.L;
}

std::unique_ptr<Machine> load_machine(const std::string& name_or_path) {
  std::string file = machine_file(name_or_path);
  Json j = load_with_base(file);
  auto m = std::make_unique<Machine>();
  m->file = file;
  ObjectReader r(j, file, "");
  m->name = r.str("machine");
  m->family = r.str("family");
  m->description = r.opt_str("description").value_or("");
  {
    m->topology_json = r.raw("topology");
    ObjectReader t = r.object("topology");
    std::string kind = t.str("kind");
    m->cores_per_node = static_cast<int>(t.integer("cores_per_node", 1, 4096));
    if (kind == "torus") {
      auto dims = t.int_list("dims", 1, 4096);
      if (dims.size() != 3) t.fail("dims", "a torus needs exactly 3 dimensions");
      int npr = static_cast<int>(t.integer("nodes_per_router", 1, 64));
      std::array<bool, 3> wrap{true, true, true};
      if (t.has("wrap")) {
        auto& w = t.raw("wrap");
        if (!w.is_array() || w.size() != 3) t.fail("wrap", "expected three booleans");
        for (int d = 0; d < 3; ++d) {
          if (!w[d].is_boolean()) t.fail("wrap", "expected three booleans, got " + w.dump());
          wrap[d] = w[d].get<bool>();
        }
      }
      long long slots = dims[0] * dims[1] * dims[2] * npr;
      m->nodes = t.integer("compute_nodes", 1, slots);
      m->torus = std::make_unique<topology::Torus>(
          topology::Torus::Coord{int(dims[0]), int(dims[1]), int(dims[2])}, npr, std::array<double, 3>{0, 0, 0}, 0,
          wrap);
    } else if (kind == "flat") {
      m->nodes = t.integer("compute_nodes", 1, 100000000);
    } else {
      t.fail("kind", "unknown topology kind '" + kind + "' (known: torus, flat)");
    }
    t.finish({"kind", "dims", "nodes_per_router", "wrap", "compute_nodes", "cores_per_node", "source", "note"});
    if (t.has("source")) (void)t.raw("source");
    if (t.has("note")) (void)t.raw("note");
  }
  std::vector<std::string> sections;
  auto section = [&](const char* key, ParamList list) {
    ObjectReader s = r.object(key);
    load_sourced(s, list, true);
    sections.push_back(key);
  };
  if (m->family == "gemini") {
    section("host", param_list(m->host));
    section("nic", param_list(m->gemini));
    section("software", param_list(m->software));
    m->rebuild_topology();
  } else if (m->family == "seastar") {
    section("host", param_list(m->host));
    section("nic", param_list(m->seastar));
    section("software", param_list(m->seastar_software));
    if (!m->torus) r.fail("topology", "a seastar machine needs a torus topology");
    m->rebuild_topology();
  } else if (m->family == "loggp") {
    section("loggp", param_list(m->loggp));
  } else {
    r.fail("family", "unknown NIC family '" + m->family + "' (known: gemini, seastar, loggp)");
  }
  if (r.has("mca_defaults")) {
    ObjectReader s = r.object("mca_defaults");
    auto list = param_list(m->mca);
    load_sourced(s, list, false);
  }
  r.finish({"machine", "family", "description", "topology", "host", "nic", "software", "loggp", "mca_defaults"});
  return m;
}

}  // namespace ompisim
