// Writing results: whole files only, and only inside the output folder the user chose.
//  - write_file_atomic: a temporary in the same folder (created exclusively, never through a symlink), then rename;
//    rename would replace a symlink at the destination: OutputDir::file and check_output_path refuse one first.
//  - publish_pair: a result's CSV and JSON as a pair. Both temporaries are written first; the old JSON is removed,
//    the CSV renamed into place, and the JSON renamed last. The JSON is the marker: whenever it exists, the CSV beside
//    it is its own, whole. A process killed in between leaves a CSV without JSON (and .tmp files), never a JSON
//    without its CSV or a JSON next to an older CSV. The renames hold an exclusive lock on the folder (flock), so two
//    runs publishing one result at once leave one run's pair.
//  - The temporaries a killed run left for a file ("<file>.tmp.<pid>.<n>", or a trace's "<file>.tmp.<pid>", whose
//    pid no longer runs) are removed when a later run writes that file (remove_stale_temporaries); a running
//    process's are left alone, and so is every other file.
//  - A file the file system refuses (a full disk, a quota, a folder that is a file) is InputError naming the result
//    file (exit 2: the output place, not a bug), with nothing already there replaced.
//  - OutputDir: --out resolved once (a symlinked --out is followed there, once, and results go into its target);
//    below it, every folder component is a safe name (core/safe_name.hpp) and a symlink inside it (a folder or the
//    file itself) is refused, so no route leads out of it and no link is replaced.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace ompisim {

// `remove_stale` false: the caller removed the folder's stale temporaries itself (a sweep's points/, read once before
// its point processes start, each of which would read the whole folder again).
void write_file_atomic(const std::string& path, const std::string& text, bool remove_stale = true);
// Removes the temporaries of `path` that a process no longer running left (write_file_atomic and publish_pair call
// it; a trace writer before it starts). Its folder is read once per process.
void remove_stale_temporaries(const std::string& path);
// `between` (tests only) runs after the CSV is in place and before the JSON is: a kill there must leave no JSON.
void publish_pair(const std::string& json_path, const std::string& json_text, const std::string& csv_path,
                  const std::string& csv_text, const std::function<void()>& between = {});

// An output file at a path the user gave (an absolute --plot or --trace): its folder exists and is writable, and it
// is neither a folder nor a symbolic link (a link is refused, never replaced), and its name does not start with '-'.
// InputError(option, path, reason).
void check_output_path(const std::string& path, const std::string& option);

class OutputDir {
public:
  // Creates the folder (and parents) when missing, resolves it (symlinks followed once, here) and checks that a file
  // can be created in it. InputError("--out", dir, reason) otherwise.
  explicit OutputDir(const std::string& dir, const std::string& option = "--out");
  const std::string& root() const { return root_; }  // canonical
  // The path of `rel` ("a/b.json") inside root, creating its folders. Every component must be a safe name, no folder
  // component may be a symlink, and the result must resolve inside root: InputError otherwise.
  // `option` names the flag that gave `rel` in errors (default: the folder's own, "--out").
  std::string file(const std::string& rel, const std::string& option = "") const;
  // Removes the folder when this object created it and it is still empty (a run that failed before writing), and
  // the parents it created with it that are empty too (ompisim-out/ of a default ompisim-out/<id>/).
  void discard_if_unused() const;
  // The folders discard_if_unused would remove when empty, innermost first (none when this object created none).
  std::vector<std::string> created_folders() const;

private:
  std::string option_, given_, root_;
  bool created_ = false;
  std::string top_created_;  // the outermost folder this object created (a parent of root_ or root_ itself)
};

}  // namespace ompisim
