import { t, uiLocale } from "./t";

afterEach(() => window.localStorage.removeItem("language"));

describe("t", () => {
  it("follows Obsidian's language (getLanguage), and English for one we do not ship", () => {
    expect(t("composer.send")).toBe("Send");
    window.localStorage.setItem("language", "de");
    expect(t("composer.send")).not.toBe("Send");
    expect(uiLocale()).toBe("de-DE");
    window.localStorage.setItem("language", "ar");
    expect(t("composer.send")).toBe("Send");
    expect(uiLocale()).toBe("en-US");
  });
});
