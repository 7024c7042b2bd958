#include "base/text_escape.hpp"

#include <cstdint>
#include <cstdio>

#include "base/errors.hpp"

namespace spotsim {

namespace {

// The length of the UTF-8 sequence starting at text[i] and its code point; 0 if the bytes are not UTF-8
// (overlong forms and surrogates included, as a terminal might still act on them).
std::size_t decode_utf8(std::string_view text, std::size_t i, char32_t& code_point) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length;
  char32_t minimum;
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  } else if ((lead & 0xE0) == 0xC0) {
    length = 2, minimum = 0x80, code_point = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, minimum = 0x800, code_point = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, minimum = 0x10000, code_point = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(i + k) & 0x3F);
  }
  if (code_point < minimum || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF)) return 0;
  return length;
}

bool is_invisible_control(char32_t c) {
  return (c >= 0x80 && c <= 0x9F) || c == 0x061C || c == 0x200E || c == 0x200F || c == 0x2028 || c == 0x2029 ||
         (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

void append_hex(std::string& out, const char* format, unsigned value) {
  char buffer[12];
  std::snprintf(buffer, sizeof buffer, format, value);
  out += buffer;
}

}  // namespace

std::string escape_control_characters(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t c = 0;
    const std::size_t length = decode_utf8(text, i, c);
    if (length == 0) {
      append_hex(out, "\\x%02x", static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7F)
      append_hex(out, "\\x%02x", static_cast<unsigned>(c));
    else if (is_invisible_control(c))
      append_hex(out, "\\u%04x", static_cast<unsigned>(c));
    else
      out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

std::string escape_markdown_cell(std::string_view text) {
  const std::string escaped = escape_control_characters(text);
  std::string out;
  out.reserve(escaped.size());
  for (const char c : escaped) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string escape_markup(std::string_view text, std::string_view apostrophe) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += apostrophe; break;
      case '\t':
      case '\n':
      case '\r': out += c; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += "\xEF\xBF\xBD";  // U+FFFD
        } else {
          out += c;
        }
    }
  }
  return out;
}

bool csv_needs_quoting(std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == ',' || c == '"' || byte < 0x20 || byte == 0x7F) return true;
  }
  return false;
}

bool is_valid_utf8(std::string_view text) {
  char32_t c = 0;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = decode_utf8(text, i, c);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

void require_utf8(std::string_view text, const std::string& what) {
  char32_t c = 0;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = decode_utf8(text, i, c);
    if (length == 0) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      const auto byte = static_cast<unsigned char>(text[i]);
      throw InputError(what + ": expected UTF-8 text, got byte 0x" + kHex[byte >> 4] + kHex[byte & 15] +
                       " at position " + std::to_string(i) + " ('" + escape_control_characters(text.substr(0, 80)) +
                       "')");
    }
    i += length;
  }
}

}  // namespace spotsim
