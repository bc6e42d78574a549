#include "core/json_input.hpp"

#include "core/limits.hpp"
#include "core/signals.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <string_view>
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ompisim {

namespace limits {
namespace {
std::size_t g_max_input_bytes = kDefaultMaxInputBytes;
}
std::size_t max_input_bytes() { return g_max_input_bytes; }
void set_max_input_bytes(std::size_t n) { g_max_input_bytes = n; }
}  // namespace limits

namespace {
// nlohmann's message without its "[json.exception.parse_error.101] " tag: the reader wants where and what.
std::string json_error_text(const char* what) {
  std::string t(what);
  if (t.starts_with("[json.exception.")) {
    const auto close = t.find("] ");
    if (close != std::string::npos) t.erase(0, close + 2);
  }
  return t;
}

// A result's CSV given where its JSON is read (compare, describe): the message names the file beside it.
std::string csv_hint(const std::string& file) {
  return file.ends_with(".csv") ? " (a CSV table: ompisim reads JSON, and a result's JSON is the .json file beside its "
                                  ".csv)"
                                : "";
}

// Builds the document from nlohmann's SAX events (the parser itself is iterative), refusing nesting deeper than
// limits::kMaxJsonDepth and duplicate keys, and turning a number overflow into an error naming the key.
class BoundedBuilder final : public nlohmann::json_sax<Json> {
public:
  explicit BoundedBuilder(const std::string& file) : file_(file) {}
  Json root;

  bool null() override { return put(Json(nullptr)); }
  bool boolean(bool v) override { return put(Json(v)); }
  bool number_integer(number_integer_t v) override { return put(Json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return put(Json(v)); }
  bool number_float(number_float_t v, const string_t& text) override {
    if (!std::isfinite(v)) fail(fmt::format("number {} overflows a double", text));
    return put(Json(v));
  }
  bool string(string_t& v) override {
    if (v.find('\0') != std::string::npos) fail(kNulReason);
    return put(Json(std::move(v)));
  }
  bool binary(binary_t&) override { fail("binary values are not JSON"); }
  bool start_object(std::size_t) override { return open(Json::object()); }
  bool key(string_t& k) override {
    Frame& f = stack_.back();
    if (k.find('\0') != std::string::npos) {  // shown as \u0000: an error line is a C string, a NUL would end it
      for (std::size_t i = k.find('\0'); i != std::string::npos; i = k.find('\0', i)) k.replace(i, 1, "\\u0000");
      f.key = k;
      fail(kNulReason);
    }
    if (f.node->contains(k)) {
      f.key = k;
      fail("duplicate key (each key may appear once in an object)");
    }
    f.key = k;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(Json::array()); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string& token, const nlohmann::detail::exception& e) override {
    if (e.id == 406) fail(fmt::format("number {} overflows a double", token));  // out_of_range.406: number overflow
    throw InputError(file_, path(), "not valid JSON: " + json_error_text(e.what()) + csv_hint(file_));
  }

private:
  // A "\u0000" in a string or key: no name, unit or path the tool reads holds one, and a NUL byte would cut the
  // error line (or a file name) short wherever the text is passed on as a C string.
  static constexpr const char* kNulReason = "holds a NUL character (\\u0000): no key or value takes one";
  struct Frame {
    Json* node;
    std::string key;  // last key read (objects)
  };
  [[noreturn]] void fail(const std::string& reason) { throw InputError(file_, path(), reason); }
  std::string path() const {
    std::string p;
    for (std::size_t i = 0; i < stack_.size(); ++i) {
      const Frame& f = stack_[i];
      const bool inner = i + 1 < stack_.size();  // an element of this frame is still being parsed
      if (f.node->is_object()) {
        if (f.key.empty()) break;
        p += (p.empty() ? "" : ".") + f.key;
      } else {
        p += "[" + std::to_string(f.node->size() - (inner ? 1 : 0)) + "]";
      }
    }
    return p;
  }
  Json* slot(Json v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    Frame& f = stack_.back();
    if (f.node->is_object()) return &((*f.node)[f.key] = std::move(v));
    f.node->push_back(std::move(v));
    return &f.node->back();
  }
  bool put(Json v) {
    if ((++values_ & 0xffff) == 0) throw_if_interrupted();  // a large input stays interruptible (core/signals.hpp)
    slot(std::move(v));
    if (!stack_.empty() && stack_.back().node->is_object()) stack_.back().key.clear();
    return true;
  }
  bool open(Json v) {
    if (static_cast<int>(stack_.size()) >= limits::kMaxJsonDepth)
      fail(fmt::format("nested deeper than {} levels (the limit for input files)", limits::kMaxJsonDepth));
    Json* n = slot(std::move(v));
    stack_.push_back({n, ""});
    return true;
  }
  bool close() {
    stack_.pop_back();
    if (!stack_.empty() && stack_.back().node->is_object()) stack_.back().key.clear();
    return true;
  }
  const std::string& file_;
  std::vector<Frame> stack_;
  std::uint64_t values_ = 0;
};
}  // namespace

Json parse_json_text(const std::string& text, const std::string& file) {
  if (auto nul = text.find('\0'); nul != std::string::npos)
    throw InputError(file, "", fmt::format("contains a NUL byte at offset {} (not a JSON text file)", nul));
  BoundedBuilder b(file);
  try {
    Json::sax_parse(text, &b);
  } catch (const Json::exception& e) {
    throw InputError(file, "", "not valid JSON: " + json_error_text(e.what()) + csv_hint(file));
  }
  return std::move(b.root);
}

static std::string read_input_text(const std::string& path) {
  const std::size_t limit = limits::max_input_bytes();
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);  // O_NONBLOCK: opening a FIFO does not wait
  if (fd < 0) throw InputError(path, "", fmt::format("cannot open file ({})", std::strerror(errno)));
  struct FdGuard {
    int fd;
    ~FdGuard() { ::close(fd); }
  } guard{fd};
  struct stat st{};
  if (fstat(fd, &st) != 0) throw InputError(path, "", fmt::format("cannot stat file ({})", std::strerror(errno)));
  if (!S_ISREG(st.st_mode))
    throw InputError(path, "", S_ISDIR(st.st_mode) ? "is a directory, expected a JSON file"
                                                   : "is not a regular file (device, FIFO or socket), expected a JSON file");
  if (static_cast<unsigned long long>(st.st_size) > limit)
    throw InputError(path, "", fmt::format("file is {} bytes, above the input limit of {} bytes (--max-input-size)",
                                           static_cast<long long>(st.st_size), limit));
  std::string text;
  text.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  while (got < text.size()) {
    ssize_t k = ::read(fd, text.data() + got, text.size() - got);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) throw InputError(path, "", fmt::format("cannot read file ({})", std::strerror(errno)));
    if (k == 0) break;
    got += static_cast<std::size_t>(k);
  }
  text.resize(got);
  char extra;
  if (::read(fd, &extra, 1) > 0)  // grew while being read: still bounded
    throw InputError(path, "", st.st_size == 0 ? std::string("a file whose size says 0 bytes gave more when read (a "
                                                             "/proc or /sys file?): not a JSON file")
                                               : fmt::format("file grew while read, above {} bytes", st.st_size));
  return text;
}

