import { Component } from "obsidian";
import { memo, useContext, useEffect, useRef, type MouseEvent } from "react";
import { useChatHost } from "./ChatHost";
import { MarkdownBlockSplitter } from "./markdownBlocks";
import { neutralizeMarkdown } from "./untrustedMarkdown";
import { createInertDocument, InertDocumentContext, renderInert } from "./untrustedRender";

/**
 * An answer's text as rendered Markdown. While it streams, the blocks that are complete are each
 * rendered once and kept; only the last, growing block is rendered again as text arrives.
 * Internal links open notes (modifier-click: a new tab) and show Obsidian's hover preview.
 */
export function MarkdownContent({ text, streaming, sourcePath = "" }: { text: string; streaming: boolean; sourcePath?: string }) {
  const host = useChatHost();
  const splitter = useRef<MarkdownBlockSplitter | null>(null);
  splitter.current ??= new MarkdownBlockSplitter();
  const { complete, tail } = splitter.current.update(text);
  const blocks = streaming || tail.trim() === "" ? complete : [...complete, tail];

  const linkOf = (event: MouseEvent): HTMLAnchorElement | null => {
    const link = (event.target as Element | null)?.closest?.("a.internal-link");
    return link instanceof HTMLAnchorElement ? link : null;
  };
  return (
    <div
      className="vault-copilot-markdown markdown-rendered"
      onClick={(event) => {
        const link = linkOf(event);
        if (!link) return;
        event.preventDefault();
        host.openLink(link.getAttribute("data-href") ?? link.getAttribute("href") ?? "", sourcePath, event.nativeEvent);
      }}
      onMouseOver={(event) => {
        const link = linkOf(event);
        if (link) host.hoverLink(event.nativeEvent, link, link.getAttribute("data-href") ?? "", sourcePath);
      }}
    >
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} markdown={block} sourcePath={sourcePath} />
      ))}
      {streaming && tail.trim() !== "" && <MarkdownBlock key={complete.length} markdown={tail} sourcePath={sourcePath} />}
    </div>
  );
}

/**
 * One block, rendered by Obsidian into its own element with its own child Component, unloaded
 * when the block changes or goes. A new render replaces the old one only once it is complete.
 */
const MarkdownBlock = memo(function MarkdownBlock({ markdown, sourcePath }: { markdown: string; sourcePath: string }) {
  const host = useChatHost();
  const element = useRef<HTMLDivElement>(null);
  /** Where the block is rendered before it is checked: the view's inert document, or one of its own. */
  const shared = useContext(InertDocumentContext);
  const own = useRef<Document | null>(null);
  useEffect(() => {
    const container = element.current;
    if (!container) return;
    const inert = shared ?? (own.current ??= createInertDocument(container.ownerDocument));
    const component = new Component();
    component.load();
    let current = true;
    // Rendered aside in an inert document and checked there, then moved in whole: nothing of it
    // loads before the check, and the old render stays until the new one is complete.
    renderInert((target) => host.renderMarkdown(neutralizeMarkdown(markdown), target, sourcePath, component), inert).then(
      (nodes) => {
        if (!current) return;
        container.replaceChildren(...nodes);
      },
      (error: unknown) => {
        if (!current) return;
        // The text is still shown, unrendered, rather than nothing.
        container.textContent = markdown;
        console.warn("Vault Copilot: an answer could not be rendered", error);
      },
    );
    return () => {
      current = false;
      component.unload();
    };
  }, [host, shared, markdown, sourcePath]);
  return <div className="vault-copilot-markdown-block" ref={element} />;
});
