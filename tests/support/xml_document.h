// A strict reader of the XML the tool writes (SVG flame graphs), for tests:
// it checks well-formedness the way a browser's XML parser does — one root
// element, every tag closed in order, attribute values quoted and unique, no
// raw '<' in a value, '&' only as a known entity or a character reference —
// and returns the element tree. No DTD, no namespaces beyond keeping
// "xmlns" as an attribute, no encoding other than UTF-8.
//
//   XmlElement root;
//   std::string error;
//   ASSERT_TRUE(ParseXml(svg, &root, &error)) << error;
//   const std::string* width = root.Attribute("width");
#ifndef BENCHPROF_TESTS_SUPPORT_XML_DOCUMENT_H_
#define BENCHPROF_TESTS_SUPPORT_XML_DOCUMENT_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace benchprof::testing {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // in order, entities decoded
  std::string text;  // the character data directly inside, entities decoded, CDATA included
  std::vector<XmlElement> children;

  // The value of attribute `key`, or null.
  const std::string* Attribute(std::string_view key) const;
};

// Parses `document` into `root`. On malformed input returns false and sets
// `error` to the byte offset and the problem ("at 1234: </g> closes <rect>").
bool ParseXml(std::string_view document, XmlElement* root, std::string* error);

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_SUPPORT_XML_DOCUMENT_H_
