import { hiddenEdges } from "./onScreenKeyboard";

const SCREEN = 844;

describe("hiddenEdges", () => {
  it("is nothing without a keyboard", () => {
    expect(hiddenEdges({ top: 0, bottom: SCREEN }, { offsetTop: 0, height: SCREEN })).toEqual({ top: 0, bottom: 0 });
  });

  it("is what the keyboard covers of a view that reaches the bottom of the screen", () => {
    expect(hiddenEdges({ top: 0, bottom: SCREEN }, { offsetTop: 0, height: SCREEN - 300 })).toEqual({ top: 0, bottom: 300 });
  });

  it("is only the covered part of a view that ends above the screen's bottom (a bar under it)", () => {
    expect(hiddenEdges({ top: 0, bottom: SCREEN - 56 }, { offsetTop: 0, height: SCREEN - 300 })).toEqual({ top: 0, bottom: 244 });
  });

  it("is nothing when the system already made the view shorter for the keyboard (as Android usually does)", () => {
    expect(hiddenEdges({ top: 0, bottom: SCREEN - 300 }, { offsetTop: 0, height: SCREEN - 300 })).toEqual({ top: 0, bottom: 0 });
    // …and a view ending above the keyboard (a bar under it) is not padded the other way.
    expect(hiddenEdges({ top: 48, bottom: SCREEN - 356 }, { offsetTop: 0, height: SCREEN - 300 })).toEqual({ top: 0, bottom: 0 });
  });

  it("splits what is hidden between the top the system scrolled away and the bottom the keyboard covers", () => {
    expect(hiddenEdges({ top: 0, bottom: SCREEN }, { offsetTop: 120, height: SCREEN - 300 })).toEqual({ top: 120, bottom: 180 });
  });

  it("rounds to whole pixels, as a zoomed or fractional viewport reports them", () => {
    expect(hiddenEdges({ top: 0.4, bottom: 843.6 }, { offsetTop: 0.2, height: 543.3 })).toEqual({ top: 0, bottom: 300 });
  });
});
