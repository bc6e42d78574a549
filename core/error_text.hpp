// The one line an error is shown as: whatever input it echoes, bounded and printable.
#pragma once
#include <string>
#include <string_view>

namespace ompisim {

constexpr std::size_t kMaxEchoChars = 80;  // characters of an echoed input shown before it is cut

// `message` as one bounded line: an echoed input longer than kMaxEchoChars bytes (a quoted 'segment', or a word
// without spaces; a word with a '/', a path, up to 4096) is cut to its first kMaxEchoChars bytes, less a character
// the cut would split, followed by "..." and its length ("(N bytes)"); control characters are escaped (\n, \t, \r,
// \xNN), so a newline in a value never splits the line, and so is every byte outside well-formed UTF-8 (\xNN), so the
// line is valid UTF-8.
std::string one_line(std::string_view message);
// `text` whole, with its control characters escaped as one_line escapes them (\n, \t, \r, \xNN) and every byte
// outside well-formed UTF-8 as \xNN: a text read from an input file, printed on one line of a terminal, can neither
// start another line nor send the terminal an escape sequence.
std::string printable(std::string_view text);

}  // namespace ompisim
