import { callTool, makeToolDependencies } from "../../../test/helpers/toolHarness";
import { startLocalServer, type LocalServer } from "../../../test/helpers/localServer";
import { findYouTubeVideoIds } from "./findYouTubeVideoIds";
import { transcriptLines, youtubeTranscriptionTool, type YouTubeTranscriptionOutput } from "./youtubeTranscription";
import { parseTimedText } from "./youtubeTranscript";

const TALK = "dQw4w9WgXcQ";
const SILENT = "aaaaaaaaaaa";
const GONE = "bbbbbbbbbbb";
const GERMAN = "ccccccccccc";

/** A watch page as YouTube serves it: the player response assigned in an inline script. */
function watchPage(player: object): string {
  return (
    '<!DOCTYPE html><html lang="en"><head><title>YouTube</title></head><body><div id="player"></div>' +
    `<script nonce="abc">var ytInitialPlayerResponse = ${JSON.stringify(player).replace(/&/g, "\\u0026")};` +
    "var meta = document.createElement('meta');</script><script>var ytInitialData = {\"contents\":{}};</script></body></html>"
  );
}

function track(server: string, id: string, languageCode: string, kind?: string, name = languageCode) {
  return {
    baseUrl: `${server}/api/timedtext?v=${id}&ei=x&caps=asr&opi=1&xoaf=5&lang=${languageCode}${kind ? `&kind=${kind}` : ""}`,
    name: { simpleText: name },
    vssId: `${kind === "asr" ? "a" : ""}.${languageCode}`,
    languageCode,
    ...(kind ? { kind } : {}),
    isTranslatable: true,
    trackName: "",
  };
}

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer((request) => {
    const url = new URL(request.url, "http://local");
    const id = url.searchParams.get("v") ?? "";
    if (url.pathname === "/watch") {
      const details = (title: string) => ({ videoId: id, title, lengthSeconds: "4000", author: "Someone" });
      const ok = { status: "OK", playableInEmbed: true };
      const pages: Record<string, object> = {
        [TALK]: {
          playabilityStatus: ok,
          captions: { playerCaptionsTracklistRenderer: { captionTracks: [track(server.url, TALK, "en", "asr", "English (auto-generated)")], audioTracks: [{ captionTrackIndices: [0] }] } },
          videoDetails: details('A talk about {braces} and "quotes"'),
        },
        [SILENT]: { playabilityStatus: ok, videoDetails: details("No captions here") },
        [GONE]: { playabilityStatus: { status: "ERROR", reason: "Video unavailable" } },
        [GERMAN]: {
          playabilityStatus: ok,
          captions: {
            playerCaptionsTracklistRenderer: {
              captionTracks: [track(server.url, GERMAN, "en", "asr"), track(server.url, GERMAN, "de", undefined, "German"), track(server.url, GERMAN, "en", undefined, "English")],
            },
          },
          videoDetails: details("Zweisprachig"),
        },
      };
      const page = pages[id];
      return page ? { headers: { "Content-Type": "text/html; charset=utf-8" }, body: watchPage(page) } : { status: 404, body: "not found" };
    }
    if (url.pathname === "/api/timedtext") {
      const lang = url.searchParams.get("lang");
      if (id === TALK) {
        return {
          headers: { "Content-Type": "text/xml; charset=UTF-8" },
          body:
            '<?xml version="1.0" encoding="utf-8" ?><transcript>' +
            '<text start="0.16" dur="3.04">hello everyone it&amp;#39;s great</text>' +
            '<text start="3.2" dur="2.5">to be here &amp;amp; talk</text>' +
            '<text start="83.5" dur="4">about &lt;/video&gt; tags</text>' +
            '<text start="3725" dur="2">an hour in</text></transcript>',
        };
      }
      return { headers: { "Content-Type": "text/xml" }, body: `<?xml version="1.0" encoding="utf-8" ?><transcript><text start="1" dur="1">${lang === "de" ? "Hallo zusammen" : "Hello all"}</text></transcript>` };
    }
    return { status: 404, body: "" };
  });
});
afterAll(() => server.close());

const dependencies = () => makeToolDependencies({ youtubeBaseUrl: server.url });

