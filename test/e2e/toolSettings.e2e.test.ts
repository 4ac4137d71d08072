/**
 * The tool settings section in a real Chromium: the page (fixtures/toolSettingsPage.tsx) is
 * bundled with esbuild, served from 127.0.0.1 and driven with playwright-core. If Chromium
 * cannot start, the tests fail and say how to install it.
 */
import { build } from "esbuild";
import { createServer, type Server } from "node:http";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import type { ToolSettingsChange } from "../../src/components/settings/v2/components/ToolSettingsSection";
import { launchChromium } from "./demoHarness";

jest.setTimeout(60_000);

const repoRoot = resolve(__dirname, "../..");

// A few of Obsidian's theme variables (dark theme values), so the page looks as it would in Obsidian.
const OBSIDIAN_THEME = `
body { --background-primary: #1e1e1e; --background-secondary: #262626; --background-modifier-border: #363636;
  --text-normal: #dadada; --text-muted: #b3b3b3; --text-faint: #666; --text-warning: #e0ac69; --text-error: #fb464c;
  --font-ui-smaller: 12px; --font-ui-small: 13px; --font-ui-medium: 15px; --font-semibold: 600;
  --size-2-1: 2px; --size-4-1: 4px; --size-4-2: 8px; --size-4-3: 12px; --size-4-4: 16px;
  --radius-s: 4px; --radius-m: 8px; --border-width: 1px;
  margin: 0; padding: 16px; width: 640px; background: var(--background-secondary); color: var(--text-normal);
  font-family: system-ui, sans-serif; }`;

const CONTENT_TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };

