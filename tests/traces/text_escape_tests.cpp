// Control characters from input files (ESC sequences, the right-to-left override, NUL, C1 controls, bytes that
// are not UTF-8) are shown as escapes on terminals, in tables and in error messages; other text is unchanged.
#include <gtest/gtest.h>

#include "base/text_escape.hpp"

namespace spotsim {
namespace {

using namespace std::string_literals;

TEST(TextEscape, ControlCharactersBecomeEscapes) {
  EXPECT_EQ(escape_control_characters("zone\x1b[31mred\x1b[0m"), "zone\\x1b[31mred\\x1b[0m");
  EXPECT_EQ(escape_control_characters("a\0b"s), "a\\x00b");
  EXPECT_EQ(escape_control_characters("line\nbreak\ttab\rcr\x7f"), "line\\x0abreak\\x09tab\\x0dcr\\x7f");
  EXPECT_EQ(escape_control_characters("\xc2\x9b"
                                      "2J"),
            "\\u009b2J");  // C1 CSI
}

TEST(TextEscape, BidiControlsBecomeEscapes) {
  EXPECT_EQ(escape_control_characters("evil\xe2\x80\xaegnp.exe"), "evil\\u202egnp.exe");  // U+202E
  for (const char* c : {"\xe2\x80\xaa", "\xe2\x80\xab", "\xe2\x80\xac", "\xe2\x80\xad", "\xe2\x81\xa6", "\xe2\x81\xa7",
                        "\xe2\x81\xa8", "\xe2\x81\xa9", "\xe2\x80\x8e", "\xe2\x80\x8f", "\xd8\x9c", "\xe2\x80\xa8"}) {
    const std::string escaped = escape_control_characters(c);
    EXPECT_EQ(escaped.substr(0, 2), "\\u") << escaped;
    EXPECT_EQ(escaped.size(), 6u) << escaped;
  }
}

TEST(TextEscape, BytesThatAreNotUtf8BecomeEscapes) {
  EXPECT_EQ(escape_control_characters("a\x9b"
                                      "b"),
            "a\\x9bb");                                                     // a lone C1 byte (CSI on 8-bit terminals)
  EXPECT_EQ(escape_control_characters("\xc0\x9b"), "\\xc0\\x9b");           // overlong
  EXPECT_EQ(escape_control_characters("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(escape_control_characters("cut\xe2\x80"), "cut\\xe2\\x80");     // truncated sequence
}

TEST(TextEscape, OrdinaryTextIsUnchangedAndEscapingTwiceChangesNothing) {
  for (const std::string text : {"us-west1-a", "Zürich 東京 🚀", "C:\\path\\x1b", "", "a|b"}) {
    EXPECT_EQ(escape_control_characters(text), text);
  }
  const std::string once = escape_control_characters("x\x1b\xe2\x80\xae\0y\xff"s);
  EXPECT_EQ(escape_control_characters(once), once);
}

TEST(TextEscape, MarkdownCellsEscapePipes) { EXPECT_EQ(escape_markdown_cell("a|b\x1b"), "a\\|b\\x1b"); }

TEST(TextEscape, CsvFieldsWithControlCharactersAreQuoted) {
  EXPECT_FALSE(csv_needs_quoting("us-west1"));
  EXPECT_FALSE(csv_needs_quoting("evil\xe2\x80\xae"));  // data: kept verbatim, readers see the same name as in JSON
  for (const std::string& text : {"a,b"s, "a\"b"s, "a\nb"s, "a\rb"s, "a\0b"s, "a\x1b"s, "a\x7f"s}) {
    EXPECT_TRUE(csv_needs_quoting(text)) << escape_control_characters(text);
  }
}

}  // namespace
TEST(EscapeMarkup, EntitiesTheChosenApostropheAndReplacementOfWhatXmlAndHtmlCannotCarry) {
  EXPECT_EQ(escape_markup("<a href=\"x\">&'</a>", "&apos;"), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  EXPECT_EQ(escape_markup("it's", "&#39;"), "it&#39;s");
  EXPECT_EQ(escape_markup(std::string("t\tn\nr\r"
                                      "\x01"
                                      "\x7f",
                                      8),
                          "'"),
            "t\tn\nr\r\xEF\xBF\xBD\xEF\xBF\xBD");
}

}  // namespace spotsim
