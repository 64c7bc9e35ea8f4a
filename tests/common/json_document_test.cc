// json::ParseFile and ReadValue (the document builder on the tokenizer), and
// the byte sources under them: a file read in chunks, text, and an input
// whose head was peeked at.
#include "common/json_document.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <string>

#include "common/json_byte_source.h"
#include "common/json_tokenizer.h"
#include "support/subprocess.h"

namespace benchprof::json {
namespace {

void Write(const std::string& path, const std::string& contents) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << contents;
}

TEST(JsonDocumentTest, ParseFileReadsWhatParseReads) {
  testing::TempDir dir;
  // Larger than one chunk, so that the file is read in several.
  std::string text = "{\"benchmarks\": [";
  for (int i = 0; i < 40000; ++i) {
    text += "{\"name\": \"BM_" + std::to_string(i) + "\", \"real_time\": 1.5e+01, \"cv\": NaN},\n";
  }
  text += "{}]}";
  ASSERT_GT(text.size(), size_t{2} << 20);
  Write(dir.File("big.json"), text);
  StatusOr<Value> from_file = ParseFile(dir.File("big.json"));
  ASSERT_TRUE(from_file.ok()) << from_file.status().message();
  StatusOr<Value> from_text = Parse(text);
  ASSERT_TRUE(from_text.ok());
  EXPECT_EQ(Serialize(*from_file), Serialize(*from_text));
  EXPECT_EQ(from_file->Find("benchmarks")->as_array().size(), 40001u);
}

TEST(JsonDocumentTest, ParseFileErrorsDoNotNameTheFile) {
  testing::TempDir dir;
  Write(dir.File("bad.json"), "{\n  \"a\": [1,\n  2 3]}");
  EXPECT_EQ(ParseFile(dir.File("bad.json")).status().message(),
            "line 3, column 5: expected ',' or ']' after an array element");
  Write(dir.File("cut.json"), "{\"a\": [1,");
  EXPECT_EQ(ParseFile(dir.File("cut.json")).status().message(),
            "line 1, column 10: unexpected end of input (truncated?)");
  Write(dir.File("empty.json"), "");
  EXPECT_EQ(ParseFile(dir.File("empty.json")).status().message(), "line 1, column 1: empty input");
  EXPECT_EQ(ParseFile(dir.File("missing.json")).status().message(),
            "cannot open: No such file or directory");
  EXPECT_EQ(ParseFile(dir.path()).status().message(), "is a directory");
}

TEST(JsonDocumentTest, ReadValueInTheMiddleOfATokenStream) {
  Tokenizer t(R"({"traceEvents": [1, 2], "otherData": {"cpus": 4, "x": [NaN]}, "z": 0})");
  ASSERT_EQ(t.Next(), Token::kBeginObject);
  ASSERT_EQ(t.Next(), Token::kKey);
  ASSERT_EQ(t.Next(), Token::kBeginArray);
  ASSERT_TRUE(t.SkipValue());
  ASSERT_EQ(t.Next(), Token::kKey);
  Value other;
  ASSERT_TRUE(ReadValue(t, t.Next(), other).ok());
  EXPECT_EQ(other.Find("cpus")->as_number(), 4);
  EXPECT_TRUE(std::isnan(other.Find("x")->as_array()[0].as_number()));
  ASSERT_EQ(t.Next(), Token::kKey);
  EXPECT_EQ(t.string(), "z");
  // A token that cannot begin a value.
  Tokenizer closing("[]");
  ASSERT_EQ(closing.Next(), Token::kBeginArray);
  Value v;
  EXPECT_EQ(ReadValue(closing, closing.Next(), v).message(), "expected a value");
}

TEST(JsonByteSourceTest, PeekReplaysTheHeadThenTheRest) {
  const std::string text = "0123456789abcdefghij";
  StatusOr<PeekedSource> peeked = Peek(TextSource(text, 3), 8);
  ASSERT_TRUE(peeked.ok());
  EXPECT_EQ(peeked->head, "01234567");
  EXPECT_FALSE(peeked->ended);
  std::string all;
  char buffer[5];
  for (;;) {
    StatusOr<size_t> n = peeked->source(buffer, sizeof buffer);
    ASSERT_TRUE(n.ok());
    if (*n == 0) break;
    all.append(buffer, *n);
  }
  EXPECT_EQ(all, text);
  StatusOr<PeekedSource> whole = Peek(TextSource("ab"), 8);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->head, "ab");
  EXPECT_TRUE(whole->ended);
}

TEST(JsonByteSourceTest, FileSourceReadsAPipeToo) {
  testing::TempDir dir;
  const std::string fifo = dir.File("fifo");
  if (::mkfifo(fifo.c_str(), 0600) != 0) GTEST_SKIP() << "mkfifo failed: cannot test pipes here";
  const pid_t writer = ::fork();
  ASSERT_GE(writer, 0);
  if (writer == 0) {
    std::ofstream(fifo) << "[1, 2,\n 3]";
    ::_exit(0);
  }
  StatusOr<Value> v = ParseFile(fifo);
  int status = 0;
  ::waitpid(writer, &status, 0);
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_EQ(Serialize(*v), "[1,2,3]");
}

}  // namespace
}  // namespace benchprof::json
