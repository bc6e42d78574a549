// Errors that cross module boundaries. InputError is a user mistake (exit status 2); ProtocolError is an impossible
// (state, event) pair in a protocol state machine (a bug in the model, never a user mistake).
#pragma once
#include <stdexcept>
#include <string>

namespace ompisim {

// A bad input: names the file, the key path and the reason, laid out on one line. Where the "file" is a command-line
// option ("--samples"), the "key" is what was given to it, and the text says so: "--samples '-1': must be 0 to 1000"
// (a file's key is "x.json: key 'ranks': ...").
class InputError : public std::runtime_error {
public:
  InputError(std::string file, std::string key, std::string reason)
      : std::runtime_error(text(file, key, reason)), file_(std::move(file)), key_(std::move(key)),
        reason_(std::move(reason)) {}
  const std::string& file() const { return file_; }
  const std::string& key() const { return key_; }
  const std::string& reason() const { return reason_; }

private:
  static std::string text(const std::string& file, const std::string& key, const std::string& reason) {
    if (file.starts_with("--") && !key.empty()) return file + " '" + key + "': " + reason;
    return (file.empty() ? std::string() : file + ": ") + (key.empty() ? std::string() : "key '" + key + "': ") + reason;
  }
  std::string file_, key_, reason_;
};

class ProtocolError : public std::logic_error {
public:
  ProtocolError(const std::string& machine, const std::string& state, const std::string& event)
      : std::logic_error(machine + ": event '" + event + "' is impossible in state '" + state + "'") {}
};

}  // namespace ompisim
