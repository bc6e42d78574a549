// The one rule for names that become part of a file path (scenario id, output stems, figure names, machine names):
// letters, digits, '.', '_' and '-'; not starting with '.' or '-'; at most limits::kMaxNameLength characters. So a
// name can hold no separator, no "..", and cannot be absolute: whatever it names stays inside the folder it is joined
// to; and the file it names is never taken for an option by the shell tools that handle it ("rm -x.json").
#pragma once
#include <string>

namespace ompisim {

bool is_safe_name(const std::string& name);
// Throws InputError(file, key, reason) when `name` breaks the rule; the reason quotes the rule.
void check_safe_name(const std::string& name, const std::string& file, const std::string& key);
// The same rule for a file name the tool writes (a safe name plus a suffix): at most limits::kMaxFileNameLength.
void check_safe_file_name(const std::string& name, const std::string& file, const std::string& key);
// A display label ("Fig. 2") as a file stem ("fig2"): lower case, only letters, digits, '_' and '-' kept. The label
// must hold no separator and not start with '.' or '-', and the stem must be a non-empty safe name: InputError otherwise.
std::string label_stem(const std::string& label, const std::string& file, const std::string& key);

}  // namespace ompisim
