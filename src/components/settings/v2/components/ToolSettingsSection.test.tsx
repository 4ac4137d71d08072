import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import { z } from "zod";
import type { ToolCategory, ToolDefinition } from "../../../../tools/SimpleTool";
import { ToolRegistry } from "../../../../tools/ToolRegistry";
import { ToolSettingsSection, type ToolSettingsChange } from "./ToolSettingsSection";

function tool(id: string, category: ToolCategory, extra: Partial<ToolDefinition["metadata"]> = {}, isReadOnly?: boolean): ToolDefinition {
  return {
    tool: { name: id, description: id, schema: z.object({}), func: () => Promise.resolve("ok"), isReadOnly },
    metadata: { id, displayName: `${id} tool`, description: `What ${id} does`, category, ...extra },
  };
}

/** A registry that counts its change listeners, so a test can see a subscription left behind. */
class ListenerCountingRegistry extends ToolRegistry {
  listening = 0;
  override onChange(listener: () => void): () => void {
    const unsubscribe = super.onChange(listener);
    this.listening++;
    let subscribed = true;
    return () => {
      if (subscribed) this.listening--;
      subscribed = false;
      unsubscribe();
    };
  }
}

function registryWithTools(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.registerAll([
    tool("localSearch", "search", { requiresVault: true }),
    tool("getCurrentTime", "time", { isAlwaysEnabled: true }),
    tool("readNote", "file"),
    tool("writeToFile", "file", { editsNotes: true }),
    tool("webSearch", "search"),
  ]);
  return registry;
}

/** The section with its lists kept in state, as the settings tab keeps them in the settings. */
function Harness(props: { registry: ToolRegistry; enabled: string[]; autoApprove?: string[]; changes: ToolSettingsChange[] }) {
  const [state, setState] = useState({ enabledToolIds: props.enabled, autoApproveToolIds: props.autoApprove ?? [] });
  return (
    <ToolSettingsSection
      registry={props.registry}
      enabledToolIds={state.enabledToolIds}
      autoApproveToolIds={state.autoApproveToolIds}
      onChange={(change) => {
        props.changes.push(change);
        setState(change);
      }}
    />
  );
}

const row = (id: string) => document.querySelector<HTMLElement>(`[data-tool-id="${id}"]`)!;
const mainToggle = (id: string) => within(row(id)).getByRole("checkbox", { name: /^Use / });

