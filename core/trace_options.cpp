#include "core/trace_options.hpp"

#include "core/errors.hpp"
#include "core/units.hpp"

#include <fmt/format.h>
#include <limits>
#include <stdexcept>

namespace ompisim {

std::vector<std::pair<long long, long long>> parse_rank_list(const std::string& text, const std::string& option) {
  std::vector<std::pair<long long, long long>> out;
  auto number = [&](const std::string& s, const std::string& item) {
    if (s.empty() && item.empty())
      throw InputError(option, text, "an empty item between commas (ranks and ranges A-B, separated by commas)");
    if (s.empty())
      throw InputError(option, text, fmt::format("'{}' is not a rank or a range A-B of ranks (non-negative integers)", item));
    if (s.size() > 12 || s.find_first_not_of("0123456789") != std::string::npos)
      throw InputError(option, text, fmt::format("'{}' is not a rank (a non-negative integer)", s));
    return std::stoll(s);
  };
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t comma = text.find(',', pos);
    std::string item = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    std::size_t dash = item.find('-');
    long long a = number(item.substr(0, dash), item);
    long long b = dash == std::string::npos ? a : number(item.substr(dash + 1), item);
    if (b < a) throw InputError(option, text, fmt::format("range '{}' ends before it starts", item));
    out.emplace_back(a, b);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

std::pair<double, double> parse_time_window(const std::string& text, const std::string& option) {
  std::size_t colon = text.find(':');
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos)
    throw InputError(option, text, "expected START:END with units (e.g. 10us:50us; either side may be empty)");
  if (text.size() == 1) throw InputError(option, text, "an empty window: give START:, :END or START:END (e.g. 10us:50us)");
  auto time = [&](const std::string& s, double dflt) {
    if (s.empty()) return dflt;
    if (s.find_first_not_of("0.") == std::string::npos && s.find('0') != std::string::npos) return 0.0;  // "0" needs no unit
    try {
      double v = parse_quantity(s, Dim::Time);
      if (!(v >= 0)) throw std::invalid_argument("negative");
      return v;
    } catch (const std::exception&) {
      throw InputError(option, text, fmt::format("'{}' is not a time with a unit (e.g. 10us, 2.5 ms)", s));
    }
  };
  double a = time(text.substr(0, colon), 0), b = time(text.substr(colon + 1), std::numeric_limits<double>::infinity());
  if (!(b > a))
    throw InputError(option, text, b == a ? "the window is empty (it ends where it starts)" : "the window ends before it starts");
  return {a, b};
}

}  // namespace ompisim
