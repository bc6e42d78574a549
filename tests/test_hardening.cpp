// Bounded JSON input, the name rule for paths, the output folder and the result pair.
#include "core/atomic_write.hpp"
#include "core/error_text.hpp"
#include "core/json_input.hpp"
#include "core/limits.hpp"
#include "core/safe_name.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace ompisim;
namespace fs = std::filesystem;

namespace {
std::string error_of(const std::string& text) {
  try {
    parse_json_text(text, "f.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
struct TempDir {
  fs::path p;
  TempDir() {
    char tmpl[] = "/tmp/ompisim-test-XXXXXX";
    p = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(p); }
};
std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
}  // namespace

// Configuration: documents at, and one past, the nesting limit; 100,000 levels. Expected: the limit passes, one past
// it and the deep one are InputErrors naming the file (no recursion, so no stack overflow). How validated: messages.
TEST_CASE("json input: nesting is bounded", "[unit][input]") {
  std::string ok = std::string(limits::kMaxJsonDepth, '[') + std::string(limits::kMaxJsonDepth, ']');
  CHECK(parse_json_text(ok, "f.json").is_array());
  std::string deep = std::string(limits::kMaxJsonDepth + 1, '[') + std::string(limits::kMaxJsonDepth + 1, ']');
  CHECK_THAT(error_of(deep), Catch::Contains("f.json") && Catch::Contains("nested deeper than 64"));
  std::string huge;
  for (int i = 0; i < 100000; ++i) huge += "{\"a\":";
  CHECK_THAT(error_of(huge), Catch::Contains("nested deeper"));
}

// Configuration: duplicate keys at the top and nested; 1e400 under a key and in a list; a syntax error; a CSV file
// read as JSON. Expected: InputErrors naming the key path; the CSV's names the JSON beside it. How validated: messages.
TEST_CASE("json input: duplicate keys and overflowing numbers name the key", "[unit][input]") {
  CHECK_THAT(error_of(R"({"ranks": 2, "ranks": 4})"), Catch::Contains("key 'ranks'") && Catch::Contains("duplicate"));
  CHECK_THAT(error_of(R"({"b": {"x": 1, "y": 2, "x": 3}})"), Catch::Contains("key 'b.x'"));
  CHECK_THAT(error_of(R"({"mca": {"btl_ugni_eager_limit": 1e400}})"),
             Catch::Contains("key 'mca.btl_ugni_eager_limit'") && Catch::Contains("overflows"));
  CHECK_THAT(error_of(R"({"b": {"sizes": [1, 2, -1e400]}})"), Catch::Contains("key 'b.sizes[2]'"));
  CHECK_THAT(error_of(R"({"a": )"), Catch::Contains("not valid JSON"));
  // a result's CSV where its JSON is read: the message names the .json beside it
  try {
    (void)parse_json_text("bytes,latency_us\n8,1.5\n", "r.csv");
    FAIL_CHECK("a CSV parsed as JSON");
  } catch (const InputError& e) {
    CHECK_THAT(e.reason(), Catch::Contains("not valid JSON") && Catch::Contains("the .json file beside its .csv"));
  }
  // Same keys in sibling objects are fine; the values are kept.
  Json j = parse_json_text(R"({"a": {"x": 1}, "b": {"x": 2}, "l": [{"x": 3}, {"x": 4}]})", "f.json");
  CHECK(j["b"]["x"] == 2);
  CHECK(j["l"][1]["x"] == 4);
}

// Configuration: a directory, /dev/zero, a FIFO and a file above the limit. Expected: refused before reading (the
// FIFO has no writer: reading it would block). How validated: messages.
TEST_CASE("json input: only regular files of bounded size are read", "[unit][input]") {
  TempDir t;
  auto err = [](const std::string& p) {
    try {
      load_json_file(p);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(err(t.p.string()), Catch::Contains("is a directory"));
  CHECK_THAT(err("/dev/zero"), Catch::Contains("not a regular file"));
  fs::path fifo = t.p / "fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THAT(err(fifo.string()), Catch::Contains("not a regular file"));
  fs::path big = t.p / "big.json";
  std::ofstream(big) << "[" << std::string(limits::max_input_bytes(), ' ') << "]";
  CHECK_THAT(err(big.string()), Catch::Contains("above the input limit"));
  limits::set_max_input_bytes(limits::max_input_bytes() * 2);
  CHECK(load_json_file(big.string()).is_array());
  limits::set_max_input_bytes(limits::kDefaultMaxInputBytes);
}

// Configuration: names that would leave a folder, and ordinary ones. Expected: the rule of core/safe_name.hpp.
TEST_CASE("safe names: one rule for every name that becomes a path", "[unit][input]") {
  for (const char* ok : {"fig5_latency_2p", "cielo", "red-storm", "a.b", "X9"}) CHECK(is_safe_name(ok));
  for (const char* bad : {"", ".", "..", "../x", "/etc/passwd", "a/b", ".hidden", "a b", "Fig. 2", "a\\b", "x\n", "-x", "--force"})
    CHECK_FALSE(is_safe_name(bad));
  CHECK(is_safe_name(std::string(limits::kMaxNameLength, 'a')));
  CHECK_FALSE(is_safe_name(std::string(limits::kMaxNameLength + 1, 'a')));
  CHECK_THROWS_AS(check_safe_name("../../escaped", "s.json", "id"), InputError);
  CHECK(label_stem("Fig. 2", "s.json", "figure") == "fig2");
  CHECK(label_stem("fig5", "s.json", "figure") == "fig5");
  CHECK_THROWS_AS(label_stem("../fig2", "s.json", "figure"), InputError);
  CHECK_THROWS_AS(label_stem("...", "s.json", "figure"), InputError);
  CHECK_THROWS_AS(label_stem("-fig2", "s.json", "figure"), InputError);
}

// Configuration: an output folder holding a symlink to a folder elsewhere, and a symlinked result file.
// Expected: a path through the symlinked folder is refused; a symlinked result file is refused, the link and its
// target untouched; a symlinked --out is resolved once. How validated: file contents and errors.
TEST_CASE("output folder: nothing is written outside it", "[unit][output]") {
  TempDir t;
  fs::create_directories(t.p / "elsewhere");
  fs::create_directories(t.p / "out");
  fs::create_directory_symlink(t.p / "elsewhere", t.p / "out" / "gemini");
  OutputDir out((t.p / "out").string());
  CHECK_THROWS_AS(out.file("gemini/x.json"), InputError);
  CHECK_THROWS_AS(out.file("../x.json"), InputError);
  CHECK_THROWS_AS(out.file("/etc/x.json"), InputError);
  std::ofstream(t.p / "victim") << "precious";
  fs::create_symlink(t.p / "victim", t.p / "out" / "r.json");
  CHECK_THROWS_WITH(out.file("r.json"), Catch::Contains("symbolic link: refusing to replace it"));
  CHECK(slurp(t.p / "victim") == "precious");
  CHECK(fs::is_symlink(t.p / "out" / "r.json"));
  fs::create_directory_symlink(t.p / "elsewhere", t.p / "link");
  OutputDir via_link((t.p / "link").string());
  CHECK(via_link.root() == fs::canonical(t.p / "elsewhere").string());
  CHECK_THROWS_AS(OutputDir((t.p / "victim" / "sub").string()), InputError);  // under a regular file
}

// Configuration: a pair published over an older pair, with a failure injected after the CSV is in place and before
// the JSON is. Expected: no JSON at all (the old one, the marker, was removed first), the new CSV, no temporaries
// left; a clean publish afterwards leaves both. How validated: directory listing and contents.
TEST_CASE("result pair: the JSON is published last, as the marker", "[unit][output]") {
  TempDir t;
  std::string j = (t.p / "r.json").string(), c = (t.p / "r.csv").string();
  publish_pair(j, "old json", c, "old csv");
  CHECK_THROWS(publish_pair(j, "new json", c, "new csv", [] { throw std::runtime_error("killed"); }));
  CHECK_FALSE(fs::exists(j));
  CHECK(slurp(c) == "new csv");
  int files = 0;
  for (auto& e : fs::directory_iterator(t.p)) files += 1 + (e.path().string().find(".tmp.") != std::string::npos ? 100 : 0);
  CHECK(files == 1);
  publish_pair(j, "new json", c, "new csv");
  CHECK(slurp(j) == "new json");
  CHECK(slurp(c) == "new csv");
}

// Configuration: messages echoing a 100,000-character key, a value with newlines, a tab and an escape byte, a long
// number without quotes, a long path, and possessives ("rank 0's"). Expected: an echo longer than 80 characters is cut
// to 80 and its length; control characters escaped; a path kept whole; apostrophes untouched; short text unchanged.
// How validated: the strings.
TEST_CASE("error text: one bounded line", "[unit][input]") {
  const std::string key(100000, 'k');
  const std::string m = one_line("--set: key '" + key + "': unknown parameter");
  CHECK(m == "--set: key '" + std::string(80, 'k') + "...' (100000 bytes): unknown parameter");
  CHECK(one_line("--set: key 'nic.L': '1\nus\tx\x1b' is not a time") == "--set: key 'nic.L': '1\\nus\\tx\\x1b' is not a time");
  CHECK(one_line("number " + std::string(300, '9') + " overflows") ==
        "number " + std::string(80, '9') + "... (300 bytes) overflows");
  const std::string path = "/tmp/" + std::string(200, 'd') + "/rank-3.txt:";
  CHECK(one_line(path + " line 5: rank 0's send to rank 1 is never received") ==
        path + " line 5: rank 0's send to rank 1 is never received");
  CHECK(one_line("plain message, nothing to cut") == "plain message, nothing to cut");
  CHECK(one_line("'unclosed " + std::string(100, 'u')).find("(100 bytes)") != std::string::npos);
}

// Configuration: a name with a BEL byte, refused as a path name and shown as an error line; a description holding an
// escape sequence, a carriage return and a newline, made printable.
// Expected: the BEL shown as \x07 in the error line (not '?'), the description on one line with every control
// character escaped, its UTF-8 kept.
// How validated: the strings.
TEST_CASE("error text: control characters in names and descriptions are escaped, not dropped", "[unit][input]") {
  try {
    check_safe_name("a\x07" "b", "s.json", "id");
    FAIL("a name with a BEL byte was accepted");
  } catch (const InputError& e) {
    CHECK(one_line(e.what()).find("'a\\x07b' is not a valid name") != std::string::npos);
  }
  CHECK(printable("evil \x1b[2J title\r\nforged line, 5 \xc2\xb5s") == "evil \\x1b[2J title\\r\\nforged line, 5 \xc2\xb5s");
}

// Configuration: echoed input holding a Latin-1 byte (a file saved as ISO-8859-1: "caf\xe9"), well-formed UTF-8
// ("café", "µs", a 4-byte emoji), a lone continuation byte, a surrogate, and a long value whose cut falls inside a
// 2-byte and a 4-byte character. Expected: valid UTF-8 passes unchanged, every other byte is written \xNN, and a cut
// never splits a character (the line stays valid UTF-8 for a terminal or a log reader; a raw 0xE9 was echoed before).
// How validated: the strings.
TEST_CASE("error text: the line is valid UTF-8", "[unit][input]") {
  CHECK(one_line("last read: '\"caf\xe9\"'") == "last read: '\"caf\\xe9\"'");
  CHECK(one_line("'caf\xc3\xa9' and '1 \xc2\xb5s' and '\xf0\x9f\x98\x80'") ==
        "'caf\xc3\xa9' and '1 \xc2\xb5s' and '\xf0\x9f\x98\x80'");
  CHECK(one_line("x\x80y \xed\xa0\x80 \xc0\xaf") == "x\\x80y \\xed\\xa0\\x80 \\xc0\\xaf");
  const std::string two = std::string(79, 'a') + "\xc3\xa9" + std::string(20, 'b');  // the 80th byte starts 'é'
  CHECK(one_line("key '" + two + "'") == "key '" + std::string(79, 'a') + "...' (101 bytes)");
  const std::string four = std::string(78, 'a') + "\xf0\x9f\x98\x80" + std::string(20, 'b');
  CHECK(one_line("key '" + four + "'") == "key '" + std::string(78, 'a') + "...' (102 bytes)");
  const std::string fits = std::string(78, 'a') + "\xc3\xa9" + std::string(20, 'b');  // 'é' ends at byte 80
  CHECK(one_line("key '" + fits + "'") == "key '" + std::string(78, 'a') + "\xc3\xa9...' (100 bytes)");
}

// Configuration: a valid document followed by one NUL byte, and one with a NUL inside a string. Expected: an
// InputError naming the file and the offset (a NUL is not JSON text). How validated: messages.
TEST_CASE("json input: a NUL byte is refused", "[unit][input]") {
  CHECK_THAT(error_of(std::string("{\"a\": 1}") + '\0'), Catch::Contains("f.json") && Catch::Contains("NUL byte at offset 8"));
  CHECK_THAT(error_of(std::string("{\"a\": \"x") + '\0' + "y\"}"), Catch::Contains("NUL byte at offset 8"));
}

// Configuration: the file name of a 128-character id with its suffix, and one of 300 characters. Expected: the first
// is accepted (the documented maximum id), the second refused. How validated: the exception.
TEST_CASE("output folder: a file named after an id of the maximum length is accepted", "[unit][output]") {
  TempDir d;
  OutputDir out(d.p.string());
  CHECK_NOTHROW(out.file(std::string(128, 'i') + ".json"));
  CHECK_THROWS_WITH(out.file(std::string(300, 'i') + ".json"), Catch::Contains("is not a valid name"));
}
