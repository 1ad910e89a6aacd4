#include "cli/pages/html.h"

#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

namespace ckptsim::cli::html {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string url_of(const std::filesystem::path& relative) {
  std::string out;
  for (const auto& part : relative) {
    if (!out.empty()) out += '/';
    for (const unsigned char c : part.string()) {
      // ':' is encoded: "javascript:x/run.html" would be a scheme, not a folder.
      const bool plain =
          std::isalnum(c) || std::string_view("-._~=,+").find(static_cast<char>(c)) != std::string_view::npos;
      out += plain ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string json_for_script(const nlohmann::ordered_json& value) {
  // '<' occurs only inside JSON strings, where \u003c means the same.
  const std::string text = value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (const char c : text) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

Writer::Writer() {
  out_ = "<!DOCTYPE html>\n";
  open("html", {{"lang", "en"}});
}

void Writer::start_tag(std::string_view tag, const Attributes& attributes) {
  out_ += '<';
  out_ += tag;
  for (const auto& [name, value] : attributes) out_ += fmt::format(" {}=\"{}\"", name, escape(value));
}

Writer& Writer::open(std::string_view tag, const Attributes& attributes) {
  start_tag(tag, attributes);
  out_ += '>';
  open_.emplace_back(tag);
  return *this;
}

Writer& Writer::close(std::string_view tag) {
  if (open_.empty() || open_.back() != tag)
    throw std::logic_error(fmt::format("html: </{}> closes <{}>", tag, open_.empty() ? "" : open_.back()));
  open_.pop_back();
  out_ += fmt::format("</{}>", tag);
  if (tag != "a" && tag != "span" && tag != "td" && tag != "th" && tag != "code") out_ += '\n';
  return *this;
}

Writer& Writer::empty(std::string_view tag, const Attributes& attributes) {
  start_tag(tag, attributes);
  out_ += " />";
  return *this;
}

Writer& Writer::text(std::string_view text) {
  out_ += escape(text);
  return *this;
}

Writer& Writer::breakable_text(std::string_view text) {
  std::size_t from = 0;
  for (std::size_t at = text.find_first_of("/,_"); at != std::string_view::npos; at = text.find_first_of("/,_", from)) {
    this->text(text.substr(from, at + 1 - from));
    empty("wbr");
    from = at + 1;
  }
  return this->text(text.substr(from));
}

Writer& Writer::element(std::string_view tag, std::string_view text, const Attributes& attributes) {
  return open(tag, attributes).text(text).close(tag);
}

Writer& Writer::raw_text(std::string_view tag, std::string_view content, const Attributes& attributes) {
  if (content.find("</") != std::string_view::npos)
    throw std::logic_error(fmt::format("html: <{}> content holds \"</\"", tag));
  open(tag, attributes);
  out_ += content;
  return close(tag);
}

Writer& Writer::raw_block(std::string_view tag, std::string_view content) {
  std::string block(1, '\n');  // not "\n" + content: GCC 12 warns on it (-Wrestrict, GCC bug 105651)
  block.append(content);
  return raw_text(tag, block);
}

std::string Writer::finish() {
  close("html");
  if (!open_.empty()) throw std::logic_error(fmt::format("html: <{}> left open", open_.back()));
  return std::move(out_);
}

}  // namespace ckptsim::cli::html
