// Benchmark keys declared once: integer_key() builds a key's documentation from the range and default that
// read_integer() checks and uses.
#include "benchmarks/driver.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace ompisim::bench {

namespace {
// The declaration of key `name`, or nullptr.
const DriverParam* find_key(const std::vector<DriverParam>& keys, const std::string& name) {
  auto it = std::find_if(keys.begin(), keys.end(), [&](const DriverParam& p) { return p.name == name; });
  return it == keys.end() ? nullptr : &*it;
}

// The declaration of text key `name` (std::logic_error when it is not declared with text_key()).
const DriverParam& text_declaration(const std::vector<DriverParam>& keys, const std::string& name) {
  const DriverParam* p = find_key(keys, name);
  if (!p || !p->declared)
    throw std::logic_error(fmt::format("benchmark key '{}' is not declared with text_key()", name));
  return *p;
}
}  // namespace

DriverParam integer_key(std::string name, long long min, long long max, std::optional<long long> value,
                        std::string description, std::string computed) {
  if (min > max || (value && (*value < min || *value > max)) || (!value && computed.empty()))
    throw std::logic_error(fmt::format("benchmark key '{}': default outside [{}, {}] or missing", name, min, max));
  DriverParam p{std::move(name), fmt::format("integer {} .. {}", min, max),
                value ? std::to_string(*value) : std::move(computed), std::move(description)};
  p.integer = DriverParam::IntegerRange{min, max, value};
  return p;
}

const DriverParam::IntegerRange& integer_range(const std::vector<DriverParam>& keys, const std::string& name) {
  const DriverParam* p = find_key(keys, name);
  if (!p || !p->integer)
    throw std::logic_error(fmt::format("benchmark key '{}' is not declared with integer_key()", name));
  return *p->integer;
}

std::optional<long long> read_integer(ObjectReader& b, const std::vector<DriverParam>& keys, const std::string& name) {
  const DriverParam::IntegerRange& r = integer_range(keys, name);
  if (auto v = b.opt_integer(name, r.min, r.max)) return v;
  return r.value;
}

DriverParam text_key(std::string name, std::string type, std::string value, std::string description,
                     std::function<std::vector<std::string>()> choices) {
  DriverParam p{std::move(name), std::move(type), std::move(value), std::move(description), std::move(choices)};
  p.declared = true;
  return p;
}

const std::string& declared_default(const std::vector<DriverParam>& keys, const std::string& name) {
  return text_declaration(keys, name).default_value;
}

std::string read_text(ObjectReader& b, const std::vector<DriverParam>& keys, const std::string& name) {
  const DriverParam& key = text_declaration(keys, name);
  const std::string& deflt = key.default_value;
  if (key.choices) {
    const std::vector<std::string> v = key.choices();
    if (std::find(v.begin(), v.end(), deflt) == v.end())
      throw std::logic_error(fmt::format("benchmark key '{}': declared default '{}' is not one of its choices", name, deflt));
  }
  return b.opt_str(name).value_or(deflt);
}

bool read_boolean(ObjectReader& b, const std::vector<DriverParam>& keys, const std::string& name) {
  const std::string& deflt = declared_default(keys, name);
  if (deflt != "true" && deflt != "false")
    throw std::logic_error(fmt::format("benchmark key '{}': declared default '{}' is not a boolean", name, deflt));
  return b.has(name) ? b.boolean(name) : deflt == "true";
}

const std::vector<DriverParam>& block_keys(const DriverContext& ctx) {
  if (!ctx.keys) throw std::logic_error("a benchmark parser was called without its declared keys");
  return *ctx.keys;
}

double MessageCount::at(double ranks) const {
  const double p = std::max(ranks, 1.0);
  return constant + per_round * std::ceil(std::log2(p)) + per_peer * (p - 1);
}

std::string MessageCount::formula() const {
  std::string f;
  auto term = [&f](double coef, const std::string& what) {
    if (coef == 0) return;
    const std::string c = coef == 1 && !what.empty() ? "" : fmt::format("{:g}{}", coef, what.empty() ? "" : " x ");
    f += (f.empty() ? "" : " + ") + c + what;
  };
  term(constant, "");
  term(per_round, "ceil(log2 P)");
  term(per_peer, "(P - 1)");
  if (per_peer != 0 && constant == 0 && per_round == 0 && per_peer == 1) f = "P - 1";
  return f.empty() ? "0" : f;
}

}  // namespace ompisim::bench
