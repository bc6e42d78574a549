#include "core/error_text.hpp"

#include <fmt/format.h>

namespace ompisim {

namespace {
// The length of the well-formed UTF-8 sequence starting at s[i] (RFC 3629: no overlong form, no surrogate, at most
// U+10FFFF), 0 when the byte starts none.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xc0) != 0x80) return 0;
  const unsigned char d = b(i + 1);
  if ((c == 0xe0 && d < 0xa0) || (c == 0xed && d > 0x9f) || (c == 0xf0 && d < 0x90) || (c == 0xf4 && d > 0x8f)) return 0;
  return n;
}
// Control characters as escapes, and every byte outside a well-formed UTF-8 sequence (a Latin-1 'é' in a file, a
// sequence cut short) as \xNN: the line is always valid UTF-8 text.
void put_escaped(std::string& out, std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", c);
    else if (c < 0x80) out += static_cast<char>(c);
    else if (const std::size_t n = utf8_length(s, i); n > 0) {
      out += s.substr(i, n);
      i += n - 1;
    } else out += fmt::format("\\x{:02x}", c);
  }
}
// The first `keep` bytes of `s`, less a UTF-8 sequence the cut would split.
std::string_view utf8_prefix(std::string_view s, std::size_t keep) {
  std::size_t i = keep;
  while (i > 0 && i > keep - 3 && (static_cast<unsigned char>(s[i]) & 0xc0) == 0x80) --i;
  return i < keep && utf8_length(s, i) > keep - i ? s.substr(0, i) : s.substr(0, keep);
}
// An echoed segment: as it is when short, else its first characters, "..." and its length.
// A word with a '/' is a path the tool names (a file in a deep folder): kept up to PATH_MAX.
void put_segment(std::string& out, std::string_view s, bool quoted) {
  const std::size_t keep = !quoted && s.find('/') != std::string_view::npos ? 4096 : kMaxEchoChars;
  if (s.size() <= keep) {
    put_escaped(out, s);
    return;
  }
  put_escaped(out, utf8_prefix(s, keep));
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

std::string printable(std::string_view text) {
  std::string out;
  put_escaped(out, text);
  return out;
}

}  // namespace ompisim
