/**
 * Glob matching in time linear in the text: the pattern becomes a small automaton whose set of
 * live states is advanced one character at a time, so no pattern (say "a*a*a*a*a*b" against a
 * long name) can make it backtrack: the work is at most the text's length times the pattern's. `*` is any run of characters but "/", `**` any run, `**\/`
 * no folder or any folders, `?` one character but "/"; a pattern ending in "/" also covers what
 * is inside that folder. Case is ignored.
 */
type Step =
  | { kind: "literal"; character: string }
  /** `?` */
  | { kind: "one" }
  /** `*`: stays on anything but "/", or moves on without reading. */
  | { kind: "name" }
  /** `**`: stays on anything, or moves on without reading. */
  | { kind: "any" }
  /** Reads nothing: moves on to the next step, and also `skip` steps ahead (`**\/` may match no folder). */
  | { kind: "fork"; skip: number };

export type GlobMatcher = (text: string) => boolean;

export function globMatcher(glob: string): GlobMatcher {
  const steps = compile(glob.toLowerCase());
  return (text) => run(steps, text.toLowerCase());
}

function compile(glob: string): Step[] {
  const steps: Step[] = [];
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index] ?? "";
    if (character === "*") {
      if (glob[index + 1] === "*") {
        index++;
        if (glob[index + 1] === "/") {
          index++;
          // "**/" is "nothing, or any characters up to a '/'".
          steps.push({ kind: "fork", skip: 3 }, { kind: "any" }, { kind: "literal", character: "/" });
        } else steps.push({ kind: "any" });
      } else steps.push({ kind: "name" });
    } else if (character === "?") steps.push({ kind: "one" });
    else steps.push({ kind: "literal", character });
  }
  if (glob.endsWith("/")) steps.push({ kind: "any" });
  return steps;
}

function run(steps: readonly Step[], text: string): boolean {
  let live = new Uint8Array(steps.length + 1);
  let next = new Uint8Array(steps.length + 1);
  live[0] = 1;
  closeOver(steps, live);
  for (let position = 0; position < text.length; position++) {
    const character = text[position] ?? "";
    next.fill(0);
    let any = false;
    for (let state = 0; state < steps.length; state++) {
      if (live[state] === 0) continue;
      const step = steps[state] as Step;
      const target = advance(step, character);
      if (target === "stay") next[state] = 1;
      else if (target === "next") next[state + 1] = 1;
      else continue;
      any = true;
    }
    if (!any) return false;
    [live, next] = [next, live];
    closeOver(steps, live);
  }
  return live[steps.length] === 1;
}

/** Where reading `character` in a step leads: nowhere, the same step, the next, or both. */
function advance(step: Step, character: string): "none" | "stay" | "next" {
  switch (step.kind) {
    case "literal":
      return step.character === character ? "next" : "none";
    case "one":
      return character === "/" ? "none" : "next";
    case "name":
      return character === "/" ? "none" : "stay";
    case "any":
      return "stay";
    case "fork":
      return "none";
  }
}

/** Adds the states reached without reading (every such move goes forward, so one pass does). */
function closeOver(steps: readonly Step[], live: Uint8Array): void {
  for (let state = 0; state < steps.length; state++) {
    if (live[state] === 0) continue;
    const step = steps[state] as Step;
    if (step.kind === "name" || step.kind === "any" || step.kind === "fork") live[state + 1] = 1;
    if (step.kind === "fork") live[state + step.skip] = 1;
  }
}
