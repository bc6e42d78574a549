#include "core/units.hpp"

#include "core/enum_names.hpp"
#include "core/override_text.hpp"
#include "core/units_text.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <stdexcept>

namespace ompisim {

namespace {
constexpr std::array<const char*, 5> kDimNames{"time", "size", "rate", "count", "ratio"};
}  // namespace

const char* to_string(Dim d) { return name_of<Dim::Ratio>(d, kDimNames); }

std::string format_quantity(double v, Dim d) {
  // A whole number beyond 2^53 is not held exactly (9223372036854775807 reads as 2^63): shown to 6 digits, not as
  // digits it never had.
  const bool inexact = std::fabs(v) >= 9007199254740992.0;
  switch (d) {
    case Dim::Time: return fmt::format("{:.6g} us", v * 1e6);
    case Dim::Bytes: return inexact ? fmt::format("{:.6g} B", v) : fmt::format("{:.0f} B", v);
    case Dim::Rate: return fmt::format("{:.6g} GB/s", v / 1e9);
    case Dim::Count: return inexact ? fmt::format("{:.6g}", v) : fmt::format("{:.0f}", v);
    case Dim::Ratio: return fmt::format("{:.6g}", v);
  }
  return "?";
}

std::string byte_label(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    const double up = b / 1024, hundredths = up * 100;
    if (hundredths != std::floor(hundredths)) break;
    b = up, ++u;
  }
  return fmt::format("{:.15g} {}", b, units[u]);
}

std::string format_quantity_exact(double v, Dim d) {
  switch (d) {
    case Dim::Time: return fmt::format("{} s", v);
    case Dim::Bytes: return fmt::format("{:.0f} B", std::round(v));
    case Dim::Rate: return fmt::format("{} B/s", v);
    case Dim::Count: return fmt::format("{:.0f}", std::round(v));
    case Dim::Ratio: return fmt::format("{}", v);
  }
  return "?";
}

namespace {
const std::map<std::string, double>& units_for(Dim d) {
  static const std::map<std::string, double> time{{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};
  // Byte sizes are binary only: Open MPI reads its size parameters in powers of 1024, so "4 kB" would be 4000 B
  // here and 4096 B there. SI-prefixed sizes are refused (si_size_prefixes) with the binary spelling to use.
  static const std::map<std::string, double> bytes{{"B", 1}, {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}};
  static const std::map<std::string, double> rate{{"B/s", 1},     {"kB/s", 1e3},   {"MB/s", 1e6},    {"GB/s", 1e9},
                                                  {"TB/s", 1e12}, {"b/s", 0.125},  {"Mb/s", 1.25e5}, {"Gb/s", 1.25e8},
                                                  {"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0}};
  static const std::map<std::string, double> none{{"", 1}};
  switch (d) {
    case Dim::Time: return time;
    case Dim::Bytes: return bytes;
    case Dim::Rate: return rate;
    default: return none;
  }
}
// The SI-prefixed size units refused for byte sizes, with the binary unit meant.
const std::map<std::string, std::string>& si_size_prefixes() {
  static const std::map<std::string, std::string> si{{"kB", "KiB"}, {"KB", "KiB"}, {"K", "KiB"}, {"k", "KiB"},
                                                     {"MB", "MiB"}, {"M", "MiB"},  {"GB", "GiB"}, {"G", "GiB"}};
  return si;
}
}  // namespace

std::vector<std::string> units_of(Dim d) {
  std::vector<std::string> v;
  for (auto& [u, f] : units_for(d)) v.push_back(u);
  return v;
}

std::string unit_list(Dim d) { return fmt::format("{}", fmt::join(units_of(d), ", ")); }

std::string quantity_pattern(Dim d) {
  std::string alt;
  for (auto& u : units_of(d)) {
    std::string esc;
    for (char c : u) esc += std::string(std::strchr(".^$*+?()[]{}|\\", c) ? "\\" : "") + c;
    alt += (alt.empty() ? "" : "|") + esc;
  }
  return "^\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?\\s*(" + alt + ")$";
}

// What a value of dimension d is written as: a decimal number, followed by a unit where d has units.
static std::string expected_form(Dim d) {
  const std::string units = unit_list(d);
  return units.empty() ? "a decimal number" : "a decimal number followed by one of: " + units;
}

double parse_quantity(const std::string& text, Dim d) {
  size_t pos = 0;
  double num;
  try {
    num = std::stod(text, &pos);
  } catch (const std::out_of_range&) {  // "1e999 us", "1e-999 us"
    throw std::invalid_argument(fmt::format("'{}': the number is beyond the range of a double (magnitudes 1e-308 "
                                            "to 1e308)", text));
  } catch (const std::exception&) {
    throw std::invalid_argument(fmt::format("'{}' is not a {} (expected {})", text, to_string(d), expected_form(d)));
  }
  // A decimal number only: std::stod also reads hexadecimal ("0x10"), "inf" and "nan".
  if (text.substr(0, pos).find_first_not_of(" 0123456789.eE+-") != std::string::npos)
    throw std::invalid_argument(fmt::format("'{}' is not a {} (expected {})", text, to_string(d), expected_form(d)));
  while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  std::string unit = text.substr(pos);
  auto& table = units_for(d);
  auto it = table.find(unit);
  if (d == Dim::Bytes)
    if (auto si = si_size_prefixes().find(unit); si != si_size_prefixes().end())
      throw std::invalid_argument(fmt::format(
          "'{}': byte sizes are binary, as Open MPI reads them: write '{:g} {}' ({:.0f} B) or the size in bytes "
          "(units: {})", text, num, si->second, num * table.at(si->second), unit_list(d)));
  if (d == Dim::Bytes && num < 0)  // before the unit: "-8" is not a size with any unit
    throw std::invalid_argument(fmt::format("'{}': a size is a number of bytes, at least 0", text));
  if (it == table.end()) {
    const std::vector<std::string> units = units_of(d);
    // a number in quotes without its unit ("512"): what the unit may be, and, for a size, that a bare number is bytes
    if (unit.empty() && table.count("") == 0)
      throw std::invalid_argument(fmt::format("'{}' has no unit: a {} is written with one of: {}{}", text, to_string(d),
                                              unit_list(d),
                                              d == Dim::Bytes ? fmt::format(" ('{} B'), or as a number of bytes "
                                                                            "without quotes", text)
                                                              : std::string()));
    if (std::all_of(units.begin(), units.end(), [](const std::string& u) { return u.empty(); }))
      throw std::invalid_argument(fmt::format("'{}': a {} takes no unit ('{}'): write the number alone", text,
                                              to_string(d), unit));
    throw std::invalid_argument(fmt::format("'{}': unit '{}' is not a unit of {} (use one of: {})", text, unit,
                                            to_string(d), unit_list(d)));
  }
  if (!std::isfinite(num)) throw std::invalid_argument(fmt::format("'{}' is not finite", text));
  const double si = num * it->second;  // "1e308 GB/s" is finite, its value in B/s is not
  if (!std::isfinite(si))
    throw std::invalid_argument(fmt::format("'{}': overflows a double once converted to base units (s, B, B/s)", text));
  // A size is a whole number of bytes: "0.3 KiB" (307.2 B) is refused with the two sizes around it, not rounded.
  if (d == Dim::Bytes && si != std::floor(si))
    throw std::invalid_argument(fmt::format("'{}'{}: a size is a whole number of bytes (write '{:.0f} B' or '{:.0f} B')",
                                            text, unit == "B" ? std::string() : fmt::format(" is {:g} B", si),
                                            std::floor(si), std::ceil(si)));
  return si;
}

}  // namespace ompisim
