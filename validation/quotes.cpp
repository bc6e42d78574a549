#include "validation/quotes.hpp"

#include "validation/claims.hpp"
#include "validation/gap.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <utility>
#include <stdexcept>

namespace ompisim::validation {

namespace {
constexpr std::size_t kMaxQuotes = 64, kMaxSets = 16, kMaxKeyChars = 128;
constexpr int kMaxDepth = 4;
const char* const kKinds[] = {"value", "number", "gap", "ratio", "difference_pct", "minus", "over"};

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
}  // namespace

std::optional<QuotedNumber> quoted_number(const std::string& t) {
  // A digit right after a letter, or after a hyphen right after a letter, begins no number: it is part of a name
  // (OB1, S3D, VH-1), and so are the digits and points that follow it.
  auto alpha = [&](std::size_t k) { return std::isalpha(static_cast<unsigned char>(t[k])) != 0; };
  auto in_name = [&](std::size_t k) {
    return k > 0 && (alpha(k - 1) || (t[k - 1] == '-' && k > 1 && alpha(k - 2)));
  };
  std::size_t i = 0;
  for (;;) {
    while (i < t.size() && !digit(t[i])) ++i;
    if (i == t.size()) return std::nullopt;
    if (!in_name(i)) break;
    while (i < t.size() && (digit(t[i]) || t[i] == '.' || alpha(i))) ++i;
  }
  // a minus sign directly before the digits, itself not inside a word ("VH-1" is no minus one), or U+2212
  const bool hyphen = i > 0 && t[i - 1] == '-' && (i < 2 || !std::isalnum(static_cast<unsigned char>(t[i - 2])));
  const bool negative = hyphen || (i >= 3 && t.compare(i - 3, 3, "\xE2\x88\x92") == 0);
  // Digits with thousands separators (a comma followed by exactly three digits), then a fraction, then an exponent.
  auto separator = [&](std::size_t j) {
    return t[j] == ',' && j + 3 < t.size() && digit(t[j + 1]) && digit(t[j + 2]) && digit(t[j + 3]) &&
           (j + 4 >= t.size() || !digit(t[j + 4]));
  };
  std::string mant;
  std::size_t j = i;
  for (; j < t.size() && (digit(t[j]) || separator(j)); ++j)
    if (digit(t[j])) mant += t[j];
  int decimals = 0;
  if (j + 1 < t.size() && t[j] == '.' && digit(t[j + 1])) {
    mant += t[j++];
    while (j < t.size() && digit(t[j])) mant += t[j++], ++decimals;
  }
  int exponent = 0;
  if (j + 1 < t.size() && (t[j] == 'e' || t[j] == 'E')) {
    std::size_t k = j + 1;
    if (k < t.size() && (t[k] == '-' || t[k] == '+')) ++k;
    int e = 0, n = 0;
    for (; k < t.size() && digit(t[k]) && n < 4; ++k, ++n) e = 10 * e + (t[k] - '0');  // at most 4 digits
    if (n > 0) exponent = t[j + 1] == '-' ? -e : e;
  }
  const double v = std::strtod(mant.c_str(), nullptr) * std::pow(10.0, exponent);
  const double half = 0.5 * std::pow(10.0, exponent - decimals);
  if (!std::isfinite(v) || !std::isfinite(half)) return std::nullopt;
  return QuotedNumber{negative ? -v : v, half};
}

bool quote_agrees(const std::string& text, double measured) {
  const auto q = quoted_number(text);
  if (!q || !std::isfinite(measured)) return false;
  return std::fabs(measured - q->value) <= q->half_unit * (1 + 1e-9);
}

namespace {

// The input check of the quotes of one reference file (`f`, whose scenarios `exists` finds).
struct QuoteChecker {
  [[noreturn]] void fail(const std::string& key, const std::string& why) const { throw InputError(f, key, why); }

  void sets(const Json& s, const std::string& key) const {
    if (!s.is_object() || s.empty()) fail(key, "must be a non-empty object of --set overrides (key: value)");
    if (s.size() > kMaxSets) fail(key, "has " + std::to_string(s.size()) + " overrides (at most 16)");
    for (auto& [k, v] : s.items()) {
      if (k.empty() || k.size() > kMaxKeyChars) fail(key, "an override key must have 1 to 128 characters");
      if (!v.is_string() && !v.is_number()) fail(key + "." + k, "must be a string or a number (a --set value)");
    }
  }

  // a claim check's value reference, with an optional "set" of its own
  void ref(const Json& r, const std::string& key) const {
    if (r.is_object() && r.contains("set")) {
      sets(r["set"], key + ".set");
      Json plain = r;
      plain.erase("set");
      return check_value_ref(plain, f, key, exists);
    }
    check_value_ref(r, f, key, exists);
  }

