// A machine file's JSON before the loader reads its keys: the base machine merged under it ("base") and every
// transferred parameter resolved ("transferred_from"). See machine_json.hpp.
#include "platform/machine_json.hpp"

#include "core/json_input.hpp"
#include "core/safe_name.hpp"
#include "platform/machine.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace ompisim {

namespace {

// JSON merge patch (RFC 7386) of the child over its base: the child's keys win, objects merge key by key except
// parameter entries ({"value": ...} or {"transferred_from": ...}), which are replaced whole, and a null removes the
// base's key (e.g. the inter-socket links of a base node type with two packages, from a child whose node has one).
// An object whose source the base gives (a topology) and whose keys the child changes without a source of its own
// says so in its source: the keys the child set, its file, then the base's source (which no longer covers them).
void deep_merge(Json& base, const Json& child, const std::string& child_file) {
  for (auto it = child.begin(); it != child.end(); ++it) {
    const Json& v = it.value();
    if (v.is_null()) {
      base.erase(it.key());
    } else if (base.contains(it.key()) && base[it.key()].is_object() && v.is_object() && !v.contains("value") &&
               !v.contains("transferred_from")) {
      Json& b = base[it.key()];
      const bool sourced = b.contains("source") && b["source"].is_string() && !v.contains("source");
      deep_merge(b, v, child_file);
      std::vector<std::string> set;
      for (auto c = v.begin(); c != v.end(); ++c)
        if (c.key() != "note" && (c.value().is_primitive() || c.value().is_array())) set.push_back(c.key());
      if (sourced && !set.empty())
        b["source"] = fmt::format("{} set by {} (no source given); the base's source: {}", fmt::join(set, ", "),
                                  child_file, b["source"].get<std::string>());
    } else {
      base[it.key()] = v;
    }
  }
}

// An error in a file reached from `file`'s `key` (a base, a transfer's source): that file's own error, then the chain.
[[noreturn]] void rethrow_reached(const InputError& e, const std::string& file, const std::string& key) {
  throw InputError(e.file(), e.key(), fmt::format("{} (reached through {}: key '{}')", e.reason(), file, key));
}

// A network the file adds to its base's must be whole (its "nic" and "topology"): one that gives part of them is a
// misspelt name of the base's (InputError naming it, the base's networks and the closest).
void refuse_partial_new_networks(const Json& base, const Json& j, const std::string& file, const std::string& base_name) {
  if (!j.contains("networks") || !j["networks"].is_object() || !base.contains("networks") ||
      !base["networks"].is_object())
    return;
  std::vector<std::string> known;
  for (const auto& [name, v] : base["networks"].items()) known.push_back(name);
  for (const auto& [name, net] : j["networks"].items()) {
    if (base["networks"].contains(name) || (net.is_object() && net.contains("nic") && net.contains("topology") &&
                                            net["nic"].is_object() && net["nic"].contains("kind")))
      continue;
    const std::string hint = did_you_mean(name, known);
    throw InputError(file, "networks." + name,
                     fmt::format("the base '{}' has no network '{}' ({}its networks: {}): a network of one's own "
                                 "needs its whole \"nic\" (with its \"kind\") and \"topology\"",
                                 base_name, name, hint.empty() ? "" : fmt::format("did you mean '{}'? ", hint),
                                 fmt::join(known, ", ")));
  }
}

Json load_with_base(const std::string& file, int depth = 0) {
  Json j = load_json_file(file);
  if (!j.is_object()) throw InputError(file, "", "a machine file must be a JSON object");
  if (j.contains("base")) {
    if (depth > 4 || !j["base"].is_string()) throw InputError(file, "base", "expected a machine name (no cycles)");
    // A base is a machine name from the machine directory, never a path (a machine file may come from anywhere).
    std::string base_name = j["base"].get<std::string>();
    if (base_name.ends_with(".json") || base_name.find('/') != std::string::npos)
      throw InputError(file, "base", fmt::format("'{}': a base is an installed machine's name (`ompisim list "
                                                 "machines`), not a file; to start from a file of one's own, copy it",
                                                 base_name));
    check_safe_name(base_name, file, "base");
    std::string base_file;
    try {
      base_file = machine_file(base_name);
    } catch (const InputError& e) {  // an unknown base is this file's mistake, not the scenario's
      throw InputError(file, "base", e.reason());
    }
    std::error_code ec;
    if (fs::equivalent(base_file, file, ec))
      throw InputError(file, "base", fmt::format("'{}' is this machine itself (a base cannot be its own)", base_name));
    Json base;
    try {
      base = load_with_base(base_file, depth + 1);
    } catch (const InputError& e) {
      rethrow_reached(e, file, "base");
    }
    base.erase("description");
    refuse_partial_new_networks(base, j, file, base_name);
    deep_merge(base, j, file);
    base.erase("base");
    return base;
  }
  return j;
}

// ---- Transferred parameters ----
// A parameter entry may take its value from a parameter of another machine instead of holding a copy that goes stale
// when that machine is refitted:
//   "pml_ob1_overhead": {"transferred_from": {"machine": "cielo", "key": "software.pml_ob1_overhead",
//                                             "scale": "2.4/2.6", "scale_source": "clock ratio"},
//                        "source": "why the value carries over", "status": "transferred"}
// The loader copies the source entry's value (times `scale`, default 1) and its range, if any, into the entry and
// writes where it came from into its source. `key` is the key path in the source machine's file, or its short form
// ("software.<p>", "nic.<p>" on a machine with one network, "node.<p>" with one node type, "os.<p>"). Transfers may
// chain (up to kMaxTransferDepth machines) but not loop. The entry keeps no "value" or "fit" of its own.

constexpr std::size_t kMaxTransferDepth = 8;

// One machine load's transfer state: the chain of machines being resolved (for cycles and depth) and every source
// machine already loaded and resolved in this load, so a file that transfers N parameters from one machine reads
// and resolves it once. A resolved source holds no transfer left, so reusing it cannot hide a cycle.
// A cached source remembers how many machines its own transfers chain through below it, so a longer path to it is
// still refused by the depth bound.
struct TransferContext {
  struct Resolved {
    Json machine;
    std::size_t height = 0;
  };
  std::vector<std::string> chain;
  std::size_t deepest = 0;  // the longest chain seen so far in this load
  std::map<std::string, Resolved> resolved;
};

void resolve_transfers(Json& node, const std::string& file, const std::string& path, TransferContext& ctx);

// A positive number, or a string "a" or "a/b" of positive numbers.
double parse_scale(const Json& v, const std::string& file, const std::string& key) {
  auto bad = [&]() -> double {
    throw InputError(file, key, "expected a positive number or a ratio \"a/b\" of positive numbers");
  };
  if (v.is_number()) {
    double x = v.get<double>();
    return x > 0 && std::isfinite(x) ? x : bad();
  }
  if (!v.is_string()) return bad();
  const std::string t = v.get<std::string>();
  auto num = [&](const std::string& part) {
    std::size_t used = 0;
    double x = 0;
    try {
      x = std::stod(part, &used);
    } catch (...) {
      bad();
    }
    if (used != part.size() || !(x > 0) || !std::isfinite(x)) bad();
    return x;
  };
  auto slash = t.find('/');
  if (slash == std::string::npos) return num(t);
  return num(t.substr(0, slash)) / num(t.substr(slash + 1));
}

// A value ("0.21 us", 0.9, "64 B") times `scale`: the number scaled, the unit kept.
Json scaled(const Json& v, double scale, const std::string& file, const std::string& key) {
  if (scale == 1) return v;
  if (v.is_number()) return v.get<double>() * scale;
  if (v.is_string()) {
    const std::string t = v.get<std::string>();
    char* end = nullptr;
    double x = std::strtod(t.c_str(), &end);
    if (end != t.c_str()) return fmt::format("{:.9g}{}", x * scale, std::string(end));
  }
  throw InputError(file, key, "the source value " + v.dump() + " is not a number or a quantity that can be scaled");
}

// The entry at `key` in a machine's JSON, also by its short name; nullptr when there is none.
const Json* find_entry(const Json& m, const std::string& key) {
  auto walk = [&m](const std::string& k) -> const Json* {
    const Json* e = &m;
    std::size_t from = 0;
    while (true) {
      std::size_t dot = k.find('.', from);
      std::string part = k.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
      if (!e->is_object() || !e->contains(part)) return nullptr;
      e = &(*e)[part];
      if (dot == std::string::npos) return e;
      from = dot + 1;
    }
  };
  if (const Json* e = walk(key)) return e;
  auto only_key = [&m](const char* section) -> std::string {
    if (!m.contains(section) || !m[section].is_object() || m[section].size() != 1) return {};
    return m[section].begin().key();
  };
  if (key.starts_with("software.") || key.starts_with("nic.")) {
    if (std::string net = only_key("networks"); !net.empty()) return walk("networks." + net + "." + key);
  } else if (key.starts_with("node.")) {
    if (std::string t = only_key("node_types"); !t.empty()) return walk("node_types." + t + "." + key.substr(5));
  }
  return nullptr;
}

void resolve_one(Json& entry, const std::string& file, const std::string& path, TransferContext& ctx) {
  std::vector<std::string>& chain = ctx.chain;
  const std::string tkey = path + ".transferred_from";
  const Json tf = entry["transferred_from"];  // a copy: entry gains keys below
  if (!tf.is_object())
    throw InputError(file, tkey, "expected {\"machine\", \"key\"} and optionally \"scale\" with its \"scale_source\"");
  ObjectReader r(tf, file, tkey);
  const std::string machine = r.str("machine"), key = r.str("key");
  double scale = 1;
  std::string scale_text, scale_source;
  if (r.has("scale")) {
    scale = parse_scale(r.raw("scale"), file, r.key_path("scale"));
    scale_text = tf["scale"].is_string() ? tf["scale"].get<std::string>() : fmt::format("{:g}", scale);
    scale_source = r.opt_str("scale_source").value_or("");
    if (scale_source.empty()) r.fail("scale_source", "a scale needs its reason (e.g. \"clock ratio 2.4/2.6 GHz\")");
  }
  r.finish({"scale_source"});
  for (const char* own : {"value", "fit"})
    if (entry.contains(own))
      throw InputError(file, path + "." + own,
                       fmt::format("a transferred parameter takes its value from {} '{}': remove this '{}' (a copy "
                                   "goes stale when the source changes)", machine, key, own));
  check_safe_name(machine, file, tkey + ".machine");
  if (std::find(chain.begin(), chain.end(), machine) != chain.end())
    throw InputError(file, tkey + ".machine",
                     fmt::format("transfer cycle: {} -> {}", fmt::join(chain, " -> "), machine));
  if (chain.size() >= kMaxTransferDepth)
    throw InputError(file, tkey + ".machine",
                     fmt::format("transfers chained through more than {} machines ({})", kMaxTransferDepth,
                                 fmt::join(chain, " -> ")));
  std::string src_path;
  try {
    src_path = machine_file(machine);
  } catch (const InputError& e) {
    throw InputError(file, tkey + ".machine", e.reason());
  }
  const std::string src_file = repo_relative(src_path);
  auto cached = ctx.resolved.find(src_path);
  if (cached == ctx.resolved.end()) {
    chain.push_back(machine);
    const std::size_t start = chain.size(), deepest_before = ctx.deepest;
    ctx.deepest = start;
    Json src;
    try {
      src = load_with_base(src_path);
      resolve_transfers(src, src_file, "", ctx);
    } catch (const InputError& e) {
      if (e.reason().find("transfer cycle") != std::string::npos || e.reason().find("chained through") != std::string::npos)
        throw;  // already names the whole chain
      rethrow_reached(e, file, tkey + ".machine");
    }
    const std::size_t height = ctx.deepest - start;
    ctx.deepest = std::max(deepest_before, ctx.deepest);
    chain.pop_back();
    cached = ctx.resolved.emplace(src_path, TransferContext::Resolved{std::move(src), height}).first;
  } else if (chain.size() + 1 + cached->second.height > kMaxTransferDepth) {
    throw InputError(file, tkey + ".machine",
                     fmt::format("transfers chained through more than {} machines ({} -> {} and {} more)",
                                 kMaxTransferDepth, fmt::join(chain, " -> "), machine, cached->second.height));
  }
  const Json& src = cached->second.machine;
  const Json* e = find_entry(src, key);
  if (!e || !e->is_object() || !e->contains("value"))
    throw InputError(file, tkey + ".key",
                     fmt::format("machine '{}' ({}) has no parameter '{}'", machine, src_file, key));
  const Json& v = (*e)["value"];
  entry["value"] = scaled(v, scale, file, tkey + ".scale");
  if (e->contains("range") && !entry.contains("range")) {
    const Json& rg = (*e)["range"];
    if (rg.is_array() && rg.size() == 2) {
      entry["range"] = Json::array({scaled(rg[0], scale, file, tkey + ".scale"), scaled(rg[1], scale, file, tkey + ".scale")});
      entry["range_source"] = fmt::format("{}'s range: {}", machine, e->value("range_source", std::string("(none given)")));
    }
  }
  std::string origin = fmt::format("value from {} {} = {}{}", machine, key, v.is_string() ? v.get<std::string>() : v.dump(),
                                   scale == 1 ? std::string() : fmt::format(" x {} ({})", scale_text, scale_source));
  if (e->contains("fit") && (*e)["fit"].is_string()) origin += ", fitted there: " + (*e)["fit"].get<std::string>();
  else if (e->contains("source") && (*e)["source"].is_string()) origin += " (there: " + (*e)["source"].get<std::string>() + ")";
  if (entry.contains("source") && entry["source"].is_string())
    entry["source"] = entry["source"].get<std::string>() + "; " + origin;
  else entry["source"] = origin;
  entry.erase("transferred_from");
}

void resolve_transfers(Json& node, const std::string& file, const std::string& path, TransferContext& ctx) {
  if (!node.is_object()) return;
  if (node.contains("transferred_from")) {
    resolve_one(node, file, path, ctx);
    return;
  }
  for (auto it = node.begin(); it != node.end(); ++it)
    resolve_transfers(it.value(), file, path.empty() ? it.key() : path + "." + it.key(), ctx);
}

}  // namespace

Json load_machine_json(const std::string& path, const std::string& file) {
  Json j = load_with_base(path);
  TransferContext ctx;
  ctx.chain.push_back(j.contains("machine") && j["machine"].is_string() ? j["machine"].get<std::string>()
                                                                       : fs::path(path).stem().string());
  resolve_transfers(j, file, "", ctx);
  return j;
}

}  // namespace ompisim
