import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { openChatView, type ChatViewSetup } from "../../../test/helpers/chatViewHarness";
import { startOpenAIServer, type OpenAIServer } from "../../../test/helpers/openAIServer";
import { standardFontPdf } from "../../../test/helpers/pdfFiles";

let server: OpenAIServer;
let setup: ChatViewSetup;
afterEach(async () => {
  await setup?.close();
  await server?.close();
});

jest.setTimeout(30_000);

it("lists a PDF among a vault-QA answer's searched notes with its page, and opens the PDF at that page", async () => {
  server = await startOpenAIServer([{ text: "Twice a month [[Papers/Tides.pdf#page=2]]." }]);
  setup = await act(() => openChatView(server, { settings: { defaultMode: "vault-qa" }, notes: { "Notes/Garden.md": "Tulips in autumn." } }));
  setup.vault.write("Papers/Tides.pdf", await standardFontPdf(["The harbour town.", "Spring tides come twice a month; the tide gauge records each one."]));
  const opened = jest.spyOn(setup.app.workspace, "openLinkText");

  const box = screen.getByRole("textbox", { name: "Message" });
  fireEvent.change(box, { target: { value: "When do spring tides come?" } });
  fireEvent.keyDown(box, { key: "Enter" });
  const answer = await waitFor(() => {
    const found = within(screen.getByRole("log", { name: "Conversation" })).getAllByRole("article", { name: "Copilot" })[0];
    expect(found?.textContent).toContain("Searched notes (1)");
    return found!;
    // The first PDF read starts pdfjs-dist's worker.
  }, { timeout: 20_000 });
  const source = within(answer).getByText("Tides.pdf");
  expect(source.closest("li")?.textContent).toBe("Tides.pdf › page 2");
  fireEvent.click(source);
  expect(opened.mock.calls[0]?.[0]).toBe("Papers/Tides.pdf#page=2");
});
