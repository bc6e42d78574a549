// Strict reading of JSON input: every key is either read or reported as unknown (with a "did you mean"), every value
// is type- and unit-checked, and every error names the file and the key path. One class, used by every loader.
#pragma once
#include "core/errors.hpp"
#include "core/units.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ompisim {

using Json = nlohmann::json;

// Parses a file; a syntax error or a missing file is an InputError naming the file. Bounded (core/limits.hpp): the
// file must be a regular file of at most limits::max_input_bytes(), checked before reading; nesting deeper than
// limits::kMaxJsonDepth, a duplicate key or a number that overflows a double is an InputError naming the file and key.
Json load_json_file(const std::string& path);
// The keys of the object `member` of the file's top-level object in the order the file writes them (Json sorts its
// keys); empty when there is no such object. The same bounds and checks as load_json_file.
std::vector<std::string> member_keys_in_written_order(const std::string& path, const std::string& member);
// The same checks on text already in memory (`file` names it in errors). Also the fuzz targets' entry point.
Json parse_json_text(const std::string& text, const std::string& file);
// The closest candidate by edit distance; else the candidates that begin with `key` or end with it as whole parts
// (after '_', '.', '/' or '-'), up to three; else none.
std::vector<std::string> did_you_mean_all(const std::string& key, const std::vector<std::string>& candidates);
// did_you_mean_all as one text for a message's quotes: "a", or "a' or 'b"; "" when none.
std::string did_you_mean(const std::string& key, const std::vector<std::string>& candidates);

class ObjectReader {
public:
  ObjectReader(const Json& obj, std::string file, std::string path);
  // Whether the object has `key`; a key asked for joins the keys an unknown key's hint names (finish), present or not.
  bool has(const std::string& key) const {
    asked_.insert(key);
    return obj_.contains(key);
  }
  const Json& raw(const std::string& key);                    // marks the key as read
  std::string str(const std::string& key);
  std::optional<std::string> opt_str(const std::string& key);
  long long integer(const std::string& key, long long min, long long max);
  std::optional<long long> opt_integer(const std::string& key, long long min, long long max);
  double number(const std::string& key, double min, double max);
  double quantity(const std::string& key, Dim d, double min, double max);   // "8 KiB", or an integer for sizes
  std::optional<double> opt_quantity(const std::string& key, Dim d, double min, double max);
  bool boolean(const std::string& key);
  ObjectReader object(const std::string& key);
  std::vector<long long> int_list(const std::string& key, long long min, long long max);
  // Throws for the first key that was never read, suggesting the closest key that was read or declared in also_allowed
  // (without a declaration: or asked for by has, opt_*).
  void finish(const std::vector<std::string>& also_allowed = {});
  std::string key_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  const std::string& file() const { return file_; }
  [[noreturn]] void fail(const std::string& key, const std::string& reason) const;
  // "required <what> is missing<detail>", naming a key of the object that is close to `key` and neither read nor one
  // of `known` (the object's other valid keys) as a likely misspelling of it.
  [[noreturn]] void fail_missing(const std::string& key, const std::string& what, const std::string& detail = "",
                                 const std::vector<std::string>& known = {}) const;

private:
  const Json& need(const std::string& key);
  const Json& obj_;
  std::string file_, path_;
  std::set<std::string> read_;
  mutable std::set<std::string> asked_;  // keys asked for with has() (the optional ones), for finish's hint
};

// Reads one quantity from a JSON value (string with unit, or integer bytes when d == Bytes).
double json_quantity(const Json& v, Dim d, const std::string& file, const std::string& key);

}  // namespace ompisim
