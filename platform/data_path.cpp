// Where the tool's data is (data_dir), an input file as a user names it (data_path), and the machine files found in
// models/<family>/machines/ (list_machines, machine_file). Declared in data_path.hpp and machine.hpp.
#include "platform/data_path.hpp"

#include "core/json_input.hpp"
#include "platform/machine.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace fs = std::filesystem;

namespace ompisim {

// The data (models/, scenarios/, validation/, collectives/decision/, benchmarks/apps/) is found relative to the
// running program: <prefix>/bin/<tool> reads <prefix>/share/ompisim/. An installed tree has that folder as installed
// files; a build tree has it as a link to the source tree (CMakeLists.txt), so no path is compiled in and a tree can be
// moved. OMPISIM_DATA overrides both. Found once per process.
std::string data_dir() {
  if (const char* d = std::getenv("OMPISIM_DATA"); d && *d) return d;
  static const std::string found = [] {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
      const fs::path share = exe.parent_path().parent_path() / "share" / "ompisim";
      if (fs::is_directory(share / "models", ec)) return share.string();
    }
    return std::string(".");  // neither: the current folder, so a checkout's own root still works
  }();
  return found;
}

void check_data_dir() {
  const char* d = std::getenv("OMPISIM_DATA");
  std::error_code ec;
  if (d && *d && !fs::is_directory(d, ec))
    throw InputError("OMPISIM_DATA", d, "no such folder (the environment variable names the tool's data folder: "
                                        "models/, scenarios/, validation/; unset it to use the installed one)");
}

std::string repo_relative(const std::string& path) {
  std::error_code ec;
  auto root = fs::weakly_canonical(data_dir(), ec);
  auto p = fs::weakly_canonical(path, ec);
  if (ec) return path;
  auto rel = p.lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") return path;  // outside the repository: as the user gave it
  return rel.string();
}

std::string data_path(const std::string& path) {
  std::error_code ec;
  if (path.empty() || fs::path(path).is_absolute() || fs::exists(path, ec)) return path;
  const fs::path in_data = fs::path(data_dir()) / path;
  return fs::exists(in_data, ec) ? in_data.string() : path;
}

std::vector<std::pair<std::string, std::string>> list_machines() {
  std::vector<std::pair<std::string, std::string>> out;
  fs::path models = fs::path(data_dir()) / "models";
  if (!fs::exists(models)) return out;
  for (auto& fam : fs::directory_iterator(models)) {
    fs::path m = fam.path() / "machines";
    if (!fs::is_directory(m)) continue;
    for (auto& f : fs::directory_iterator(m))
      if (f.path().extension() == ".json") out.emplace_back(f.path().stem().string(), f.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string known_machines_text(const std::vector<std::string>& names) {
  if (!names.empty()) return fmt::format("known: {}", fmt::join(names, ", "));
  std::error_code ec;
  const fs::path where = fs::absolute(data_dir(), ec).lexically_normal();
  return fmt::format("no machine file found under {}/*/machines: the tool reads its data from "
                     "<prefix>/share/ompisim beside bin/, from the current folder, or from $OMPISIM_DATA",
                     ((ec ? fs::path(data_dir()) : where) / "models").lexically_normal().string());
}

std::string find_machine_file(const std::string& name, std::vector<std::string>* names) {
  std::vector<std::string> found;
  for (auto& [n, f] : list_machines()) {
    if (n == name) found.push_back(f);
    if (names) names->push_back(n);
  }
  // A machine is named by its file's name, in whichever family folder: two files of one name would make a name mean
  // whichever the folder listing gives first.
  if (found.size() > 1)
    throw InputError("", "machine", fmt::format("machine '{}' is defined by {} files ({}): rename one", name,
                                                found.size(), fmt::join(found, ", ")));
  return found.empty() ? std::string() : found.front();
}

std::string machine_file(const std::string& name) {
  if (name.find('/') != std::string::npos || name.ends_with(".json")) return name;
  std::vector<std::string> names;
  if (std::string f = find_machine_file(name, &names); !f.empty()) return f;
  std::string hint = did_you_mean(name, names);
  throw InputError("", "machine", fmt::format("unknown machine '{}'{} ({})", name,
                                              hint.empty() ? "" : " (did you mean '" + hint + "'?)",
                                              known_machines_text(names)));
}

}  // namespace ompisim
