import type { Translation } from "./messages";

export const de: Translation = {};
