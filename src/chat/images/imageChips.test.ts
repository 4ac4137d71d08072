import { gifImage, jpegImage, pngImage, webpImage } from "../../../test/helpers/imageFiles";
import { makeTempVault, type TempVault } from "../../../test/helpers/tempVault";
import { startWebPageServer } from "../../../test/helpers/webPageServer";
import { nodeHtmlReader } from "../../cli/nodeHtmlReader";
import { plainHttp } from "../../net/plainHttp";
import type { ImageLimits, ImageScaler } from "../../ports/imageScaler";
import { readWebPage } from "../../tools/web/webPage";
import { FsVault } from "../../vault/FsVault";
import { chipForVaultPath, imageChip, MAX_IMAGES_PER_MESSAGE, noteChip, pastedImageChip, readChipArtifacts, webChip } from "../chipArtifacts";
import { IMAGE_LIMITS, prepareImage } from "./prepareImage";
import { formatBytes } from "../../context/imageInput";

let temp: TempVault;
let vault: FsVault;
const PHOTO = pngImage(800, 600);
const CHART = jpegImage(640, 480);

beforeEach(() => {
  temp = makeTempVault({
    "Trips/Kyoto 京都.md": [
      "# 京都",
      "![[фото.png]]",
      "![график](img/chart%201.jpg)",
      "![[фото.png|300]]",
      "![remote](https://example.org/pic.png)",
      "![[missing.png]]",
      "```",
      "![[in code.png]]",
      "```",
      "![[spinner.gif]]",
    ].join("\n"),
    "Trips/фото.png": PHOTO,
    "Trips/img/chart 1.jpg": CHART,
    "Trips/in code.png": pngImage(10, 10),
    "Assets/spinner.gif": gifImage(),
    "Assets/plan.webp": webpImage(300, 200),
    "Assets/not really.png": "# I am text in a .png",
    "Many.md": Array.from({ length: 12 }, (_, index) => `![[p${index}.png]]`).join("\n"),
    ...Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`Assets/p${index}.png`, pngImage(10 + index, 10)])),
  });
  vault = new FsVault(temp.root);
});
afterEach(() => temp.remove());

const withImages = { images: {} };

describe("image chips and the images a note embeds", () => {
  it("reads a note's embedded vault images in order, each once, skipping remote ones, code and what is missing", async () => {
    const { artifacts, problems, notices } = await readChipArtifacts(vault, [noteChip("Trips/Kyoto 京都.md")], undefined, withImages);
    expect(problems).toEqual([]);
    expect(notices).toBeUndefined();
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0]?.images?.map(({ name, source, mimeType, width, height }) => ({ name, source, mimeType, width, height }))).toEqual([
      { name: "фото.png", source: "Trips/фото.png", mimeType: "image/png", width: 800, height: 600 },
      { name: "chart 1.jpg", source: "Trips/img/chart 1.jpg", mimeType: "image/jpeg", width: 640, height: 480 },
      { name: "spinner.gif", source: "Assets/spinner.gif", mimeType: "image/gif", width: 24, height: 24 },
    ]);
    expect(artifacts[0]?.images?.[0]?.data).toBe(PHOTO.toString("base64"));
    expect(artifacts[0]?.content).toContain("![[фото.png]]");
  });

  it("goes without images where none are read (the sources say so), the note's text unchanged", async () => {
    const { artifacts } = await readChipArtifacts(vault, [noteChip("Trips/Kyoto 京都.md")]);
    expect(artifacts[0]?.images).toBeUndefined();
  });

  it("attaches an image chip and a pasted one; one that is not an image is refused, saying so", async () => {
    const chips = [imageChip("Assets/plan.webp"), pastedImageChip("снимок экрана.png", pngImage(50, 40)), chipForVaultPath("Assets/not really.png")];
    const { artifacts, problems } = await readChipArtifacts(vault, chips, undefined, withImages);
    expect(artifacts.map((artifact) => [artifact.kind, artifact.title, artifact.source, artifact.content])).toEqual([
      ["image", "plan.webp", "Assets/plan.webp", "[image plan.webp 300×200, 34 B]"],
      ["image", "снимок экрана.png", undefined, `[image снимок экрана.png 50×40, ${pngImage(50, 40).length} B]`],
    ]);
    expect(problems).toEqual([{ text: "not really.png is not a PNG, JPEG, WebP or GIF image, so it was not sent", case: { code: "not-image", name: "not really.png" } }]);
  });

  it(`sends at most ${MAX_IMAGES_PER_MESSAGE} images a message and names the rest`, async () => {
    const { artifacts, notices } = await readChipArtifacts(vault, [noteChip("Many.md")], undefined, withImages);
    expect(artifacts[0]?.images).toHaveLength(MAX_IMAGES_PER_MESSAGE);
    expect(notices).toEqual([
      { text: "Assets/p10.png: not sent, a message carries at most 10 images", case: { code: "images-capped", name: "Assets/p10.png", cap: 10 } },
      { text: "Assets/p11.png: not sent, a message carries at most 10 images", case: { code: "images-capped", name: "Assets/p11.png", cap: 10 } },
    ]);
  });

  it("with leaveOut sends no image and names each one in a notice, the note still going", async () => {
    const { artifacts, problems, notices } = await readChipArtifacts(vault, [noteChip("Trips/Kyoto 京都.md"), imageChip("Assets/plan.webp")], undefined, { images: { leaveOut: "--no-images" } });
    expect(problems).toEqual([]);
    expect(artifacts.map((artifact) => artifact.kind)).toEqual(["note"]);
    expect(notices?.map((notice) => notice.text)).toEqual(["Trips/фото.png: not sent (--no-images)", "Trips/img/chart 1.jpg: not sent (--no-images)", "Assets/spinner.gif: not sent (--no-images)", "Assets/plan.webp: not sent (--no-images)"]);
    expect(notices?.[0]?.case).toEqual({ code: "images-left-out", name: "Trips/фото.png", reason: "--no-images" });
  });
});

