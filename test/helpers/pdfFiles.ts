import { createHash } from "node:crypto";
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";

/**
 * PDFs for tests, made here rather than checked in:
 * - `standardFontPdf`: pdf-lib with Helvetica (its WinAnsi characters: Latin with accents), one
 *   page per string, "" for a page with a drawing and no text;
 * - `unicodePdf`: written by hand, a Type0 font with a ToUnicode map and no glyphs, which is
 *   what a text layer is: any script (Cyrillic, Han, Arabic, Thai, emoji) is extracted as
 *   written, though nothing would draw. A line in a right-to-left script is written in visual
 *   order, as PDF producers write it (pdf.js turns it back into reading order). Optionally encrypted with the standard security handler
 *   (RC4, 40-bit, revision 2), so an empty user password opens it and any other asks for one.
 */
export async function standardFontPdf(pages: readonly string[]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = document.addPage([612, 792]);
    if (text === "") {
      page.drawRectangle({ x: 100, y: 300, width: 200, height: 150, color: rgb(0.2, 0.4, 0.8) });
      continue;
    }
    let y = 740;
    for (const line of wrap(text, 90)) {
      if (y < 40) break;
      page.drawText(line, { x: 40, y, size: 10, font });
      y -= 13;
    }
  }
  return document.save();
}

/** Words wrapped into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines;
}

/** A right-to-left line (Arabic, Hebrew) as it is drawn, left to right; any other line as it is. */
function visualOrder(line: string): string[] {
  const characters = [...line];
  return /[\u0590-\u08FF]/.test(line) ? characters.reverse() : characters;
}

const PAD = Buffer.from("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A", "hex");

export interface UnicodePdfOptions {
  /** Encrypts the PDF; "" opens without asking (pdf.js decrypts it), any other password is asked for. */
  userPassword?: string;
  ownerPassword?: string;
}

/** A PDF whose pages hold these lines ("\n" between lines) in any script; see the file's comment. */
export function unicodePdf(pages: readonly string[], options: UnicodePdfOptions = {}): Uint8Array {
  const codes = new Map<string, number>();
  const codeOf = (character: string) => {
    let code = codes.get(character);
    if (code === undefined) {
      code = codes.size + 1;
      codes.set(character, code);
    }
    return code;
  };
  const hex4 = (value: number) => value.toString(16).padStart(4, "0").toUpperCase();
  const contents = pages.map((text) => {
    const lines = text.split("\n").map((line) => `<${visualOrder(line).map((character) => hex4(codeOf(character))).join("")}> Tj`);
    return lines.length === 0 || text === "" ? "" : `BT /F1 12 Tf 14 TL 50 740 Td ${lines.join(" T* ")} ET`;
  });
  const toUnicode = [
    "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
    "/CMapName /Adobe-Identity-UCS def /CMapType 2 def",
    "1 begincodespacerange <0000> <FFFF> endcodespacerange",
    ...[...codes].map(([character, code]) => `1 beginbfchar <${hex4(code)}> <${Buffer.from(character, "utf16le").swap16().toString("hex").toUpperCase()}> endbfchar`),
    "endcmap CMapName currentdict /CMap defineresource pop end end",
  ].join("\n");

  const objects: Array<{ dictionary: string; stream?: string }> = [];
  const add = (dictionary: string, stream?: string) => objects.push({ dictionary, ...(stream !== undefined ? { stream } : {}) }) ;
  const firstPage = 7;
  add("<< /Type /Catalog /Pages 2 0 R >>");
  add(`<< /Type /Pages /Kids [${pages.map((_, index) => `${firstPage + index * 2} 0 R`).join(" ")}] /Count ${pages.length} >>`);
  add("<< /Type /Font /Subtype /Type0 /BaseFont /TestUnicode /Encoding /Identity-H /DescendantFonts [4 0 R] /ToUnicode 5 0 R >>");
  add("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /TestUnicode /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 6 0 R /DW 600 >>");
  add("", toUnicode);
  add("<< /Type /FontDescriptor /FontName /TestUnicode /Flags 4 /FontBBox [0 -200 1000 800] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>");
  contents.forEach((content, index) => {
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${firstPage + index * 2 + 1} 0 R >>`);
    add("", content);
  });

  const encryption = options.userPassword === undefined ? null : standardSecurity(options.userPassword, options.ownerPassword ?? "owner");
  const encryptNumber = objects.length + 1;
  const chunks: Buffer[] = [Buffer.from("%PDF-1.4\n%\xE2\xE3\xCF\xD3\n", "latin1")];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  const push = (chunk: Buffer) => {
    chunks.push(chunk);
    length += chunk.length;
  };
  objects.forEach((object, index) => {
    const number = index + 1;
    offsets.push(length);
    if (object.stream === undefined) {
      push(Buffer.from(`${number} 0 obj\n${object.dictionary}\nendobj\n`, "latin1"));
      return;
    }
    let data: Buffer = Buffer.from(object.stream, "latin1");
    if (encryption) data = rc4(objectKey(encryption.key, number), data);
    push(Buffer.from(`${number} 0 obj\n<< /Length ${data.length} >>\nstream\n`, "latin1"));
    push(data);
    push(Buffer.from("\nendstream\nendobj\n", "latin1"));
  });
  let trailerExtra = "";
  if (encryption) {
    offsets.push(length);
    push(Buffer.from(`${encryptNumber} 0 obj\n<< /Filter /Standard /V 1 /R 2 /O <${encryption.owner.toString("hex")}> /U <${encryption.user.toString("hex")}> /P ${PERMISSIONS} >>\nendobj\n`, "latin1"));
    trailerExtra = ` /Encrypt ${encryptNumber} 0 R /ID [<${FILE_ID.toString("hex")}> <${FILE_ID.toString("hex")}>]`;
  }
  const xref = length;
  const entries = offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  push(Buffer.from(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R${trailerExtra} >>\nstartxref\n${xref}\n%%EOF\n`, "latin1"));
  return new Uint8Array(Buffer.concat(chunks));
}

