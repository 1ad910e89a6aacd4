// tests/cli/test_compare_page.cpp: compare.html links only relative pages of
// the index, whatever the folders are named: a run folder named
// "javascript:..." is a path, not a script (cli/pages/compare_page.cpp).
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli/pages/html.h"
#include "cli/pages/index_pages.h"

using namespace ckptsim::cli;

namespace {

nlohmann::json embedded_data(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"compare-data\">";
  const std::size_t start = page.find(open);
  REQUIRE(start != std::string::npos);
  const std::size_t end = page.find("</script>", start);
  return nlohmann::json::parse(page.substr(start + open.size(), end - start - open.size()));
}

}  // namespace

TEST_CASE("a run folder named javascript:... is linked from compare.html as a relative path, never as a scheme") {
  ResultsTree tree;
  tree.root = "/tmp/unused";
  for (const char* name : {"javascript:alert(document.cookie)", "JavaScript:alert(1)", "data:text/html,x", "ok"}) {
    RunEntry run;
    run.dir = name;
    run.record = nlohmann::json::object();
    run.tps = {1, 2};
    tree.runs.push_back(run);
  }
  const std::string page = compare_html(tree);
  const nlohmann::json data = embedded_data(page);
  REQUIRE(data["items"].size() == 4);
  CHECK(data["items"][0]["page"] == "javascript%3Aalert%28document.cookie%29/run.html");
  CHECK(data["items"][1]["page"] == "JavaScript%3Aalert%281%29/run.html");
  CHECK(data["items"][2]["page"] == "data%3Atext/html,x/run.html");  // two folders: data:text and html,x
  CHECK(data["items"][3]["page"] == "ok/run.html");
  for (const auto& item : data["items"]) CHECK(item["page"].get<std::string>().find(':') == std::string::npos);
  // The script links an item's page only when it is relative, even if the data said otherwise.
  CHECK(page.find("relative(item.page) ? element('a', item.id, {href: item.page}) : element('span', item.id)") !=
        std::string::npos);
  CHECK(html::url_of("a:b/c") == "a%3Ab/c");
}
