import type { Translation } from "./messages";

export const fr: Translation = {};
