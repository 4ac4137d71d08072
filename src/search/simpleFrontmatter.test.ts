import { parse } from "yaml";
import { parseSimpleFrontmatter } from "./simpleFrontmatter";

describe("parseSimpleFrontmatter", () => {
  // Each block is read the way the full YAML parser reads it.
  it.each([
    "tags: [project, \"urgent\", 'x y']\naliases: Alpha one",
    "tags:\n  - one\n  - two\nstatus: draft\nmore:\n- three\n-\n",
    "title: \"Quoted: with colon\"\nempty:\ncount: 12\nratio: 0.5\ndone: true\nnothing: null\nurl: https://example.org/a",
    "# a comment\ncreated: 2026-03-14\nlist: []\n",
  ])("reads %j as YAML does", (block) => {
    expect(parseSimpleFrontmatter(block)).toEqual(parse(block));
  });

  it.each([
    "nested:\n  key: value",
    "text: |\n  many\n  lines",
    "anchor: &a value",
    'escaped: "a\\"b"',
    "list: [a, [b]]",
    "note: a #comment",
    "  indented: key",
    "tags:\n  - one\n- two",
  ])("leaves %j to the full parser", (block) => {
    expect(parseSimpleFrontmatter(block)).toBeUndefined();
  });
});
