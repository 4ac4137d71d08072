/**
 * The double's DOM side: Obsidian's element helpers and the settings controls, which the
 * settings tab tests read the way a user sees them.
 */
import { App, Notice, SecretComponent, Setting } from "./obsidian";

afterEach(() => document.body.empty());

describe("Obsidian's element helpers (installed when the double loads in a DOM)", () => {
  it("createEl takes a class string or options, and appends to the element it is called on", () => {
    const parent = document.body.createDiv("outer");
    const link = parent.createEl("a", { cls: ["one", "two"], text: "Go", href: "#x", attr: { "data-id": 7, hidden: null } });
    parent.createSpan("first", (span) => span.setText("callback ran"));
    expect(parent.children[0]).toBe(link);
    expect(link.className).toBe("one two");
    expect(link.textContent).toBe("Go");
    expect(link.getAttribute("href")).toBe("#x");
    expect(link.getAttribute("data-id")).toBe("7");
    expect(parent.querySelector("span.first")?.textContent).toBe("callback ran");
  });

  it("prepend puts the element first; the global createDiv makes a detached element", () => {
    const parent = document.body.createDiv();
    parent.createDiv("b");
    parent.createDiv({ cls: "a", prepend: true });
    expect([...parent.children].map((child) => child.className)).toEqual(["a", "b"]);
    expect(createDiv("loose").parentNode).toBeNull();
  });

  it("empty, setText, classes, attributes and visibility", () => {
    const element = document.body.createDiv();
    element.createDiv();
    element.empty();
    expect(element.childNodes).toHaveLength(0);
    element.setText("hello");
    expect(element.getText()).toBe("hello");
    element.addClass("x", "y");
    element.toggleClass("x", false);
    expect(element.hasClass("x")).toBe(false);
    expect(element.hasClass("y")).toBe(true);
    element.setAttrs({ role: "note", title: null });
    expect(element.getAttr("role")).toBe("note");
    element.hide();
    expect(element.isShown()).toBe(false);
    element.toggle(true);
    expect(element.isShown()).toBe(true);
    element.detach();
    expect(document.body.contains(element)).toBe(false);
  });
});

describe("Setting", () => {
  it("builds Obsidian's row structure with a name, a description and the controls", () => {
    const container = document.body.createDiv();
    new Setting(container).setName("Model").setDesc("The model to use.").addText((text) => text.setValue("gpt"));
    const row = container.querySelector(".setting-item")!;
    expect(row.querySelector(".setting-item-info .setting-item-name")?.textContent).toBe("Model");
    expect(row.querySelector(".setting-item-info .setting-item-description")?.textContent).toBe("The model to use.");
    expect(row.querySelector<HTMLInputElement>(".setting-item-control input")?.value).toBe("gpt");
  });

  it("text fields report every input event; dropdowns report changes", () => {
    const container = document.body.createDiv();
    const texts: string[] = [];
    const choices: string[] = [];
    new Setting(container)
      .addText((text) => text.onChange((value) => texts.push(value)))
      .addDropdown((dropdown) => dropdown.addOptions({ a: "A", b: "B" }).setValue("a").onChange((value) => choices.push(value)));
    const input = container.querySelector("input")!;
    input.value = "typed";
    input.dispatchEvent(new Event("input"));
    const select = container.querySelector("select")!;
    select.value = "b";
    select.dispatchEvent(new Event("change"));
    expect(texts).toEqual(["typed"]);
    expect(choices).toEqual(["b"]);
  });

  it("a toggle flips on click and reports it, unless disabled", () => {
    const container = document.body.createDiv();
    const values: boolean[] = [];
    let toggleEl!: HTMLElement;
    const setting = new Setting(container).addToggle((toggle) => {
      toggleEl = toggle.toggleEl;
      toggle.setValue(false).onChange((value) => values.push(value));
    });
    toggleEl.click();
    expect(toggleEl.hasClass("is-enabled")).toBe(true);
    setting.setDisabled(true);
    toggleEl.click();
    expect(values).toEqual([true]);
  });

  it("a secret component reports the secret's id, not a secret", () => {
    const container = document.body.createDiv();
    const ids: string[] = [];
    new Setting(container).addComponent((el) => new SecretComponent(new App(), el).setValue("old-id").onChange((id) => ids.push(id)));
    const input = container.querySelector<HTMLInputElement>("input.secret-component")!;
    expect(input.value).toBe("old-id");
    input.value = "new-id";
    input.dispatchEvent(new Event("change"));
    expect(ids).toEqual(["new-id"]);
  });
});

describe("Notice", () => {
  it("shows its message in the notice container until hidden", () => {
    const notice = new Notice("Saved");
    expect(document.body.querySelector(".notice-container .notice")?.textContent).toBe("Saved");
    notice.setMessage("Saved again");
    expect(notice.message).toBe("Saved again");
    notice.hide();
    expect(document.body.querySelector(".notice")).toBeNull();
  });
});