Json load_json_file(const std::string& path) { return parse_json_text(read_input_text(path), path); }

std::vector<std::string> member_keys_in_written_order(const std::string& path, const std::string& member) {
  const std::string text = read_input_text(path);
  parse_json_text(text, path);  // the same bounds and checks as load_json_file
  const auto doc = nlohmann::ordered_json::parse(text);
  std::vector<std::string> keys;
  if (!doc.is_object() || !doc.contains(member) || !doc[member].is_object()) return keys;
  for (auto it = doc[member].begin(); it != doc[member].end(); ++it) keys.push_back(it.key());
  return keys;
}

static size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> did_you_mean_all(const std::string& key, const std::vector<std::string>& candidates) {
  // Edits allowed: 3, or a third of a long key's letters, and fewer than the key has: 'foo' is not a misspelling of
  // 'flat' (3 edits of 3 letters), 'ompi' is one of 'openmpi' (3 of 4).
  // The same name in other letter case ("Cielo", "OpenMPI", "SimGrid"): that name, whatever the edit count.
  auto lower = [](std::string v) {
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char ch) { return std::tolower(ch); });
    return v;
  };
  for (auto& c : candidates)
    if (c != key && lower(c) == lower(key)) return {c};
  std::string best;
  size_t best_d = std::max<size_t>(1, std::min(std::max<size_t>(3, key.size() / 3), key.size() - 1)) + 1;
  for (auto& c : candidates) {
    size_t d = edit_distance(key, c);
    if (d < best_d) best_d = d, best = c;
  }
  if (!best.empty()) return {best};
  if (key.size() < 4) return {};
  // A part of a name: its beginning ("hetero" of "heterogeneous") or its last parts ("smsg_limit" of
  // "btl_ugni_smsg_limit"). Up to three such names.
  std::vector<std::string> parts;
  for (auto& c : candidates) {
    const bool head = c.size() > key.size() && c.starts_with(key);
    const bool tail = c.size() > key.size() && c.ends_with(key) &&
                      std::string_view("_./-").find(c[c.size() - key.size() - 1]) != std::string_view::npos;
    if ((head || tail) && std::find(parts.begin(), parts.end(), c) == parts.end()) parts.push_back(c);
  }
  if (parts.size() > 3) return {};
  return parts;
}

