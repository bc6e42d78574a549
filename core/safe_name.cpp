#include "core/safe_name.hpp"

#include "core/errors.hpp"
#include "core/limits.hpp"

#include <fmt/format.h>

namespace ompisim {

namespace {
bool safe_up_to(const std::string& name, std::size_t max) {
  if (name.empty() || name.size() > max || name[0] == '.' || name[0] == '-') return false;
  for (unsigned char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '-';
    if (!ok) return false;
  }
  return true;
}
void check_up_to(const std::string& name, const std::string& file, const std::string& key, std::size_t max) {
  if (safe_up_to(name, max)) return;
  // control characters are escaped (\x07, \n) where the error is printed (one_line)
  const std::string shown = name.size() > 64 ? name.substr(0, 64) + "..." : name;
  throw InputError(file, key,
                   fmt::format("'{}' is not a valid name: it becomes part of a file path, so it may only hold letters, "
                               "digits, '.', '_' and '-', must not start with '.' or '-', and is at most {} characters",
                               shown, max));
}
}  // namespace

bool is_safe_name(const std::string& name) { return safe_up_to(name, limits::kMaxNameLength); }

void check_safe_name(const std::string& name, const std::string& file, const std::string& key) {
  check_up_to(name, file, key, limits::kMaxNameLength);
}

void check_safe_file_name(const std::string& name, const std::string& file, const std::string& key) {
  check_up_to(name, file, key, limits::kMaxFileNameLength);
}

std::string label_stem(const std::string& label, const std::string& file, const std::string& key) {
  std::string stem;
  for (unsigned char c : label) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-') stem += static_cast<char>(c);
    else if (c >= 'A' && c <= 'Z') stem += static_cast<char>(c - 'A' + 'a');
  }
  if (label.find_first_of("/\\") != std::string::npos || label.starts_with(".") || label.starts_with("-") ||
      !is_safe_name(stem) ||
      label.size() > limits::kMaxNameLength)
    throw InputError(file, key,
                     fmt::format("'{}' cannot name a file: a label may hold no '/' or '\\', must not start with '.' "
                                 "or '-', must contain a letter or digit, and is at most {} characters",
                                 label.size() > 64 ? label.substr(0, 64) + "..." : label, limits::kMaxNameLength));
  return stem;
}

}  // namespace ompisim
