// Errors that cross module boundaries. InputError is a user mistake (exit status 2); ProtocolError is an impossible
// (state, event) pair in a protocol state machine (a bug in the model, never a user mistake).
#pragma once
#include <stdexcept>
#include <string>

namespace ompisim {

// A bad input: names the file, the key path and the reason, laid out on one line ("x.json: key 'ranks': ..."). An
// error about what a command was given, a command-line option's value ("--samples") or a subcommand's argument
// (of_argument: "describe", "compare"), names it as given, not as a key: "--samples '-1': must be 0 to 1000",
// "describe 'foo': not a machine ...".
class InputError : public std::runtime_error {
public:
  InputError(std::string file, std::string key, std::string reason)
      : InputError(std::move(file), std::move(key), std::move(reason), false) {}
  static InputError of_argument(std::string command, std::string given, std::string reason) {
    return InputError(std::move(command), std::move(given), std::move(reason), true);
  }
  const std::string& file() const { return file_; }
  const std::string& key() const { return key_; }
  const std::string& reason() const { return reason_; }
  // True where key() is what a command or option was given (file() names the command, or the option: "--samples").
  bool argument() const { return argument_; }

private:
  InputError(std::string file, std::string key, std::string reason, bool argument)
      : std::runtime_error(text(file, key, reason, argument || file.starts_with("--"))),
        argument_(argument || file.starts_with("--")), file_(std::move(file)), key_(std::move(key)),
        reason_(std::move(reason)) {}
  static std::string text(const std::string& file, const std::string& key, const std::string& reason, bool given) {
    if (given && !key.empty()) return file + " '" + key + "': " + reason;
    return (file.empty() ? std::string() : file + ": ") + (key.empty() ? std::string() : "key '" + key + "': ") + reason;
  }
  bool argument_ = false;
  std::string file_, key_, reason_;
};

class ProtocolError : public std::logic_error {
public:
  ProtocolError(const std::string& machine, const std::string& state, const std::string& event)
      : std::logic_error(machine + ": event '" + event + "' is impossible in state '" + state + "'") {}
};

}  // namespace ompisim