std::string did_you_mean(const std::string& key, const std::vector<std::string>& candidates) {
  const auto names = did_you_mean_all(key, candidates);
  return names.empty() ? std::string() : fmt::format("{}", fmt::join(names, "' or '"));
}

ObjectReader::ObjectReader(const Json& obj, std::string file, std::string path)
    : obj_(obj), file_(std::move(file)), path_(std::move(path)) {
  if (!obj_.is_object()) throw InputError(file_, path_, "expected a JSON object, got " + std::string(obj_.type_name()));
}

void ObjectReader::fail(const std::string& key, const std::string& reason) const {
  throw InputError(file_, key_path(key), reason);
}

void ObjectReader::fail_missing(const std::string& key, const std::string& what, const std::string& detail,
                                const std::vector<std::string>& known) const {
  // A misspelled required key would otherwise read as missing, with the misspelling reported nowhere.
  std::vector<std::string> unread;
  for (auto it = obj_.begin(); it != obj_.end(); ++it)
    if (!read_.count(it.key()) && std::find(known.begin(), known.end(), it.key()) == known.end())
      unread.push_back(it.key());
  const std::string near = did_you_mean(key, unread);
  fail(key, fmt::format("required {} is missing{}{}", what, detail,
                        near.empty() ? "" : " (is '" + near + "' a misspelling of it?)"));
}

const Json& ObjectReader::need(const std::string& key) {
  if (!obj_.contains(key)) fail_missing(key, "key");
  read_.insert(key);
  return obj_.at(key);
}

const Json& ObjectReader::raw(const std::string& key) { return need(key); }

std::string ObjectReader::str(const std::string& key) {
  auto& v = need(key);
  if (!v.is_string()) fail(key, fmt::format("expected a string, got {} ({})", v.type_name(), v.dump()));
  return v.get<std::string>();
}
std::optional<std::string> ObjectReader::opt_str(const std::string& key) {
  if (!has(key)) return std::nullopt;
  return str(key);
}

namespace {
// A whole number above the largest long long (JSON's unsigned 64-bit range): read as long long it would wrap to a
// negative value and be echoed as one ("value -1 is out of range" for 18446744073709551615).
bool beyond_long_long(const Json& v) {
  return v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(LLONG_MAX);
}
std::string beyond_long_long_text(const Json& v) {
  return fmt::format("value {} is beyond the largest whole number read ({})", v.dump(), LLONG_MAX);
}
}  // namespace

long long ObjectReader::integer(const std::string& key, long long min, long long max) {
  auto& v = need(key);
  if (!v.is_number_integer()) fail(key, fmt::format("expected an integer, got {} ({})", v.type_name(), v.dump()));
  if (beyond_long_long(v)) fail(key, beyond_long_long_text(v));
  long long x = v.get<long long>();
  if (x < min || x > max) fail(key, fmt::format("value {} is out of range [{}, {}]", x, min, max));
  return x;
}
std::optional<long long> ObjectReader::opt_integer(const std::string& key, long long min, long long max) {
  if (!has(key)) return std::nullopt;
  return integer(key, min, max);
}

double ObjectReader::number(const std::string& key, double min, double max) {
  auto& v = need(key);
  if (!v.is_number()) fail(key, fmt::format("expected a number, got {} ({})", v.type_name(), v.dump()));
  double x = v.get<double>();
  if (x < min || x > max) fail(key, fmt::format("value {} is out of range [{}, {}]", x, min, max));
  return x;
}

