/**
 * Stand-ins for the Lucide icons Obsidian's `setIcon` draws, so the demo and the screenshots show
 * the plugin's icon buttons as something to see (Obsidian's own library is not here). Simple line
 * drawings made for the double, one per icon name the plugin uses; any other name gets a dot.
 * In a 24-unit box, stroked in the text colour, as Obsidian draws its icons.
 */
const DRAWINGS: Record<string, readonly string[]> = {
  // A speech bubble with a plus: New chat.
  "message-square-plus": ["M4 4h16v12H9l-5 4z", "M12 7v6", "M9 10h6"],
  // A clock with a back arrow: Chat history.
  history: ["M4 12a8 8 0 1 0 2.3-5.6", "M4 4v4h4", "M12 8v4l3 2"],
  // Two sheets: Copy.
  copy: ["M9 9h11v11H9z", "M5 15H4V4h11v1"],
  // A text cursor over a line: Insert at cursor.
  "text-cursor-input": ["M12 4v12", "M9 4h6", "M9 16h6", "M4 20h16"],
  // Two turning arrows: Regenerate.
  "refresh-cw": ["M20 12a8 8 0 0 1-14.3 4.9", "M4 12a8 8 0 0 1 14.3-4.9", "M19 3v4.5h-4.5", "M5 21v-4.5h4.5"],
  // A pencil: Edit.
  pencil: ["M4 20l1-4L16 5l3 3L8 19z", "M14 7l3 3"],
};
const UNKNOWN = ["M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6z"];

const SVG = "http://www.w3.org/2000/svg";

/** The icon as an `<svg class="svg-icon lucide-NAME">`, the element Obsidian puts in. */
export function drawIcon(document: Document, iconId: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  for (const [name, value] of Object.entries({ viewBox: "0 0 24 24", width: "24", height: "24", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round" })) {
    svg.setAttribute(name, value);
  }
  svg.setAttribute("class", `svg-icon lucide-${iconId}`);
  for (const path of DRAWINGS[iconId] ?? UNKNOWN) {
    const element = document.createElementNS(SVG, "path");
    element.setAttribute("d", path);
    svg.appendChild(element);
  }
  return svg;
}
