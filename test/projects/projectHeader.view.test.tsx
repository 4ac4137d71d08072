/**
 * The chat header inside a project (jsdom, the view over the Obsidian double and real services):
 * the Project picker, and the line that says the chat sees only the project's notes and which MCP
 * servers keep their tools (a server cannot be scoped, so only those the project note lists).
 */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { chatViewSession } from "../helpers/chatViewSession";

const MCP_SERVERS = [
  { name: "files", enabled: true, transport: "stdio" as const, command: "npx", args: [], env: {} },
  { name: "calendar", enabled: true, transport: "stdio" as const, command: "npx", args: [], env: {} },
];

describe("the chat header in a project", () => {
  const session = chatViewSession({
    settings: { mcpServers: MCP_SERVERS },
    notes: {
      "copilot/projects/Дневник.md": "---\nfolders: [Дневник]\n---\n",
      "copilot/projects/Работа 💼.md": "---\nfolders: [Работа]\nmcp: [calendar]\n---\n",
      "Дневник/2026.md": "x\n",
    },
  });

  it("offers the projects, and says which MCP tools stay on in the one chosen", async () => {
    await session.open([]);
    const picker = await waitFor(() => screen.getByRole("combobox", { name: "Project" }));
    await waitFor(() => expect([...picker.querySelectorAll("option")].map((option) => option.textContent)).toEqual(["No project", "Дневник", "Работа 💼"]));
    expect(screen.queryByRole("note")).toBeNull();

    await act(async () => {
      fireEvent.change(picker, { target: { value: "Дневник" } });
      await Promise.resolve();
    });
    await waitFor(() => expect(screen.getByRole("note").textContent).toBe("Project Дневник: Copilot sees and changes only its notes. MCP tools are off in this project."));
    await act(async () => {
      fireEvent.change(picker, { target: { value: "Работа 💼" } });
      await Promise.resolve();
    });
    await waitFor(() => expect(screen.getByRole("note").textContent).toBe("Project Работа 💼: Copilot sees and changes only its notes. MCP tools: only calendar (the project lists it)."));
    await act(async () => {
      fireEvent.change(picker, { target: { value: "" } });
      await Promise.resolve();
    });
    await waitFor(() => expect(screen.queryByRole("note")).toBeNull());
  });
});
