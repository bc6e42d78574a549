// Unit-bearing quantities. Every time, size and rate in an input file is a string with its unit ("1.2 us", "8 KiB",
// "5 GB/s"); sizes may also be plain integers (bytes). Internally: seconds, bytes, bytes per second (SI doubles).
#pragma once
#include <string>

namespace ompisim {

enum class Dim { Time, Bytes, Rate, Count, Ratio };
const char* to_string(Dim d);
// The canonical unit used when printing a value of this dimension (us, B, GB/s, -, -).
std::string format_quantity(double value_si, Dim d);
// A size as a label: in the largest binary unit that keeps it a whole number of that unit's hundredths (1024 -> "1
// KiB", 32768 -> "32 KiB", 1536 -> "1.5 KiB", 3 -> "3 B", 16388 -> "16388 B").
std::string byte_label(double bytes);

// Parses "1.2 us" / "105 ns" / "8 KiB" / "4 MB" / "5 GB/s" / "40 Gb/s" into SI. Throws std::invalid_argument with a
// message naming the expected units when the string does not fit the dimension.
double parse_quantity(const std::string& text, Dim d);

}  // namespace ompisim