double json_quantity(const Json& v, Dim d, const std::string& file, const std::string& key) {
  if ((d == Dim::Bytes || d == Dim::Count) && beyond_long_long(v)) throw InputError(file, key, beyond_long_long_text(v));
  if (d == Dim::Bytes && v.is_number_integer()) return static_cast<double>(v.get<long long>());
  if (d == Dim::Count && v.is_number_integer()) return static_cast<double>(v.get<long long>());
  if (d == Dim::Ratio && v.is_number()) return v.get<double>();
  if (d == Dim::Count && !v.is_string())
    throw InputError(file, key, fmt::format("expected a count (a whole number, e.g. 4), got {}", v.dump()));
  // a size written in floating point (512.0, 1e3, 0.5): a number of bytes is whole, and written as an integer
  if (d == Dim::Bytes && v.is_number_float()) {
    const double x = v.get<double>();
    const char* form = "a size is an integer (512) or a string with its unit (\"8 KiB\")";
    throw InputError(file, key,
                     x != std::floor(x) ? fmt::format("{} is not a whole number of bytes: {}", v.dump(), form)
                     : std::fabs(x) >= 1e15
                         ? fmt::format("{} is far beyond any size in bytes here (and written in floating point): {}",
                                       v.dump(), form)
                         : fmt::format("{} is written in floating point (a decimal point or an exponent): a size in "
                                       "bytes is an integer, written {:.0f} (or as a string with its unit, \"{:.0f} "
                                       "B\")", v.dump(), x, x));
  }
  if (!v.is_string())
    throw InputError(file, key,
                     fmt::format("expected a {} as a string with its unit (e.g. {}), got {}", to_string(d),
                                 d == Dim::Time ? "\"1.5 us\"" : d == Dim::Rate ? "\"5 GB/s\"" : "\"8 KiB\"",
                                 v.dump()));
  double x;
  try {
    x = parse_quantity(v.get<std::string>(), d);
  } catch (const std::invalid_argument& e) {
    throw InputError(file, key, e.what());
  }
  // A count is whole: "1.5" would be rounded somewhere, silently.
  if (d == Dim::Count && x != std::floor(x))
    throw InputError(file, key, fmt::format("'{}' is not a whole number (a count)", v.get<std::string>()));
  return x;
}

double ObjectReader::quantity(const std::string& key, Dim d, double min, double max) {
  double x = json_quantity(need(key), d, file_, key_path(key));
  if (x < min || x > max)
    fail(key, fmt::format("value {} is out of range [{}, {}]", format_quantity(x, d), format_quantity(min, d),
                          format_quantity(max, d)));
  return x;
}
std::optional<double> ObjectReader::opt_quantity(const std::string& key, Dim d, double min, double max) {
  if (!has(key)) return std::nullopt;
  return quantity(key, d, min, max);
}

bool ObjectReader::boolean(const std::string& key) {
  auto& v = need(key);
  if (!v.is_boolean()) fail(key, fmt::format("expected true or false, got {}", v.dump()));
  return v.get<bool>();
}

ObjectReader ObjectReader::object(const std::string& key) { return ObjectReader(need(key), file_, key_path(key)); }

std::vector<long long> ObjectReader::int_list(const std::string& key, long long min, long long max) {
  auto& v = need(key);
  if (!v.is_array()) fail(key, fmt::format("expected a list of integers, got {}", v.dump()));
  std::vector<long long> out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number_integer())
      fail(key + "[" + std::to_string(i) + "]", fmt::format("expected an integer, got {}", v[i].dump()));
    if (beyond_long_long(v[i])) fail(key + "[" + std::to_string(i) + "]", beyond_long_long_text(v[i]));
    long long x = v[i].get<long long>();
    if (x < min || x > max)
      fail(key + "[" + std::to_string(i) + "]", fmt::format("value {} is out of range [{}, {}]", x, min, max));
    out.push_back(x);
  }
  return out;
}

void ObjectReader::finish(const std::vector<std::string>& also_allowed) {
  // The keys offered in a hint: those read and the declared ones; without a declaration, those the reader asked for
  // too (with one, a key only asked for may be one the reader looks for to refuse it: osu_latency's "side").
  std::vector<std::string> known(read_.begin(), read_.end());
  if (also_allowed.empty()) known.insert(known.end(), asked_.begin(), asked_.end());
  known.insert(known.end(), also_allowed.begin(), also_allowed.end());
  for (auto it = obj_.begin(); it != obj_.end(); ++it) {
    const std::string& k = it.key();
    if (read_.count(k) || std::find(also_allowed.begin(), also_allowed.end(), k) != also_allowed.end()) continue;
    std::string hint = did_you_mean(k, known);
    if (!hint.empty()) fail(k, "unknown key (did you mean '" + hint + "'?)");
    // no close name: the keys this object takes, when they are few enough to read in one line
    std::vector<std::string> names(known);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    if (names.empty() || names.size() > 24) fail(k, "unknown key");
    fail(k, fmt::format("unknown key (known here: {})", fmt::join(names, ", ")));
  }
}

}  // namespace ompisim
