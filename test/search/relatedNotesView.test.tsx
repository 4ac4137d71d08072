/**
 * Related notes where people see them: the "Related notes" section of the chat view and the
 * "Related notes" sidebar view, on the Obsidian double over real notes and the real note index.
 */
import type { TFile as ObsidianTFile, WorkspaceLeaf } from "obsidian";
import type { View } from "../obsidian/obsidian";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { RELATED_VIEW_TYPE } from "../../src/constants";
import { RelatedNotesView } from "../../src/components/RelatedNotesView";
import { openChatView, type ChatViewSetup } from "../helpers/chatViewHarness";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const NOTES: Record<string, string> = {
  "Garden/Tomatoes.md": "---\ntags: [garden]\n---\n# Tomatoes\n\nTomatoes need compost, deep watering and full sun.\n",
  "Garden/Compost.md": "# Compost\n\nCompost feeds tomatoes and beans. Turn the compost heap weekly. #garden\n",
  "Garden/Watering.md": "# Watering\n\nDeep watering in the morning; tomatoes split with uneven watering.\n",
  "Money/Budget.md": "# Budget\n\nThe budget: rent, invoices, savings. Invoices are paid monthly.\n",
  "Money/Invoices.md": "# Invoices\n\nInvoices from the vendor; the budget line for invoices.\n",
  "Travel/Lisbon.md": "# Lisbon\n\nTrams, pastries and the river.\n",
};

let server: OpenAIServer | undefined;
let chat: ChatViewSetup | undefined;
afterEach(async () => {
  await act(async () => chat?.close());
  chat = undefined;
  await server?.close();
  server = undefined;
});

async function openNote(setup: ChatViewSetup, path: string): Promise<void> {
  const file = setup.app.vault.getAbstractFileByPath(path) as unknown as ObsidianTFile;
  await act(async () => {
    await setup.app.workspace.openFile(file as never);
  });
}

describe("the chat view's Related notes section", () => {
  it("lists the open note's related notes with why, follows the open note, and adds one to the context", async () => {
    server = await startOpenAIServer([]);
    chat = await act(() => openChatView(server!, { notes: NOTES }));
    await openNote(chat, "Garden/Tomatoes.md");
    fireEvent.click(screen.getByText("Related notes", { selector: "summary" }));
    const list = await screen.findByRole("list", { name: "Related notes" });
    const items = within(list).getAllByRole("listitem");
    expect(items.slice(0, 2).map((item) => item.querySelector("a")!.textContent).sort()).toEqual(["Compost", "Watering"]);
    const compost = items.find((item) => item.querySelector("a")!.textContent === "Compost")!;
    expect(compost.querySelector(".vault-copilot-related-why")!.textContent).toMatch(/shares .*“compost”.*tagged #garden/);
    expect(list.textContent).not.toContain("Tomatoes");

    await openNote(chat, "Money/Budget.md");
    await waitFor(() => expect(within(screen.getByRole("list", { name: "Related notes" })).getAllByRole("listitem")[0]!.textContent).toContain("Invoices"));

    fireEvent.click(screen.getByRole("button", { name: "Add Invoices to chat" }));
    const chips = screen.getByRole("list", { name: "Context for the next message" });
    await waitFor(() => expect(chips.textContent).toContain("Invoices"));
  });
});

describe("the Related notes view", () => {
  it("follows the note in the editor and opens a related note on click", async () => {
    server = await startOpenAIServer([]);
    chat = await act(() => openChatView(server!, { notes: NOTES }));
    const added: string[] = [];
    const setup = chat;
    setup.app.workspace.registerViewType(
      RELATED_VIEW_TYPE,
      (leaf) =>
        new RelatedNotesView(leaf as unknown as WorkspaceLeaf, {
          source: { similar: (path, signal) => setup.index.similar(path, { limit: 5, signal }) },
          addToChat: (path) => added.push(path),
        }) as unknown as View,
    );
    const leaf = setup.app.workspace.getRightLeaf(false);
    await act(() => leaf.setViewState({ type: RELATED_VIEW_TYPE, active: true }));
    const view = (leaf.view as unknown as RelatedNotesView).contentEl;
    expect(view.textContent).toContain("Open a note to see the notes related to it.");

    await openNote(setup, "Garden/Watering.md");
    await waitFor(() => expect(view.querySelector(".vault-copilot-related-item")?.textContent).toMatch(/Tomatoes|Compost/));
    const names = [...view.querySelectorAll(".vault-copilot-related-item a")].map((link) => link.textContent);
    expect(names).not.toContain("Watering");
    expect(view.querySelector(".vault-copilot-related-score")?.textContent).toMatch(/^\d\.\d\d$/);

    fireEvent.click(within(view).getAllByRole("button", { name: /^Add .* to chat$/ })[0]!);
    expect(added).toHaveLength(1);
    const first = view.querySelector<HTMLAnchorElement>(".vault-copilot-related-item a")!;
    fireEvent.click(first);
    expect(setup.app.workspace.openedLinks.at(-1)?.linktext).toBe(added[0]);
  });
});
