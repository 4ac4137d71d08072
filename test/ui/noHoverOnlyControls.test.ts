/**
 * A touch screen cannot hover: nothing in styles.css may show, place or size a control only on
 * hover. A `:hover` rule may change only how something already there looks (its colours, border
 * colour, shadow, underline, cursor). The chat's controls are checked shown without hovering in
 * Chromium too (test/e2e/phoneLayout.e2e.test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** What a hover may change: the look of what is already on screen. */
const LOOK_ONLY = /^(color|background|background-color|border-color|outline-color|box-shadow|text-decoration|text-decoration-color|cursor|--[\w-]+)$/;

interface Rule {
  selector: string;
  properties: string[];
}

/** The rules of a stylesheet (nested at-rules included), comments left out. */
function cssRules(css: string): Rule[] {
  const rules: Rule[] = [];
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  // Innermost blocks only: a selector and declarations without braces inside.
  for (const match of text.matchAll(/([^{};]+)\{([^{}]*)\}/g)) {
    const properties = match[2]!
      .split(";")
      .map((declaration) => declaration.split(":")[0]!.trim())
      .filter((property) => property.length > 0);
    rules.push({ selector: match[1]!.trim(), properties });
  }
  return rules;
}

/** What `:hover` rules change beyond the look, as "selector { property }" lines. */
function hoverOnlyChanges(rules: readonly Rule[]): string[] {
  return rules
    .filter((rule) => rule.selector.includes(":hover"))
    .flatMap((rule) => rule.properties.filter((property) => !LOOK_ONLY.test(property)).map((property) => `${rule.selector} { ${property} }`));
}

describe("styles.css", () => {
  const rules = cssRules(readFileSync(join(__dirname, "../../styles.css"), "utf8"));

  it("changes only the look of what is already shown on hover: no control appears, moves or grows only under a mouse", () => {
    expect(rules.filter((rule) => rule.selector.includes(":hover")).length).toBeGreaterThan(0);
    expect(hoverOnlyChanges(rules)).toEqual([]);
  });

  it("reads a rule that would show a control on hover as one", () => {
    const sample = cssRules(".a:hover .b { display: flex; color: red }\n@media (hover: hover) { .c:hover { opacity: 1 } }");
    expect(hoverOnlyChanges(sample)).toEqual([".a:hover .b { display }", ".c:hover { opacity }"]);
  });
});
