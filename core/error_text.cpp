#include "core/error_text.hpp"

#include <fmt/format.h>

namespace ompisim {

namespace {
void put_escaped(std::string& out, std::string_view s) {
  for (unsigned char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", c);
    else out += static_cast<char>(c);
  }
}
// An echoed segment: as it is when short, else its first characters, "..." and its length.
// A word with a '/' is a path the tool names (a file in a deep folder): kept up to PATH_MAX.
void put_segment(std::string& out, std::string_view s, bool quoted) {
  const std::size_t keep = !quoted && s.find('/') != std::string_view::npos ? 4096 : kMaxEchoChars;
  if (s.size() <= keep) {
    put_escaped(out, s);
    return;
  }
  put_escaped(out, s.substr(0, keep));
  out += quoted ? "...'" : "...";
  out += fmt::format(" ({} bytes)", s.size());
}
bool opens_quote(std::string_view m, std::size_t i) {
  if (m[i] != '\'') return false;
  if (i == 0) return true;
  char p = m[i - 1];
  return p == ' ' || p == '(' || p == '=' || p == '[' || p == '"';
}
// The closing quote of a quoted segment opened at `i`: one followed by the end, a space or punctuation.
std::size_t closing_quote(std::string_view m, std::size_t i) {
  for (std::size_t j = m.find('\'', i + 1); j != std::string_view::npos; j = m.find('\'', j + 1)) {
    if (j + 1 == m.size()) return j;
    char n = m[j + 1];
    if (n == ' ' || n == ',' || n == ':' || n == ';' || n == '.' || n == ')' || n == ']' || n == '"') return j;
  }
  return std::string_view::npos;
}
}  // namespace

std::string one_line(std::string_view m) {
  std::string out;
  out.reserve(std::min<std::size_t>(m.size(), 4096));
  std::size_t i = 0;
  bool closers = true;  // false once a scan found no closing quote: none follows any later opening one (linear time)
  while (i < m.size()) {
    if (closers && opens_quote(m, i)) {
      std::size_t j = closing_quote(m, i);
      closers = j != std::string_view::npos;
      if (closers) {
        out += '\'';
        put_segment(out, m.substr(i + 1, j - i - 1), true);
        if (j - i - 1 <= kMaxEchoChars) out += '\'';  // else put_segment closed it before the length
        i = j + 1;
        continue;
      }
    }
    if (m[i] == ' ') {
      out += ' ';
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < m.size() && m[j] != ' ' && !(closers && opens_quote(m, j))) ++j;
    put_segment(out, m.substr(i, j - i), false);
    i = j;
  }
  return out;
}

}  // namespace ompisim
