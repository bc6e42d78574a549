// The options that choose what a trace keeps (`run --trace-ranks`, `--trace-window`), parsed for core/trace.hpp's
// TraceFilter.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ompisim {

// "0-15,1024" (inclusive ranges, non-negative, ascending bounds) and "10us:50us" (times with units; either side may
// be empty: ":50us", "10us:"). InputError(option, text, reason) on bad input.
std::vector<std::pair<long long, long long>> parse_rank_list(const std::string& text, const std::string& option);
std::pair<double, double> parse_time_window(const std::string& text, const std::string& option);

}  // namespace ompisim
