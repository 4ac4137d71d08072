/**
 * @jest-environment node
 *
 * What a chip could not give is told as its English sentence (the CLI prints it, English reads
 * it) and beside it its case with its values, for a view that says it in another language. Real
 * folder of notes; names in Cyrillic, Han, Arabic, Thai, emoji and NFD.
 */
import { truncateSync } from "node:fs";
import { join } from "node:path";
import { pngImage } from "../../test/helpers/imageFiles";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { FsVault } from "../vault/FsVault";
import { folderChip, imageChip, MAX_NOTES_PER_CHIP, noteChip, pastedImageChip, readChipArtifacts, tagChip } from "./chipArtifacts";

let temp: TempVault;
let vault: FsVault;
const GONE_NOTE = "Заметки/Исчезнувшая 消失.md";
/** "Café" with its accent as a separate mark (NFD), as macOS writes names. */
const NFD_IMAGE = "Cafe\u0301 ☕.png";

beforeEach(() => {
  temp = makeTempVault({
    ...Object.fromEntries(Array.from({ length: MAX_NOTES_PER_CHIP + 3 }, (_, index) => [`โครงการ/บันทึก ${index}.md`, `# ${index}\n\n#проект/草稿 ملاحظة`])),
    "Фото/огромное 🐘.png": "",
  });
  // A sparse file: larger than any image read (40 MB) without writing its bytes.
  truncateSync(join(temp.root, "Фото/огромное 🐘.png"), 41 * 1_048_576);
  vault = new FsVault(temp.root);
});
afterEach(() => temp.remove());

describe("a chip's problems carry their case", () => {
  it("a note that cannot be read: its path, the error's sentence and the kind it was raised with", async () => {
    const { problems } = await readChipArtifacts(vault, [noteChip(GONE_NOTE)]);
    expect(problems).toEqual([
      {
        text: `${GONE_NOTE}: No file at "${GONE_NOTE}"`,
        case: { code: "unreadable", path: GONE_NOTE, reason: `No file at "${GONE_NOTE}"`, failure: { kind: "note-not-found", values: { note: GONE_NOTE } } },
      },
    ]);
  });

  it("a folder and a tag past the cap: the folder, the cap and the count; the tag and the cap", async () => {
    const { artifacts, problems } = await readChipArtifacts(vault, [folderChip("โครงการ"), tagChip("проект/草稿")]);
    expect(artifacts).toHaveLength(MAX_NOTES_PER_CHIP);
    expect(problems).toEqual([
      { text: "โครงการ/: only the first 20 of 23 notes were attached", case: { code: "folder-capped", folder: "โครงการ/", cap: 20, count: 23 } },
      { text: "#проект/草稿: only the first 20 notes with this tag were attached", case: { code: "tag-capped", tag: "#проект/草稿", cap: 20 } },
    ]);
  });

  it("a pasted image of a reopened chat, and an image where images are not read", async () => {
    const pasted = await readChipArtifacts(vault, [pastedImageChip("لقطة الشاشة.png", new Uint8Array())], undefined, { images: {} });
    expect(pasted.problems).toEqual([
      { text: "لقطة الشاشة.png: a pasted image is not kept with a saved chat; paste it again to send it", case: { code: "pasted-not-kept", name: "لقطة الشاشة.png" } },
    ]);
    temp.write("ภาพ/ภาพถ่าย.png", pngImage(20, 10));
    const unread = await readChipArtifacts(vault, [imageChip("ภาพ/ภาพถ่าย.png")]);
    expect(unread.problems).toEqual([{ text: "ภาพ/ภาพถ่าย.png: images are not read here, so it was not sent", case: { code: "images-not-read", name: "ภาพ/ภาพถ่าย.png" } }]);
  });

  it("an image file too large to read, and one that cannot be read, with the error's kind", async () => {
    const { problems } = await readChipArtifacts(vault, [imageChip("Фото/огромное 🐘.png"), imageChip(NFD_IMAGE)], undefined, { images: {} });
    expect(problems).toEqual([
      { text: "Фото/огромное 🐘.png: it is 41 MB, larger than the 40 MB read as an image", case: { code: "image-file-too-large", name: "Фото/огромное 🐘.png", megabytes: 41, limit: 40 } },
      {
        text: `${NFD_IMAGE}: No file at "${NFD_IMAGE}"`,
        case: { code: "image-unreadable", name: NFD_IMAGE, reason: `No file at "${NFD_IMAGE}"`, failure: { kind: "note-not-found", values: { note: NFD_IMAGE } } },
      },
    ]);
  });
});
