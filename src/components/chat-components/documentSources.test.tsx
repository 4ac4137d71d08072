/**
 * PDFs in the chat view (jsdom, the real CopilotView over the real services): a vault-QA answer's
 * searched PDF names its page and opens there; inside a project, the chip of a PDF outside it says
 * it is not sent (PDFs, like images, are read only inside the project).
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { noteChip } from "../../chat/chipArtifacts";
import { openChatView, type ChatViewSetup } from "../../../test/helpers/chatViewHarness";
import { startOpenAIServer, type OpenAIServer } from "../../../test/helpers/openAIServer";
import { standardFontPdf, unicodePdf } from "../../../test/helpers/pdfFiles";
import { PROJECT_NAME, projectVaultNotes } from "../../../test/helpers/projectVault";

let server: OpenAIServer;
let setup: ChatViewSetup;
afterEach(async () => {
  // As Obsidian closes the leaf: the view's root unmounts inside act.
  await act(async () => {
    await setup?.close();
  });
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

it("inside a project, the chip of a PDF outside it says it is not sent, and one inside says nothing", async () => {
  server = await startOpenAIServer([]);
  setup = await act(() => openChatView(server, { notes: projectVaultNotes(), files: { "Личное/Выписка 💳.pdf": unicodePdf(["Баланс"]), "Тезис/Статья.pdf": unicodePdf(["Выборка"]) } }));
  const controller = setup.view.getController()!;
  await act(() => controller.setProject(PROJECT_NAME, { mode: "chat" }));
  act(() => {
    controller.addChip(noteChip("Личное/Выписка 💳.pdf"));
    controller.addChip(noteChip("Тезис/Статья.pdf"));
  });
  const chips = () => within(screen.getByRole("list", { name: "Context for the next message" })).getAllByRole("listitem").map((item) => item.textContent);
  await waitFor(() => expect(chips()).toEqual(["Выписка 💳.pdf (outside the project, not sent)×", "Статья.pdf×"]));
});
