import type { Translation } from "./messages";

export const ja: Translation = {};