describe("ToolSettingsSection", () => {
  it("groups the tools by category, in the registry's order", () => {
    render(<Harness registry={registryWithTools()} enabled={[]} changes={[]} />);
    const groups = [...document.querySelectorAll<HTMLElement>("section[data-category]")];
    expect(groups.map((group) => group.dataset.category)).toEqual(["search", "time", "file"]);
    expect(within(groups[0]!).getByRole("heading").textContent).toBe("Search");
    expect([...groups[0]!.querySelectorAll<HTMLElement>("[data-tool-id]")].map((el) => el.dataset.toolId)).toEqual(["localSearch", "webSearch"]);
    expect(screen.getByText("What readNote does")).toBeTruthy();
  });

  it("shows an always-enabled tool as on and locked, whatever the settings say", () => {
    const changes: ToolSettingsChange[] = [];
    render(<Harness registry={registryWithTools()} enabled={[]} changes={changes} />);
    const toggle = mainToggle("getCurrentTime") as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    expect(toggle.disabled).toBe(true);
    expect(within(row("getCurrentTime")).getByText("Always on")).toBeTruthy();
    fireEvent.click(toggle);
    expect(changes).toEqual([]);
  });

  it("switching a tool on and off hands back the new enabled ids, keeping the others", () => {
    const changes: ToolSettingsChange[] = [];
    render(<Harness registry={registryWithTools()} enabled={["readNote", "mcp_gone_tool"]} changes={changes} />);
    expect((mainToggle("readNote") as HTMLInputElement).checked).toBe(true);
    fireEvent.click(mainToggle("localSearch"));
    fireEvent.click(mainToggle("readNote"));
    expect(changes).toEqual([
      { enabledToolIds: ["readNote", "mcp_gone_tool", "localSearch"], autoApproveToolIds: [] },
      { enabledToolIds: ["mcp_gone_tool", "localSearch"], autoApproveToolIds: [] },
    ]);
    expect((mainToggle("readNote") as HTMLInputElement).checked).toBe(false);
  });

  it("draws each switch as Obsidian's toggle (div.checkbox-container, is-enabled when on), and a click on the container flips it", () => {
    const changes: ToolSettingsChange[] = [];
    render(<Harness registry={registryWithTools()} enabled={["readNote"]} changes={changes} />);
    const container = (id: string) => mainToggle(id).parentElement!;
    expect(container("readNote").className).toBe("checkbox-container is-enabled");
    expect(container("localSearch").className).toBe("checkbox-container");
    expect(container("getCurrentTime").className).toBe("checkbox-container is-enabled is-disabled");
    fireEvent.click(container("localSearch"));
    expect(changes.at(-1)?.enabledToolIds).toEqual(["readNote", "localSearch"]);
    expect(container("localSearch").className).toBe("checkbox-container is-enabled");
    fireEvent.click(container("getCurrentTime"));
    expect(changes).toHaveLength(1);
  });

  it("offers 'apply edits without asking' only for edit tools, off by default, with a warning once on", () => {
    const changes: ToolSettingsChange[] = [];
    render(<Harness registry={registryWithTools()} enabled={["writeToFile"]} changes={changes} />);
    expect(within(row("readNote")).queryByText("Apply edits without asking")).toBeNull();
    const autoApprove = within(row("writeToFile")).getByRole<HTMLInputElement>("checkbox", { name: /without asking/ });
    expect(autoApprove.checked).toBe(false);
    expect(within(row("writeToFile")).queryByText(/without showing you the change/)).toBeNull();
    fireEvent.click(autoApprove);
    expect(changes).toEqual([{ enabledToolIds: ["writeToFile"], autoApproveToolIds: ["writeToFile"] }]);
    expect(within(row("writeToFile")).getByText(/without showing you the change/)).toBeTruthy();
  });

  it("knows an edit tool by its editsNotes flag, not by its id", () => {
    const registry = new ToolRegistry();
    registry.registerAll([tool("writeToFile", "file"), tool("appendToNote", "file", { editsNotes: true })]);
    render(<Harness registry={registry} enabled={["writeToFile", "appendToNote"]} changes={[]} />);
    expect(within(row("writeToFile")).queryByRole("checkbox", { name: /without asking/ })).toBeNull();
    expect(within(row("appendToNote")).getByRole("checkbox", { name: /without asking/ })).toBeTruthy();
  });

  it("offers every MCP tool 'run without asking' in words about calls, not notes, locked while the tool is off", () => {
    const registry = registryWithTools();
    registry.registerAll([tool("mcp_srv_append", "mcp", {}, false), tool("mcp_files_list", "mcp", {}, true)]);
    const changes: ToolSettingsChange[] = [];
    render(<Harness registry={registry} enabled={["mcp_srv_append"]} changes={changes} />);
    // A server's read-only hint is not trusted, so a "read-only" MCP tool asks too and can be let through.
    expect(within(row("mcp_files_list")).getByRole<HTMLInputElement>("checkbox", { name: "Run mcp_files_list tool without asking" }).disabled).toBe(true);
    const autoApprove = within(row("mcp_srv_append")).getByRole<HTMLInputElement>("checkbox", { name: "Run mcp_srv_append tool without asking" });
    expect(autoApprove.disabled).toBe(false);
    act(() => autoApprove.click());
    expect(changes).toEqual([{ enabledToolIds: ["mcp_srv_append"], autoApproveToolIds: ["mcp_srv_append"] }]);
  });

  it("warns of calls sent at once for an auto-approved MCP tool, never of notes written", () => {
    const registry = registryWithTools();
    registry.register(tool("mcp_srv_append", "mcp", {}, false));
    render(<Harness registry={registry} enabled={["mcp_srv_append"]} autoApprove={["mcp_srv_append"]} changes={[]} />);
    const mcpRow = row("mcp_srv_append");
    expect(within(mcpRow).getByText("Calls to this tool go to its server at once, without asking you first.")).toBeTruthy();
    expect(mcpRow.textContent).not.toMatch(/notes|edit/i);
  });

  it("re-renders when tools are registered or removed (MCP servers come and go)", () => {
    const registry = registryWithTools();
    render(<Harness registry={registry} enabled={[]} changes={[]} />);
    expect(document.querySelector('section[data-category="mcp"]')).toBeNull();
    act(() => registry.register(tool("mcp_files_list", "mcp")));
    expect(within(document.querySelector<HTMLElement>('section[data-category="mcp"]')!).getByText("mcp_files_list tool")).toBeTruthy();
    act(() => void registry.unregisterByPrefix("mcp_files_"));
    expect(document.querySelector('section[data-category="mcp"]')).toBeNull();
  });

  it("listens to the registry once while mounted, and not at all once unmounted", () => {
    const registry = new ListenerCountingRegistry();
    registry.registerAll([tool("readNote", "file")]);
    const changes: ToolSettingsChange[] = [];
    const { unmount } = render(<Harness registry={registry} enabled={[]} changes={changes} />);
    expect(registry.listening).toBe(1);
    // A re-render (here, a toggle) does not subscribe a second time.
    fireEvent.click(mainToggle("readNote"));
    expect(changes).toHaveLength(1);
    expect(registry.listening).toBe(1);
    unmount();
    expect(registry.listening).toBe(0);
    expect(() => registry.register(tool("late", "custom"))).not.toThrow();
    expect(document.querySelector("[data-tool-id]")).toBeNull();
  });

  it("says so when there are no tools", () => {
    render(<Harness registry={new ToolRegistry()} enabled={[]} changes={[]} />);
    expect(screen.getByText("No tools are available yet.")).toBeTruthy();
  });
});
