import { makeChat, type ChatSetup } from "../../test/helpers/chatHarness";
import { startOpenAIServer, type OpenAIServer } from "../../test/helpers/openAIServer";
import { contentText } from "../../test/helpers/runnerHarness";
import { standardFontPdf } from "../../test/helpers/pdfFiles";
import { formatLayeredPayload } from "../context/promptPayloadRecorder";
import { DocumentReader } from "../documents/DocumentReader";
import { nodePdfText } from "../documents/node/nodePdfText";
import { noteChip, readChipArtifacts } from "./chipArtifacts";

const pdfText = nodePdfText();
afterAll(() => pdfText.dispose());

let server: OpenAIServer;
let setup: ChatSetup;
afterEach(async () => {
  await setup?.dispose();
  await server?.close();
});

it("a PDF attached past the page cap says so in the request the model gets and in the request view", async () => {
  server = await startOpenAIServer([{ text: "Read." }]);
  let documents: DocumentReader | undefined;
  setup = makeChat(server, {
    controller: { readContext: (chips, signal) => readChipArtifacts(setup.fsVault, chips, signal, { documents }) },
  });
  documents = new DocumentReader({ vault: setup.fsVault, pdf: pdfText, limits: { maxPdfPages: 2, maxPdfCharacters: 100_000 } });
  setup.vault.write("Papers/Long.pdf", await standardFontPdf(["First page.", "Second page.", "Third page.", "Fourth page."]));

  setup.controller.addChip(noteChip("Papers/Long.pdf"));
  await setup.controller.send("Summarize it");
  const notice = "Only the first 2 of this PDF's 4 pages were read: the cap on a PDF's pages.";
  const sent = (server.requests[0]?.body.messages ?? []).map((message) => contentText(message.content)).join("\n");
  expect(sent).toContain("[page 2]\nSecond page.");
  expect(sent).not.toContain("Third page.");
  expect(sent).toContain(notice);
  expect(formatLayeredPayload(setup.recorder.getLast()!)).toContain(notice);
});