describe("findYouTubeVideoIds", () => {
  it("finds ids in every link form, in order, once each", () => {
    const text =
      `See https://www.youtube.com/watch?v=${TALK}&t=42s and youtu.be/${SILENT}?si=x, ` +
      `m.youtube.com/shorts/${GONE}, <iframe src="https://www.youtube-nocookie.com/embed/${GERMAN}">, ` +
      `https://youtube.com/watch?feature=share&v=${TALK}`;
    expect(findYouTubeVideoIds(text)).toEqual([TALK, SILENT, GONE, GERMAN]);
    expect(findYouTubeVideoIds(`  ${TALK} `)).toEqual([TALK]);
    expect(findYouTubeVideoIds("no video here, just elevenchar words")).toEqual([]);
  });
});

describe("youtubeTranscription", () => {
  it("fetches the transcript through the watch page and prints timestamped lines", async () => {
    const result = await callTool(youtubeTranscriptionTool, dependencies(), { input: `Summarize https://www.youtube.com/watch?v=${TALK}` });
    expect(result.status).toBe("ok");
    const video = (result.output as YouTubeTranscriptionOutput).videos[0];
    expect(video).toMatchObject({ status: "ok", title: 'A talk about {braces} and "quotes"', autoGenerated: true, language: "English (auto-generated)" });
    expect(result.text).toContain("[0:00:00] hello everyone it's great to be here &amp; talk");
    expect(result.text).toContain('language="English (auto-generated)"');
    expect(result.text).toContain("[0:01:23] about &lt;/video&gt; tags");
    expect(result.text).toContain("[1:02:05] an hour in");
    expect(result.text.match(/<\/video>/g)).toHaveLength(1);
    expect(server.requests.some((r) => r.url.startsWith(`/watch?v=${TALK}`))).toBe(true);
  });

  it("says clearly which videos have no transcript or cannot be played", async () => {
    const result = await callTool(youtubeTranscriptionTool, dependencies(), { input: `youtu.be/${SILENT} and youtu.be/${GONE}` });
    const [silent, gone] = (result.output as YouTubeTranscriptionOutput).videos;
    expect(silent).toMatchObject({ status: "none", title: "No captions here" });
    expect(gone).toMatchObject({ status: "unavailable", reason: "the video is not playable (Video unavailable)" });
    expect(result.text).toContain("No transcript: the video has no transcript (no captions exist, or they are turned off).");
  });

  it("prefers the asked language, and hand-made captions over generated ones", async () => {
    const german = await callTool(youtubeTranscriptionTool, dependencies(), { input: GERMAN, language: "de" });
    expect(german.text).toContain("[00:01] Hallo zusammen");
    const english = (await callTool(youtubeTranscriptionTool, dependencies(), { input: GERMAN })).output as YouTubeTranscriptionOutput;
    expect(english.videos[0]).toMatchObject({ language: "English", autoGenerated: false });
    const generatedOnly = await callTool(youtubeTranscriptionTool, dependencies(), { input: GERMAN, language: "fr" });
    expect(generatedOnly.text).toContain('language="English"');
  });

  it("reports a page YouTube would not serve for one video without failing the others", async () => {
    const result = await callTool(youtubeTranscriptionTool, dependencies(), { input: `youtu.be/zzzzzzzzzzz youtu.be/${SILENT}` });
    const [missing, silent] = (result.output as YouTubeTranscriptionOutput).videos;
    expect(missing).toMatchObject({ status: "failed", reason: "YouTube answered HTTP 404 for the video page" });
    expect(silent?.status).toBe("none");
  });

  it("asks for a link when the input holds none, and names missing fields", async () => {
    const none = await callTool(youtubeTranscriptionTool, dependencies(), { input: "summarize the video please" });
    expect(none.status).toBe("error");
    expect(none.text).toContain("No YouTube video link or id was found");
    const missing = await callTool(youtubeTranscriptionTool, dependencies(), {});
    expect(missing.status).toBe("invalid-arguments");
    expect(missing.text).toContain("`input`");
  });
});

describe("timedtext parsing", () => {
  it("reads format 3 captions (milliseconds, nested spans) too", () => {
    const xml = '<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body><p t="1500" d="2000"><s>Hello</s><s t="400"> world</s></p><p t="20000" d="1000">again</p></body></timedtext>';
    expect(parseTimedText(xml)).toEqual([
      { start: 1.5, text: "Hello world" },
      { start: 20, text: "again" },
    ]);
  });

  it("joins short segments into lines of about fifteen seconds", () => {
    const lines = transcriptLines([
      { start: 0, text: "one" },
      { start: 5, text: "two" },
      { start: 16, text: "three" },
    ]);
    expect(lines).toEqual(["[00:00] one two", "[00:16] three"]);
  });
});
