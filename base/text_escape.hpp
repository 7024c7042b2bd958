#pragma once
// Text from input files (zone, trace and job names, descriptions, quoted values) printed to a terminal, a table, a
// markdown report or an error message. A name may hold bytes that a terminal obeys instead of showing: ESC starts
// a control sequence (colours, cursor moves, window titles), the bidi overrides (U+202E) reorder what follows, NUL
// cuts a C string. They are shown as escapes instead, so what the user sees is what the file says.
#include <string>
#include <string_view>

namespace spotsim {

// Every C0 control (including newline and tab), DEL and C1 control as \xNN (C1: \u0080..\u009f), the bidi controls
// U+061C, U+200E/F, U+202A-U+202E, U+2066-U+2069 and the line/paragraph separators U+2028/9 as \uXXXX, and bytes
// that are not UTF-8 as \xNN. Everything else, including other non-ASCII text and the backslash, is kept. The
// result holds none of the escaped characters, so escaping twice changes nothing.
std::string escape_control_characters(std::string_view text);

// A cell of a markdown table: escaped as above, with '|' (which would end the cell) written as '\|'.
std::string escape_markdown_cell(std::string_view text);

// Text inside XML or HTML (the report, JUnit files): & < > " as entities and ' as `apostrophe` ("&apos;" in XML,
// "&#39;" in HTML); tab, newline and carriage return kept; every other C0 control and DEL as U+FFFD, which neither
// format may carry.
std::string escape_markup(std::string_view text, std::string_view apostrophe);

// Whether `text` is valid UTF-8 (every output is JSON or text read as UTF-8).
bool is_valid_utf8(std::string_view text);
// InputError "WHAT: expected UTF-8 text, got byte 0xE9 at position 5 ('caf\xe9')" when it is not: names that must
// reach an output exactly (zone, trace and job names) are checked where they enter.
void require_utf8(std::string_view text, const std::string& what);

// Whether a CSV field must be quoted (RFC 4180): it holds a comma, a double quote, a line break (\n or \r) or
// any other C0 control character (NUL included), which some CSV readers otherwise mangle.
bool csv_needs_quoting(std::string_view text);

}  // namespace spotsim