const PERMISSIONS = -44;
const FILE_ID = Buffer.from("5c3f1e0b9a7d4c2e8f6a1b0c3d2e4f50", "hex");

function padded(password: string): Buffer {
  return Buffer.concat([Buffer.from(password, "latin1"), PAD]).subarray(0, 32);
}

function md5(...parts: Buffer[]): Buffer {
  const hash = createHash("md5");
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** The standard security handler, revision 2 (PDF 1.7, 7.6.3.3-4: algorithms 2, 3 and 4). */
function standardSecurity(userPassword: string, ownerPassword: string): { key: Buffer; owner: Buffer; user: Buffer } {
  const owner = rc4(md5(padded(ownerPassword)).subarray(0, 5), padded(userPassword));
  const permissions = Buffer.alloc(4);
  permissions.writeInt32LE(PERMISSIONS);
  const key = md5(padded(userPassword), owner, permissions, FILE_ID).subarray(0, 5);
  return { key, owner, user: rc4(key, PAD) };
}

/** The key of one object's strings and streams (algorithm 1): the file key with the object's number and generation. */
function objectKey(key: Buffer, number: number): Buffer {
  const suffix = Buffer.from([number & 0xff, (number >> 8) & 0xff, (number >> 16) & 0xff, 0, 0]);
  return md5(key, suffix).subarray(0, Math.min(16, key.length + 5));
}

function rc4(key: Buffer, data: Buffer): Buffer {
  const state = Array.from({ length: 256 }, (_, index) => index);
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + state[i]! + key[i % key.length]!) & 0xff;
    [state[i], state[j]] = [state[j]!, state[i]!];
  }
  const out = Buffer.alloc(data.length);
  let i = 0;
  j = 0;
  for (let index = 0; index < data.length; index++) {
    i = (i + 1) & 0xff;
    j = (j + state[i]!) & 0xff;
    [state[i], state[j]] = [state[j]!, state[i]!];
    out[index] = data[index]! ^ state[(state[i]! + state[j]!) & 0xff]!;
  }
  return out;
}
