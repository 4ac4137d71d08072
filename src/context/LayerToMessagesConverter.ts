import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage, type ContentBlock } from "@langchain/core/messages";
import { describeImage, imageDataUrl, type ImageInput } from "./imageInput";
import { renderCiCMessage } from "./cicPromptUtils";
import { payloadText, type PayloadMessage, type PayloadSegment, type PromptEnvelope } from "./PromptContextTypes";
import { CONTEXT_LIBRARY_HEADING, renderContextArtifact, renderLibraryBlocks } from "./renderContextArtifacts";

export interface ConvertOptions {
  /**
   * True: L1 + L2 form the system message. False, for models that refuse the system role: the
   * same text opens the first user message instead.
   */
  includeSystemMessage: boolean;
  /**
   * True: L3 and L5 form one user message in CiC order, context first and the question last
   * after the `[User query]:` label. False: the context and the question are two user messages.
   */
  mergeUserContent: boolean;
}

/** The envelope as payload messages, each piece marked with its layer. */
function convertWithLayers(envelope: PromptEnvelope, options: ConvertOptions): PayloadMessage[] {
  const prefix = systemPrefixSegments(envelope);
  const messages: PayloadMessage[] = [];
  if (options.includeSystemMessage) messages.push({ role: "system", segments: prefix });

  for (const message of envelope.history) {
    messages.push({ role: message.role, segments: [{ layer: "L4", text: message.content }], ...(message.images?.length ? { images: message.images } : {}) });
  }

  const contextBlocks = turnContextBlocks(envelope);
  const turnImages = envelope.turnContext.flatMap((artifact) => artifact.images ?? []);
  const withImages = turnImages.length > 0 ? { images: turnImages } : {};
  if (options.mergeUserContent) {
    const whole = renderCiCMessage(contextBlocks, envelope.userMessage);
    const question = renderCiCMessage([], envelope.userMessage);
    const context = whole.slice(0, whole.length - question.length);
    messages.push({ role: "user", segments: [...(context ? [{ layer: "L3" as const, text: context }] : []), { layer: "L5", text: question }], ...withImages });
  } else {
    const context = contextBlocks.map((block) => block.trim()).filter(Boolean).join("\n\n");
    if (context) messages.push({ role: "user", segments: [{ layer: "L3", text: context }], ...withImages });
    messages.push({ role: "user", segments: [{ layer: "L5", text: envelope.userMessage }], ...(context ? {} : withImages) });
  }

  if (!options.includeSystemMessage) {
    const firstUser = messages.find((message) => message.role === "user");
    if (firstUser) firstUser.segments = [...prefix, { layer: prefix[prefix.length - 1]?.layer ?? "L1", text: "\n\n" }, ...firstUser.segments];
  }
  return messages;
}

/** L1, then L2 when the library holds anything; the text equals renderSystemPrefix(). */
function systemPrefixSegments(envelope: PromptEnvelope): PayloadSegment[] {
  const parts = envelope.systemParts && envelope.systemParts.length > 0 ? envelope.systemParts : [{ text: envelope.system }];
  const segments: PayloadSegment[] = parts.map((part) => ({ layer: "L1", text: part.text, ...(part.label ? { label: part.label } : {}) }));
  if (envelope.contextLibrary.length > 0) {
    const library = [CONTEXT_LIBRARY_HEADING, ...renderLibraryBlocks(envelope.contextLibrary)].join("\n\n");
    segments.push({ layer: "L2", text: `\n\n${library}` });
  }
  return segments;
}

/** This turn's attachments (numbered on from their revisions in the library), then the runner's blocks. */
function turnContextBlocks(envelope: PromptEnvelope): string[] {
  const revisions = new Map<string, number>();
  for (const artifact of envelope.contextLibrary) revisions.set(artifact.id, (revisions.get(artifact.id) ?? 0) + 1);
  const attachments = envelope.turnContext.map((artifact) => {
    const revision = (revisions.get(artifact.id) ?? 0) + 1;
    revisions.set(artifact.id, revision);
    return renderContextArtifact(artifact, revision);
  });
  return [...attachments, ...envelope.turnBlocks];
}

/** Payload messages as LangChain messages, ready for a chat model. */
function toLangChainMessages(messages: readonly PayloadMessage[]): BaseMessage[] {
  return messages.map((message) => {
    const content = payloadText(message);
    switch (message.role) {
      case "system":
        return new SystemMessage(content);
      case "user":
        return new HumanMessage(message.images?.length ? { content: userContentParts(message.images, content) } : content);
      case "assistant":
        return new AIMessage({
          content,
          tool_calls: (message.toolCalls ?? []).map((call) => ({ id: call.id, name: call.name, args: call.args, type: "tool_call" as const })),
        });
      case "tool":
        return new ToolMessage({ content, tool_call_id: message.toolCallId ?? "" });
    }
  });
}

/**
 * A user message with images as content parts, in the OpenAI format LangChain carries (each
 * provider's client writes its own from it): each image after a line naming it, then the text,
 * so the question stays last.
 */
function userContentParts(images: readonly ImageInput[], text: string): ContentBlock[] {
  return [
    ...images.flatMap((image): ContentBlock[] => [
      { type: "text", text: describeImage(image) },
      { type: "image_url", image_url: { url: imageDataUrl(image) } },
    ]),
    { type: "text", text },
  ];
}

/** The envelope as LangChain messages (see ConvertOptions). */
function convert(envelope: PromptEnvelope, options: ConvertOptions): BaseMessage[] {
  return toLangChainMessages(convertWithLayers(envelope, options));
}

/**
 * Turns a layered envelope into the messages a chat model takes. Runners that add messages of
 * their own (the agent's tool calls and results) keep the payload form and convert it per request.
 */
export const LayerToMessagesConverter = { convert, convertWithLayers, toLangChainMessages };