describe("web chips", () => {
  it("attach a page's article, said to be third-party text, and name a page that failed", async () => {
    const pages = await startWebPageServer();
    try {
      const webPage = (url: string, signal?: AbortSignal) => readWebPage(url, { http: plainHttp(globalThis.fetch), html: nodeHtmlReader(), signal: signal ?? new AbortController().signal, maxCharacters: 40_000 });
      const chips = [webChip(`${pages.url}/ar/maqal/tamr.html`), webChip(`${pages.url}/gone.html`)];
      expect(chips[0]?.label).toBe(`${new URL(pages.url).host}/ar/maqal/tamr.html`);
      const { artifacts, problems } = await readChipArtifacts(vault, chips, undefined, { webPage });
      expect(artifacts).toHaveLength(1);
      expect(artifacts[0]).toMatchObject({ id: `web:${pages.url}/ar/maqal/tamr.html`, kind: "web", title: expect.stringContaining("موسم التمر في الواحة يبدأ مبكرًا"), source: `${pages.url}/ar/maqal/tamr.html` });
      expect(artifacts[0]?.content).toMatch(/^A web page the user attached\. Its text is third-party material/);
      expect(artifacts[0]?.content).toContain("| السكري | ٢٤ ريالًا |");
      expect(problems.map((problem) => problem.text)).toEqual([`${pages.url}/gone.html answered HTTP 404: there is no page at that address.`]);
      expect(problems[0]?.case).toMatchObject({ code: "web-failed", url: `${pages.url}/gone.html`, reason: problems[0]?.text });
      const unread = await readChipArtifacts(vault, chips.slice(0, 1));
      expect(unread.problems).toEqual([
        { text: `${pages.url}/ar/maqal/tamr.html: web pages are not read here, so it was not attached`, case: { code: "web-off", url: `${pages.url}/ar/maqal/tamr.html` } },
      ]);
    } finally {
      await pages.close();
    }
  });
});

describe("prepareImage", () => {
  /** The platform's scaler at the edge this test cannot have (a canvas): it reports what it was asked, and hands back a small real PNG. */
  const recordingScaler = (answer: "scaled" | "cannot") => {
    const asked: Array<{ mimeType: string; limits: ImageLimits }> = [];
    const scaler: ImageScaler = {
      scale: (_bytes, mimeType, limits) => {
        asked.push({ mimeType, limits });
        const small = pngImage(1568, 1176);
        return Promise.resolve(answer === "scaled" ? { bytes: small, mimeType: "image/png", width: 1568, height: 1176 } : null);
      },
    };
    return { scaler, asked };
  };

  it("sends an image within the limits as it is, without asking the scaler", async () => {
    const { scaler, asked } = recordingScaler("scaled");
    const prepared = await prepareImage("photo.jpg", jpegImage(1568, 1000), { scaler });
    expect(prepared).toMatchObject({ ok: true, image: { mimeType: "image/jpeg", width: 1568, height: 1000 } });
    expect(asked).toEqual([]);
  });

  it("has a larger one scaled down to the limits, or says why it was not sent", async () => {
    const big = jpegImage(4032, 3024);
    const scaled = recordingScaler("scaled");
    expect(await prepareImage("IMG_0001.jpg", big, { scaler: scaled.scaler })).toMatchObject({ ok: true, image: { mimeType: "image/png", width: 1568, height: 1176 } });
    expect(scaled.asked).toEqual([{ mimeType: "image/jpeg", limits: IMAGE_LIMITS }]);
    const values = { name: "IMG_0001.jpg", width: 4032, height: 3024, size: formatBytes(big.length), maxSide: 1568, maxSize: "1.5 MB" };
    expect(await prepareImage("IMG_0001.jpg", big, { scaler: recordingScaler("cannot").scaler })).toEqual({
      ok: false,
      problem: `IMG_0001.jpg (4032×3024, ${formatBytes(big.length)}) could not be scaled down to 1568 px on its longest side and 1.5 MB, so it was not sent`,
      case: { code: "image-scale-failed", ...values },
    });
    expect(await prepareImage("IMG_0001.jpg", big, {})).toEqual({
      ok: false,
      problem: `IMG_0001.jpg (4032×3024, ${formatBytes(big.length)}) is larger than 1568 px on its longest side and 1.5 MB, and images are not scaled down here: scale it down to send it`,
      case: { code: "image-not-scaled", ...values },
    });
  });
});
