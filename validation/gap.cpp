#include "validation/gap.hpp"

#include <cmath>

#include <fmt/format.h>
#include <stdexcept>

namespace ompisim::validation {

double gap_pct(double a, double b, Better better) {
  if (!(a > 0) || !(b > 0) || !std::isfinite(a) || !std::isfinite(b))
    throw std::invalid_argument("a gap needs two positive finite values");
  // cost: the value where lower is better, its inverse where higher is better
  const double ca = better == Better::Lower ? a : 1.0 / a;
  const double cb = better == Better::Lower ? b : 1.0 / b;
  return ca <= cb ? (cb / ca - 1.0) * 100.0 : -(ca / cb - 1.0) * 100.0;
}

bool gap_holds(double model_pct, double paper_pct, double factor) {
  if (paper_pct == 0.0 || !(factor >= 1.0)) return false;
  if ((model_pct > 0) != (paper_pct > 0) || model_pct == 0.0) return false;
  const double m = std::fabs(model_pct), p = std::fabs(paper_pct);
  return m >= p / factor && m <= p * factor;
}

double mean_gap_pct(const std::vector<double>& gaps_pct) {
  if (gaps_pct.empty()) throw std::invalid_argument("a mean gap needs at least one gap");
  double sum = 0;
  for (double g : gaps_pct) sum += std::copysign(std::log1p(std::fabs(g) / 100.0), g);
  const double m = sum / static_cast<double>(gaps_pct.size());
  return std::copysign(std::expm1(std::fabs(m)) * 100.0, m);
}

std::string accepted_gap_text(double paper_pct, double lo, double hi) {
  const char* sign = paper_pct > 0 ? "+" : "-";
  return std::isfinite(hi) ? fmt::format("{}{:.1f} to {}{:.1f} %", sign, lo, sign, hi)
                           : fmt::format("{}{:.1f} % or beyond", sign, lo);
}

Better better_of_metric(const std::string& metric) {
  auto has = [&](const char* s) { return metric.find(s) != std::string::npos; };
  // higher first: "messages_per_s" is a rate, not a time
  if (has("bandwidth") || has("per_s") || has("GBps") || has("MBps") || has("availability")) return Better::Higher;
  if (has("latency") || has("time") || metric.ends_with("_us") || metric.ends_with("_ms") || metric.ends_with("_s"))
    return Better::Lower;
  throw std::invalid_argument("no known direction (lower or higher is better) for metric '" + metric + "'");
}

}  // namespace ompisim::validation
