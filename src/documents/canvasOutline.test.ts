import { canvasOutline, CanvasFormatError } from "./canvasOutline";

const canvas = {
  nodes: [
    { id: "g1", type: "group", label: "Исследование 研究", x: 0, y: 0, width: 1000, height: 600 },
    { id: "g2", type: "group", label: "Inner", x: 500, y: 300, width: 400, height: 250 },
    { id: "t2", type: "text", text: "Вторая карточка", x: 20, y: 200, width: 200, height: 80 },
    { id: "t1", type: "text", text: "# Первая мысль\nподробности 细节", x: 20, y: 20, width: 200, height: 80 },
    { id: "f1", type: "file", file: "Notes/计划.md", subpath: "#Budget", x: 550, y: 350, width: 200, height: 80 },
    { id: "l1", type: "link", url: "https://example.org/页", x: 1200, y: 0, width: 200, height: 80 },
    { id: "t3", type: "text", text: "Outside any group", x: 1200, y: 300, width: 200, height: 80 },
  ],
  edges: [
    { id: "e1", fromNode: "t1", toNode: "f1", label: "ведёт к" },
    { id: "e2", fromNode: "f1", toNode: "l1" },
    { id: "e3", fromNode: "t3", toNode: "gone" },
  ],
};

describe("a canvas read as an outline", () => {
  it("lists groups as sections, cards in reading order, file cards as links, link cards as URLs, and edges as A → B (label)", () => {
    expect(canvasOutline(JSON.stringify(canvas))).toBe(
      [
        "- Link: https://example.org/页",
        "- Outside any group",
        "",
        "## Исследование 研究",
        "",
        "- # Первая мысль",
        "  подробности 细节",
        "- Вторая карточка",
        "",
        "### Inner",
        "",
        "- File: [[Notes/计划.md#Budget]]",
        "",
        "## Connections",
        "",
        '- "Первая мысль" → [[Notes/计划.md#Budget]] (ведёт к)',
        "- [[Notes/计划.md#Budget]] → https://example.org/页",
        "",
      ].join("\n"),
    );
  });

  it("reads an empty canvas (no nodes, or an empty file) as one", () => {
    expect(canvasOutline('{"nodes":[],"edges":[]}')).toBe("(an empty canvas)\n");
    expect(canvasOutline("")).toBe("(an empty canvas)\n");
  });

  it.each([
    ["broken JSON", '{"nodes": [', /its JSON is broken/],
    ["a list", "[1, 2]", /not a JSON object/],
    ["nodes that are no list", '{"nodes": {}}', /"nodes" is not a list/],
    ["a node without id", '{"nodes": [{"type": "text"}]}', /node 1 has no id or type/],
  ])("refuses %s, saying it is not a canvas Obsidian can open", (_, json, reason) => {
    expect(() => canvasOutline(json)).toThrow(CanvasFormatError);
    expect(() => canvasOutline(json)).toThrow(reason);
  });
});
