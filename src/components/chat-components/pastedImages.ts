import type { ChatController } from "../../chat/ChatController";
import { pastedImageChip } from "../../chat/chipArtifacts";
import type { ContextChip } from "../../chat/chatTypes";
import { MAX_IMAGE_FILE_BYTES } from "../../chat/images/prepareImage";
import { t } from "../../i18n/t";

/**
 * Image files pasted or dropped from outside the vault, as chips: their bytes kept in memory for
 * the message (never written anywhere). Files that are not images, or too large to read, are
 * named in `problems`.
 */
export async function pastedImageChips(files: readonly File[]): Promise<{ chips: ContextChip[]; problems: string[] }> {
  const chips: ContextChip[] = [];
  const problems: string[] = [];
  for (const file of files) {
    if (!file.type.startsWith("image/")) problems.push(t("image.notImage", { name: file.name }));
    else if (file.size > MAX_IMAGE_FILE_BYTES) problems.push(t("image.tooLarge", { name: file.name, size: MAX_IMAGE_FILE_BYTES / 1_048_576 }));
    else chips.push(pastedImageChip(file.name || "pasted image", new Uint8Array(await file.arrayBuffer())));
  }
  return { chips, problems };
}

/** Adds the chips of image files pasted or dropped to the next message, telling the user of each file that is not one. */
export async function attachImageFiles(files: readonly File[], controller: Pick<ChatController, "addChip">, notify: (message: string) => void): Promise<void> {
  const { chips, problems } = await pastedImageChips(files);
  for (const chip of chips) controller.addChip(chip);
  for (const problem of problems) notify(t("notice.prefixed", { message: problem }));
}