describe("tool settings section in Chromium", () => {
  let folder: string;
  let server: Server;
  let browser: Browser;
  let page: Page;
  let url: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "vault-copilot-e2e-"));
    await build({
      entryPoints: [join(repoRoot, "test/e2e/fixtures/toolSettingsPage.tsx")],
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "es2022",
      jsx: "automatic",
      // The section says its words through t(), which asks Obsidian's getLanguage(): the double gives it here.
      alias: { obsidian: join(repoRoot, "test/obsidian/obsidian.ts") },
      define: { "process.env.NODE_ENV": '"production"' },
      outfile: join(folder, "page.js"),
      logLevel: "silent",
    });
    copyFileSync(join(repoRoot, "styles.css"), join(folder, "styles.css"));
    writeFileSync(
      join(folder, "index.html"),
      `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="styles.css"><style>${OBSIDIAN_THEME}</style></head>` +
        `<body><div id="root"></div><script src="page.js"></script></body></html>`,
    );

    server = createServer((request, response) => {
      const name = request.url === "/" ? "index.html" : (request.url ?? "").slice(1);
      if (!["index.html", "page.js", "styles.css"].includes(name)) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { "Content-Type": CONTENT_TYPES[extname(name)] ?? "application/octet-stream" });
      response.end(readFileSync(join(folder, name)));
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

    browser = await launchChromium();
    page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(url);
    await page.waitForSelector('[data-tool-id="readNote"]');
    if (errors.length > 0) throw new Error(`The page failed: ${errors.join("; ")}`);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
    rmSync(folder, { recursive: true, force: true });
  });

  const changes = () => page.evaluate<ToolSettingsChange[]>(() => window.toolSettingsPage.changes);
  const mainToggle = (id: string) => page.locator(`[data-tool-id="${id}"] .vault-copilot-tool-main input[type="checkbox"]`);

  it("groups the tools by category", async () => {
    const categories = await page.locator("section[data-category]").evaluateAll((sections) => sections.map((section) => section.getAttribute("data-category")));
    expect(categories).toEqual(["time", "search", "file"]);
    expect(await page.locator('section[data-category="search"] [data-tool-id]').count()).toBe(2);
  });

  it("switching a tool on hands the new id list to the callback", async () => {
    expect(await mainToggle("readNote").isChecked()).toBe(false);
    await mainToggle("readNote").click();
    expect(await mainToggle("readNote").isChecked()).toBe(true);
    expect((await changes()).at(-1)).toEqual({ enabledToolIds: ["localSearch", "writeToFile", "readNote"], autoApproveToolIds: [] });
  });

  it("the always-on tool is checked, disabled, and a click changes nothing", async () => {
    const toggle = mainToggle("getCurrentTime");
    expect(await toggle.isChecked()).toBe(true);
    expect(await toggle.isDisabled()).toBe(true);
    await expect(page.locator('[data-tool-id="getCurrentTime"]').getByText("Always on").isVisible()).resolves.toBe(true);
    const before = (await changes()).length;
    await toggle.click({ force: true });
    expect(await toggle.isChecked()).toBe(true);
    expect(await changes()).toHaveLength(before);
  });

  it("an edit tool's 'apply edits without asking' is off by default and warns once switched on", async () => {
    const autoApprove = page.locator('[data-tool-id="writeToFile"] .vault-copilot-tool-auto-approve input');
    expect(await autoApprove.isChecked()).toBe(false);
    await autoApprove.click();
    expect((await changes()).at(-1)?.autoApproveToolIds).toEqual(["writeToFile"]);
    expect(await page.locator('[data-tool-id="writeToFile"] .vault-copilot-tool-warning').isVisible()).toBe(true);
  });

  it("a tool registered later (an MCP server connecting) shows up in its category, drawn in the screenshot", async () => {
    await page.evaluate(() => window.toolSettingsPage.registerTool("mcp_files_list", "List files", "mcp"));
    const row = page.locator('section[data-category="mcp"] [data-tool-id="mcp_files_list"]');
    await row.waitFor();
    expect(await row.isVisible()).toBe(true);
    expect(await row.innerText()).toContain("List files");

    const screenshot = join(tmpdir(), "vault-copilot-tool-settings.png");
    await page.screenshot({ path: screenshot, fullPage: true });
    const png = readFileSync(screenshot);
    const pageSize = await page.evaluate(() => ({
      width: document.documentElement.scrollWidth * devicePixelRatio,
      height: document.documentElement.scrollHeight * devicePixelRatio,
    }));
    expect(pngSize(png)).toEqual(pageSize);

    // The row's label (name and description), in page coordinates, lies inside the picture and has
    // ink in it (text that differs from its background): the screenshot shows the tool, not an empty box.
    const box = await row.locator(".vault-copilot-tool-label").evaluate((element) => {
      const rect = element.getBoundingClientRect();
      return { x: rect.left + window.scrollX, y: rect.top + window.scrollY, width: rect.width, height: rect.height };
    });
    expect(box.width).toBeGreaterThan(100);
    expect(box.height).toBeGreaterThan(10);
    expect(box.x + box.width).toBeLessThanOrEqual(pageSize.width);
    expect(box.y + box.height).toBeLessThanOrEqual(pageSize.height);
    expect(await inkedPixels(page, png, box)).toBeGreaterThan(100);
  });
});

/** Width and height from a PNG's header (the IHDR chunk, right after the 8-byte signature). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * How many pixels of `box` in the screenshot differ clearly from the box's top-left pixel (its
 * background). The browser decodes the PNG, so no image library is needed here.
 */
function inkedPixels(page: Page, png: Buffer, box: { x: number; y: number; width: number; height: number }): Promise<number> {
  return page.evaluate(
    async ({ source, area }) => {
      const image = new Image();
      image.src = source;
      await image.decode();
      const canvas = new OffscreenCanvas(image.naturalWidth, image.naturalHeight);
      const context = canvas.getContext("2d");
      if (!context) throw new Error("no 2d canvas");
      context.drawImage(image, 0, 0);
      const scale = devicePixelRatio;
      const pixels = context.getImageData(Math.round(area.x * scale), Math.round(area.y * scale), Math.round(area.width * scale), Math.round(area.height * scale)).data;
      const [red = 0, green = 0, blue = 0] = pixels;
      let inked = 0;
      for (let index = 0; index < pixels.length; index += 4) {
        const distance = Math.abs((pixels[index] ?? 0) - red) + Math.abs((pixels[index + 1] ?? 0) - green) + Math.abs((pixels[index + 2] ?? 0) - blue);
        if (distance > 60) inked++;
      }
      return inked;
    },
    { source: `data:image/png;base64,${png.toString("base64")}`, area: box },
  );
}
