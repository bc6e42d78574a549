#include "core/json_input.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace ompisim {

Json load_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, "", "cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    return Json::parse(ss.str());
  } catch (const Json::parse_error& e) {
    throw InputError(path, "", std::string("not valid JSON: ") + e.what());
  }
}

static size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string did_you_mean(const std::string& key, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::max<size_t>(3, key.size() / 3) + 1;
  for (auto& c : candidates) {
    size_t d = edit_distance(key, c);
    if (d < best_d) best_d = d, best = c;
  }
  return best;
}

ObjectReader::ObjectReader(const Json& obj, std::string file, std::string path)
    : obj_(obj), file_(std::move(file)), path_(std::move(path)) {
  if (!obj_.is_object()) throw InputError(file_, path_, "expected a JSON object, got " + std::string(obj_.type_name()));
}

void ObjectReader::fail(const std::string& key, const std::string& reason) const {
  throw InputError(file_, key_path(key), reason);
}

const Json& ObjectReader::need(const std::string& key) {
  if (!obj_.contains(key)) fail(key, "required key is missing");
  read_.insert(key);
  return obj_.at(key);
}

const Json& ObjectReader::raw(const std::string& key) { return need(key); }

std::string ObjectReader::str(const std::string& key) {
  auto& v = need(key);
  if (!v.is_string()) fail(key, fmt::format("expected a string, got {} ({})", v.type_name(), v.dump()));
  return v.get<std::string>();
}
std::optional<std::string> ObjectReader::opt_str(const std::string& key) {
  if (!has(key)) return std::nullopt;
  return str(key);
}

long long ObjectReader::integer(const std::string& key, long long min, long long max) {
  auto& v = need(key);
  if (!v.is_number_integer()) fail(key, fmt::format("expected an integer, got {} ({})", v.type_name(), v.dump()));
  long long x = v.get<long long>();
  if (x < min || x > max) fail(key, fmt::format("value {} is out of range [{}, {}]", x, min, max));
  return x;
}
std::optional<long long> ObjectReader::opt_integer(const std::string& key, long long min, long long max) {
  if (!has(key)) return std::nullopt;
  return integer(key, min, max);
}

double ObjectReader::number(const std::string& key, double min, double max) {
  auto& v = need(key);
  if (!v.is_number()) fail(key, fmt::format("expected a number, got {} ({})", v.type_name(), v.dump()));
  double x = v.get<double>();
  if (x < min || x > max) fail(key, fmt::format("value {} is out of range [{}, {}]", x, min, max));
  return x;
}

double json_quantity(const Json& v, Dim d, const std::string& file, const std::string& key) {
  if (d == Dim::Bytes && v.is_number_integer()) return static_cast<double>(v.get<long long>());
  if (d == Dim::Count && v.is_number_integer()) return static_cast<double>(v.get<long long>());
  if (d == Dim::Ratio && v.is_number()) return v.get<double>();
  if (!v.is_string())
    throw InputError(file, key,
                     fmt::format("expected a {} as a string with its unit (e.g. {}), got {}", to_string(d),
                                 d == Dim::Time ? "\"1.5 us\"" : d == Dim::Rate ? "\"5 GB/s\"" : "\"8 KiB\"",
                                 v.dump()));
  try {
    return parse_quantity(v.get<std::string>(), d);
  } catch (const std::invalid_argument& e) {
    throw InputError(file, key, e.what());
  }
}

double ObjectReader::quantity(const std::string& key, Dim d, double min, double max) {
  double x = json_quantity(need(key), d, file_, key_path(key));
  if (x < min || x > max)
    fail(key, fmt::format("value {} is out of range [{}, {}]", format_quantity(x, d), format_quantity(min, d),
                          format_quantity(max, d)));
  return x;
}
std::optional<double> ObjectReader::opt_quantity(const std::string& key, Dim d, double min, double max) {
  if (!has(key)) return std::nullopt;
  return quantity(key, d, min, max);
}

bool ObjectReader::boolean(const std::string& key) {
  auto& v = need(key);
  if (!v.is_boolean()) fail(key, fmt::format("expected true or false, got {}", v.dump()));
  return v.get<bool>();
}

ObjectReader ObjectReader::object(const std::string& key) { return ObjectReader(need(key), file_, key_path(key)); }

std::vector<long long> ObjectReader::int_list(const std::string& key, long long min, long long max) {
  auto& v = need(key);
  if (!v.is_array()) fail(key, fmt::format("expected a list of integers, got {}", v.dump()));
  std::vector<long long> out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number_integer())
      fail(key + "[" + std::to_string(i) + "]", fmt::format("expected an integer, got {}", v[i].dump()));
    long long x = v[i].get<long long>();
    if (x < min || x > max)
      fail(key + "[" + std::to_string(i) + "]", fmt::format("value {} is out of range [{}, {}]", x, min, max));
    out.push_back(x);
  }
  return out;
}

void ObjectReader::finish(const std::vector<std::string>& also_allowed) {
  std::vector<std::string> known(read_.begin(), read_.end());
  known.insert(known.end(), also_allowed.begin(), also_allowed.end());
  for (auto it = obj_.begin(); it != obj_.end(); ++it) {
    const std::string& k = it.key();
    if (read_.count(k) || std::find(also_allowed.begin(), also_allowed.end(), k) != also_allowed.end()) continue;
    std::string hint = did_you_mean(k, known);
    fail(k, "unknown key" + (hint.empty() ? std::string() : " (did you mean '" + hint + "'?)"));
  }
}

}  // namespace ompisim
