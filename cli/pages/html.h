// cli/pages/html.h
//
// The HTML that `ckptsim index` writes: escaping, and a writer that cannot
// produce a page a browser (or an XML parser) would have to repair. Every
// element is closed in the order it was opened (close() names the tag it
// expects), void elements are written self-closed, every attribute value is
// quoted and escaped, and text is escaped, so a run folder named
// `a<b&"c"` reads back as itself.
//
// Script and style content is raw text: the writer refuses content holding
// "</" (which would end the element early); embedded JSON goes through
// json_for_script, which escapes every '<' as \u003c.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace ckptsim::cli::html {

// & < > " ' as entities.
std::string escape(std::string_view text);

// A relative path as a URL: '/' between the parts, anything but letters,
// digits and -._~=,+ percent-encoded (a folder "checkpoint_sorting=true"
// stays readable, "a b#c" becomes "a%20b%23c", and "javascript:x" becomes
// "javascript%3Ax", a path: a ':' in the first part would make it a scheme).
std::string url_of(const std::filesystem::path& relative);

// JSON text safe inside <script type="application/json">.
std::string json_for_script(const nlohmann::ordered_json& value);

using Attributes = std::vector<std::pair<std::string, std::string>>;

class Writer {
 public:
  // Starts "<!DOCTYPE html>" and <html lang="en">.
  Writer();

  Writer& open(std::string_view tag, const Attributes& attributes = {});
  Writer& close(std::string_view tag);  // throws std::logic_error if `tag` is not the innermost open one
  Writer& empty(std::string_view tag, const Attributes& attributes = {});  // <img ... />
  Writer& text(std::string_view text);
  // Text that a narrow table cell may wrap after each '/', ',' and '_' (a <wbr />
  // there), as long folder names and setting names need.
  Writer& breakable_text(std::string_view text);
  // <tag attributes>text</tag>
  Writer& element(std::string_view tag, std::string_view text, const Attributes& attributes = {});
  // <script> / <style> content, verbatim.
  Writer& raw_text(std::string_view tag, std::string_view content, const Attributes& attributes = {});
  // An asset file (cli/pages/assets/) as a <script> / <style>, verbatim, starting on a line of its own.
  Writer& raw_block(std::string_view tag, std::string_view content);

  // Closes <html>; throws std::logic_error if any other element is still open.
  std::string finish();

 private:
  void start_tag(std::string_view tag, const Attributes& attributes);
  std::string out_;
  std::vector<std::string> open_;
};

}  // namespace ckptsim::cli::html