  void measure(const Json& m, const std::string& key, int depth) const {
    if (depth > kMaxDepth) fail(key, "measures nested more than 4 deep");
    if (!m.is_object()) fail(key, "must be an object with one of value, number, gap, ratio, difference_pct, minus, over");
    int kinds = 0;
    for (auto& [k, x] : m.items()) {
      bool kind = false;
      for (const char* n : kKinds) kind = kind || k == n;
      if (kind) {
        ++kinds;
      } else if (k == "set") {
        sets(x, key + ".set");
      } else if (k == "scale") {
        if (!x.is_number() || !std::isfinite(x.get<double>()) || x.get<double>() == 0)
          fail(key + ".scale", "must be a finite non-zero number");
      } else if (k == "abs") {
        if (!x.is_boolean()) fail(key + ".abs", "must be true or false");
      } else {
        fail(key + "." + k, "unknown key (value, number, gap, ratio, difference_pct, minus, over, set, scale, abs)");
      }
    }
    if (kinds != 1) fail(key, "must have exactly one of value, number, gap, ratio, difference_pct, minus, over");
    if (m.contains("value")) return ref(m["value"], key + ".value");
    if (m.contains("number")) {
      if (!m["number"].is_number() || !std::isfinite(m["number"].get<double>())) fail(key + ".number", "must be a finite number");
      return;
    }
    for (const char* k : {"gap", "ratio", "difference_pct", "minus", "over"}) {
      if (!m.contains(k)) continue;
      const Json& two = m[k];
      const std::string kk = key + "." + k;
      if (!two.is_array() || two.size() != 2) fail(kk, "must be an array of two");
      for (int i = 0; i < 2; ++i) {
        const std::string ki = kk + "[" + std::to_string(i) + "]";
        if (std::string(k) == "minus" || std::string(k) == "over") measure(two[i], ki, depth + 1);
        else ref(two[i], ki);
      }
      if (std::string(k) == "gap") {
        try {
          if (better_of_metric(two[0]["metric"].get<std::string>()) != better_of_metric(two[1]["metric"].get<std::string>()))
            fail(kk + "[1].metric", "the two metrics have different directions (lower / higher is better)");
        } catch (const std::invalid_argument&) {
          fail(kk + "[0].metric", "a gap needs a metric with a direction (a latency, time, bandwidth or rate)");
        }
      }
    }
  }

  const std::string& f;
  bool (*exists)(const std::string&);
};

Overrides merged(const Json& m, const Overrides& inherited) {
  if (!m.contains("set")) return inherited;
  Overrides o;
  for (auto& [k, v] : m["set"].items()) o.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
  return o;
}

double measure_of(const Json& m, const QuoteValue& value, const Overrides& inherited) {
  const Overrides sets = merged(m, inherited);
  auto at = [&](const Json& r) { return value(r, merged(r, sets)); };  // a reference's own set replaces the measure's
  double x = 0;
  auto two = [&](const char* k) { return std::pair{at(m[k][0]), at(m[k][1])}; };
  if (m.contains("number")) {
    x = m["number"].get<double>();
  } else if (m.contains("value")) {
    x = at(m["value"]);
  } else if (m.contains("gap")) {
    auto [a, b] = two("gap");
    x = gap_pct(a, b, better_of_metric(m["gap"][0]["metric"].get<std::string>()));
  } else if (m.contains("ratio")) {
    auto [a, b] = two("ratio");
    x = a / b;
  } else if (m.contains("difference_pct")) {
    auto [a, b] = two("difference_pct");
    x = (a - b) / b * 100.0;
  } else if (m.contains("minus")) {
    x = measure_of(m["minus"][0], value, sets) - measure_of(m["minus"][1], value, sets);
  } else {
    x = measure_of(m["over"][0], value, sets) / measure_of(m["over"][1], value, sets);
  }
  x *= m.value("scale", 1.0);
  return m.value("abs", false) ? std::fabs(x) : x;
}

bool has_set(const Json& m) {
  if (m.contains("set")) return true;
  for (const char* k : {"gap", "ratio", "difference_pct", "minus", "over"})
    if (m.contains(k) && (has_set(m[k][0]) || has_set(m[k][1]))) return true;
  return m.contains("value") && has_set(m["value"]);
}

}  // namespace

void check_quotes_input(const Json& quotes, const std::string& reason, const std::string& f, const std::string& key,
                        bool (*scenario_exists)(const std::string&)) {
  QuoteChecker c{f, scenario_exists};
  if (!quotes.is_array()) c.fail(key, "must be an array of {\"text\", \"measure\"}");
  if (quotes.size() > kMaxQuotes) c.fail(key, "has " + std::to_string(quotes.size()) + " quotes (at most 64)");
  for (std::size_t i = 0; i < quotes.size(); ++i) {
    const Json& q = quotes[i];
    const std::string k = key + "[" + std::to_string(i) + "]";
    if (!q.is_object()) c.fail(k, "must be an object {\"text\", \"measure\"}");
    for (auto& [n, x] : q.items())
      if (n != "text" && n != "measure") c.fail(k + "." + n, "unknown key (text, measure)");
    if (!q.contains("text") || !q["text"].is_string() || q["text"].get<std::string>().empty())
      c.fail(k + ".text", "must be a non-empty string (the figure as the reason writes it)");
    const std::string text = q["text"].get<std::string>();
    if (reason.find(text) == std::string::npos) c.fail(k + ".text", "'" + text.substr(0, 80) + "' does not stand in the reason");
    if (!quoted_number(text)) c.fail(k + ".text", "'" + text.substr(0, 80) + "' gives no number");
    if (!q.contains("measure")) c.fail(k + ".measure", "missing");
    c.measure(q["measure"], k + ".measure", 1);
  }
}

Json eval_quotes(const Json& quotes, const QuoteValue& value) {
  Json out = Json::array();
  for (auto& q : quotes) {
    const std::string text = q.at("text").get<std::string>();
    const double m = measure_of(q.at("measure"), value, {});
    out.push_back({{"text", text}, {"measured", std::isfinite(m) ? Json(m) : Json(nullptr)},
                   {"agrees", quote_agrees(text, m)}, {"what_if", has_set(q["measure"])}});
  }
  return out;
}

}  // namespace ompisim::validation
